// docs/cli.md reads the same flag tables as the parser and --help: its tables are what
// src/cli/specs.ts says, every `dms` command line on the page parses with them, its workflow uses
// the Action's declared inputs, and its "try it locally" block runs and leaves no simulator behind.
import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import { createServer } from "node:net";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { commandFlags } from "../../../src/cli/flags.js";
import { flagsMarkdown, parseOptions } from "../../../src/shared/flag-table.js";
import { COMMANDS } from "../../../src/cli/specs.js";
import { SIMULATOR_FLAGS } from "../../../src/simulator/node/flags.js";
import { ROOT } from "../../support/document.js";
import { cleanEnv, DMS } from "../../cli/support.js";

const page = await readFile(join(ROOT, "docs/cli.md"), "utf8");
const blocks = (info: string) => [...page.matchAll(new RegExp(`^\`\`\`${info}\\n([\\s\\S]*?)^\`\`\`$`, "gm"))].map((m) => m[1]!);

/** Shell words of one command line: quotes removed, stopping at ; | & # and redirections. */
function words(line: string): string[] {
  const out: string[] = [];
  for (const match of line.matchAll(/"((?:[^"\\]|\\.)*)"|'([^']*)'|([;|&#<>])|([^\s"';|&#<>]+)/g)) {
    if (match[3] !== undefined) break;
    out.push(match[1] ?? match[2] ?? match[4]!);
  }
  return out;
}

describe("docs/cli.md", () => {
  it.each(Object.keys(COMMANDS))("the flags table of dms %s is the one the parser reads", (name) => {
    const spec = COMMANDS[name as keyof typeof COMMANDS];
    const shown = new RegExp(`<!-- flags:${name} -->\\n([\\s\\S]*?)\\n<!-- /flags -->`).exec(page)?.[1];
    expect(shown, `docs/cli.md has a flags:${name} table`).toBeDefined();
    expect(shown).toBe(flagsMarkdown(commandFlags(spec)));
  });

  it("the dms simulate table is the simulator's own: the one its parser and its usage read", async () => {
    expect(COMMANDS.simulate.groups[0].flags).toBe(SIMULATOR_FLAGS);
    const shown = /<!-- flags:simulate -->\n([\s\S]*?)\n<!-- \/flags -->/.exec(page)?.[1];
    expect(shown).toBe(flagsMarkdown(SIMULATOR_FLAGS));
    // The simulator's parser (dms-simulator) prints its usage with a usage error.
    const { stderr } = await new Promise<{ stderr: string }>((resolve) =>
      execFile(process.execPath, [DMS, "simulate", "--no-such-flag"], { env: cleanEnv() }, (_error, _out, err) => resolve({ stderr: err })),
    );
    const usage = stderr.slice(stderr.indexOf("Usage: dms-simulator"));
    const accepted = [...usage.matchAll(/--([a-z-]+)/g)].map((m) => m[1]).sort();
    expect(accepted.length).toBeGreaterThan(5);
    expect(Object.keys(SIMULATOR_FLAGS).sort()).toEqual(accepted);
  });

  it("every dms command line in its shell samples parses with the command's flag table", () => {
    const lines = blocks("sh")
      .join("\n")
      .replace(/\\\n\s*/g, " ")
      .split("\n")
      .flatMap((line) => line.split(/;|&&|\$\(/))
      .map((line) => words(line.trim()))
      .map((w) =>
        w.slice(
          Math.max(
            0,
            w.findIndex((word) => word === "dms" || word.endsWith("/dms")),
          ),
        ),
      )
      .filter((w) => w[0] === "dms" || w[0]?.endsWith("/dms"));
    expect(lines.length).toBeGreaterThan(5);
    for (const [, command, ...args] of lines) {
      const spec = COMMANDS[command as keyof typeof COMMANDS];
      expect(spec, `dms ${command} is a command`).toBeDefined();
      const parsed = parseArgs({ args, options: parseOptions(commandFlags(spec)), strict: true, allowPositionals: true });
      expect(parsed.positionals, `dms ${command} ${args.join(" ")}`).toHaveLength(spec.positionals.length);
    }
  });

  it("the workflow uses checkout and setup-node v6 with Node 24, and the Action's declared inputs", async () => {
    const action = parse(await readFile(join(ROOT, "action.yml"), "utf8")) as { inputs: Record<string, { required?: boolean }> };
    const workflow = parse(blocks("yaml").find((b) => b.includes("jobs:"))!) as {
      jobs: Record<string, { steps: { uses?: string; with?: Record<string, unknown> }[] }>;
    };
    const steps = Object.values(workflow.jobs).flatMap((job) => job.steps);
    expect(steps.map((s) => s.uses)).toEqual(expect.arrayContaining(["actions/checkout@v6", "actions/setup-node@v6"]));
    expect(steps.find((s) => s.uses === "actions/setup-node@v6")?.with?.["node-version"]).toBe(24);
    const deploy = steps.find((s) => s.uses?.includes("deployment-management-api"))!;
    for (const name of Object.keys(deploy.with ?? {})) expect(action.inputs, `input ${name}`).toHaveProperty(name);
    for (const [name, input] of Object.entries(action.inputs)) if (input.required) expect(deploy.with, `required input ${name}`).toHaveProperty(name);
  });

  it('"try it locally" runs as written and leaves no simulator running', async () => {
    const block = blocks("sh").find((b) => b.includes("dms simulate"))!;
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise((resolve) => server.close(resolve));
    const script = `${block
      .replaceAll("./node_modules/.bin/dms", '"$NODE" "$DMS"')
      .replaceAll("npx dms", '"$NODE" "$DMS"')
      .replaceAll("4011", String(port))
      .replaceAll("--step-seconds 1", "--step-seconds 0.05")
      .replaceAll("--interval 1s", "--interval 20ms")}\necho "pid=$SIMULATOR" >&2\n`;
    const { stdout, stderr } = await new Promise<{ stdout: string; stderr: string }>((resolve, reject) =>
      execFile("bash", ["-c", script], { env: cleanEnv({ NODE: process.execPath, DMS }), timeout: 120_000 }, (error, out, err) =>
        error ? reject(new Error(`${error.message}\n${out}\n${err}`)) : resolve({ stdout: out, stderr: err }),
      ),
    );
    expect(stdout).toMatch(/^exit 0$/m);
    expect(stdout).toMatch(/^exit 1$/m);
    const pid = Number(/pid=(\d+)/.exec(stderr)?.[1]);
    expect(pid).toBeGreaterThan(0);
    expect(() => process.kill(pid, 0)).toThrow(/ESRCH/);
  });
});
