// Running a program from a test: execFile as a promise. It resolves to { stdout, stderr } and, when
// the program exits non-zero, rejects with an error that carries them and the exit code.
import { execFile } from "node:child_process";
import { promisify } from "node:util";

export const run = promisify(execFile);

/** npm's executable on this platform (execFile does not go through a shell, so Windows needs the .cmd). */
export const npm = process.platform === "win32" ? "npm.cmd" : "npm";
