// On a terminal: a live spinner line on stderr and coloured states, and no colours with NO_COLOR.
// The CLI runs under script(1), which gives it a pseudo-terminal; skipped where script is missing.
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSimulator, type RunningSimulator } from "../../src/simulator/node/index.js";
import { cleanEnv, DMS, SimulatorControl } from "./support.js";

const SCRIPT = "/usr/bin/script";
let simulator: RunningSimulator;
let sim: SimulatorControl;
let ids: string[];

beforeAll(async () => {
  simulator = await startSimulator({ port: 0, stepSeconds: 0.15, quiet: true });
  sim = new SimulatorControl(simulator.url);
  ids = await sim.deploymentIds();
});
afterAll(() => simulator?.close());

/** Runs dms in a pseudo-terminal; returns what the terminal showed (stdout and stderr together). */
function inTerminal(args: string[], env: Record<string, string | undefined>): Promise<string> {
  const command = [process.execPath, DMS, ...args].map((a) => `'${a}'`).join(" ");
  return new Promise((resolve, reject) =>
    execFile(SCRIPT, ["-qfec", command, "/dev/null"], { env: cleanEnv({ TERM: "xterm", ...env }) }, (error, stdout) =>
      error ? reject(error) : resolve(stdout),
    ),
  );
}

const GREEN_DEPLOYED = "\x1b[32mrevision ";
const SPINNER = /\r\x1b\[2K\x1b\[2m[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]\x1b\[22m (waiting|CREATING|QUEUED|AWAITING_BUILD|BUILDING|AWAITING_DEPLOY|DEPLOYING) {2}\d+\.\ds/;

describe.runIf(existsSync(SCRIPT)).concurrent("on a terminal", () => {
  it("draws a spinner line and colours the outcome", async () => {
    // A secret creates a revision on every source (--ref only on scm_host: src/shared/source-rules.ts).
    const shown = await inTerminal(["deploy", ids[10]!, "--secret", "RELEASE=main", "--interval", "50ms"], sim.env());
    expect(shown).toMatch(SPINNER);
    expect(shown).toContain(GREEN_DEPLOYED);
  });

  it("NO_COLOR turns the colours off; the spinner stays", async () => {
    const shown = await inTerminal(["deploy", ids[11]!, "--secret", "RELEASE=main", "--interval", "50ms"], sim.env({ NO_COLOR: "1" }));
    expect(shown).not.toMatch(/\x1b\[(3\d|2|22)m/);
    expect(shown).toMatch(/\r\x1b\[2K[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] /);
    expect(shown).toMatch(/revision \S+ DEPLOYED after/);
  });

  it("--json draws no spinner and no colours", async () => {
    const shown = await inTerminal(["deploy", ids[12]!, "--ref", "main", "--interval", "50ms", "--json"], sim.env());
    expect(shown).not.toContain("\x1b[");
    for (const line of shown.split(/\r?\n/).filter(Boolean)) JSON.parse(line);
  });
});
