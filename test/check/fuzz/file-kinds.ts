// Every kind of path a user can name where the package expects a file: a regular file, nothing (in a
// directory, in a missing directory, under a file), a directory, a FIFO, a socket, a character
// device, a symlink to each of them and a dangling one. The path tests (state files, imports, the
// GitHub files) run every entry of the package that takes a path over all of them.
import { spawnSync } from "node:child_process";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { join } from "node:path";

export interface FileKind {
  /** How the test names it. */
  name: string;
  path: string;
  /** A regular file, or nothing where a file can be created: usable. Everything else is refused. */
  usable: boolean;
  /** What a refusal must say the path is. */
  says?: RegExp;
}

/** Makes one of each kind in `dir` (a fresh directory). `regular` fills the regular file; the socket stays open until `close`. */
export async function makeFileKinds(
  dir: string,
  regular: (path: string) => void = (path) => writeFileSync(path, ""),
): Promise<{ kinds: FileKind[]; close: () => Promise<void> }> {
  mkdirSync(dir, { recursive: true });
  const at = (name: string) => join(dir, name);
  regular(at("regular"));
  // The symlink gets a file of its own, so that the two usable cases can be started side by side.
  regular(at("linked-regular"));
  mkdirSync(at("directory"));
  // Node's fs makes no FIFOs: mkfifo(1) does.
  const made = spawnSync("mkfifo", [at("fifo")]);
  if (made.status !== 0) throw new Error(`mkfifo failed: ${made.stderr}`);
  writeFileSync(at("plain-file"), "");
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(at("socket"), resolve));
  const targets: [string, boolean, RegExp | undefined][] = [
    ["regular", true, undefined],
    ["directory", false, /directory/],
    ["fifo", false, /FIFO/],
    ["socket", false, /socket/],
    ["/dev/null", false, /character device/],
  ];
  const kinds: FileKind[] = [];
  for (const [target, usable, says] of targets) {
    const path = target.startsWith("/") ? target : at(target);
    kinds.push({ name: target, path, usable, ...(says ? { says } : {}) });
    const link = at(`link-to-${target.replace(/\W/g, "_")}`);
    symlinkSync(target === "regular" ? at("linked-regular") : path, link);
    kinds.push({ name: `symlink to ${target}`, path: link, usable, ...(says ? { says: new RegExp(`symbolic link to .*${says.source}`) } : {}) });
  }
  symlinkSync(at("nothing-here"), at("dangling"));
  kinds.push(
    { name: "missing", path: at("missing"), usable: true },
    { name: "dangling symlink", path: at("dangling"), usable: false, says: /symbolic link to a missing file/ },
    { name: "in a missing directory", path: at("no-such-dir/file"), usable: false, says: /directory .*no-such-dir is missing/ },
    { name: "under a regular file", path: at("plain-file/file"), usable: false, says: /plain-file is a regular file, not a directory/ },
  );
  return { kinds, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
