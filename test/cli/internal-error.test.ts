// A failure of dms itself (a bug) is exit 70 on every command that talks to the API, never 1 (a
// failed revision, which a pipeline may roll back on): the message says it is a bug, its text is
// safe for a terminal, and with --json the last stdout line is still a result object. The bug is
// made here by an environment whose DMS_BASE_URL cannot be read (a getter that throws).
import { describe, expect, it } from "vitest";
import { runDms } from "../../src/cli/dispatch.js";
import { EXIT } from "../../src/cli/exit-codes.js";
import { COMMANDS } from "../../src/cli/specs.js";

const DEPLOYMENT = "6b0d8a52-3c1e-4f7a-9b2d-1e5f3a7c9d01";
const REVISION = "0c6b5e0a-7f6d-4b1e-8a47-3d2f1c9e8b70";
const ARGS: Record<string, string[]> = {
  deploy: [DEPLOYMENT, "--ref", "main"],
  wait: [DEPLOYMENT, REVISION],
  rollback: [DEPLOYMENT],
  deployments: [],
  revisions: [DEPLOYMENT],
};

async function withBrokenEnvironment(args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const env = new Proxy({ DMS_API_KEY: "k" } as Record<string, string>, {
    get: (target, key) => {
      if (key === "DMS_BASE_URL") throw new TypeError("a bug \x1b[2J\x1b]0;owned\x07 here");
      return target[key as string];
    },
  });
  const code = await runDms(args, {
    stdout: { isTTY: false, write: (text: string) => out.push(text) },
    stderr: { isTTY: false, write: (text: string) => err.push(text) },
    env,
  });
  return { code, stdout: out.join(""), stderr: err.join("") };
}

describe("dms: a failure of dms itself", () => {
  const specs = Object.values(COMMANDS) as readonly { name: string; exitCodes: readonly (readonly [number, string])[] }[];
  const names = specs.map((spec) => spec.name).filter((name) => name in ARGS);

  it("covers every command that talks to the API, and 70 is in each one's help", () => {
    expect(names.sort()).toEqual(Object.keys(ARGS).sort());
    for (const spec of specs.filter((s) => names.includes(s.name))) expect(spec.exitCodes.map(([code]) => code)).toContain(EXIT.internal);
  });

  it.each(Object.keys(ARGS))("dms %s: exit 70, a one-line message that says it is a bug, no raw escape", async (name) => {
    const result = await withBrokenEnvironment([name, ...ARGS[name]!]);
    expect(result.code).toBe(70);
    expect(result.stderr).toContain(`dms ${name}: unexpected error (a bug in dms; please report it): TypeError: a bug`);
    expect(result.stderr).not.toMatch(/[\x1b\x07]/);
    expect(result.stdout).toBe("");
  });

  it.each(Object.keys(ARGS))("dms %s --json: the last line is the result object, kind internal", async (name) => {
    const result = await withBrokenEnvironment([name, ...ARGS[name]!, "--json"]);
    expect(result.code).toBe(70);
    const last = JSON.parse(result.stdout.trimEnd().split("\n").at(-1)!);
    expect(last).toMatchObject({ event: "result", exit_code: 70, error: { kind: "internal" } });
    expect(last.error.message).toContain("a bug");
    expect(last.error.message).not.toMatch(/[\x1b\x07]/);
  });
});
