// A port given to any local server (a flag, an environment variable, an option) is a whole number
// from 0 to 65535, and a bad one is refused by the name it came from, before anything listens:
// parsePort's own cases, then each command line as a child process and each start function.
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { isPort, parsePort } from "../../src/shared/port.js";
import { startMock } from "../../src/mock/front.js";
import { startSimulator } from "../../src/simulator/node/index.js";
import { dms } from "../cli/support.js";
import { ROOT } from "../support/document.js";
import { run } from "../support/run.js";

const NOT_PORTS = ["", " ", "-1", "65536", "99999", "1.5", "1e3", "0x10", "+80", "80 80", "abc", "\u001b[31m80"];

describe("parsePort", () => {
  it.each(["0", "1", "4011", "65535", " 8080 "])("reads %j", (raw) => {
    expect(parsePort("PORT", raw)).toBe(Number(raw.trim()));
  });

  it.each(NOT_PORTS)("refuses %j by name, with the value shown escaped", (raw) => {
    expect(() => parsePort("--port", raw)).toThrow(/^--port takes a port number from 0 to 65535/);
    try {
      parsePort("PORT", raw);
    } catch (error) {
      // Control characters never reach a terminal raw.
      expect((error as Error).message).not.toMatch(/[\u0000-\u001f]/);
    }
  });

  it("isPort takes numbers only", () => {
    expect([0, 65535, 4011].every(isPort)).toBe(true);
    expect([-1, 65536, 1.5, Number.NaN, "80", undefined].some(isPort)).toBe(false);
  });
});

/** Runs a command that must refuse before it listens: its exit code and stderr. */
async function refused(file: string, args: string[], env: Record<string, string>): Promise<{ code: number; stderr: string }> {
  const result = await run(process.execPath, [file, ...args], { cwd: ROOT, env: { ...process.env, ...env }, timeout: 30_000 }).then(
    () => ({ code: 0, stderr: "" }),
    (error: { code?: number; stderr?: string }) => ({ code: error.code ?? -1, stderr: error.stderr ?? "" }),
  );
  return result;
}

describe("every command line refuses a bad port by the name it came from", () => {
  it("dms-simulator: --port and PORT (exit 2, a usage error, as every local server)", async () => {
    const bin = join(ROOT, "dist/simulator/node/cli.js");
    const flag = await refused(bin, ["--port", "70000"], {});
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain('dms-simulator: --port takes a port number from 0 to 65535 (0 picks a free one), not "70000"');
    const variable = await refused(bin, [], { PORT: "1.5" });
    expect(variable.code).toBe(2);
    expect(variable.stderr).toContain('PORT takes a port number from 0 to 65535 (0 picks a free one), not "1.5"');
  });

  it("npm start's mock: PORT (exit 2)", async () => {
    const mock = await refused(join(ROOT, "tools/run/mock.ts"), [], { PORT: "abc" });
    expect(mock.code).toBe(2);
    expect(mock.stderr).toContain('mock: PORT takes a port number from 0 to 65535 (0 picks a free one), not "abc"');
  });

  it("npm run docs: PORT (exit 2)", async () => {
    const docs = await refused(join(ROOT, "tools/docs/serve.ts"), [], { PORT: "-1" });
    expect(docs.code).toBe(2);
    expect(docs.stderr).toBe(
      'npm run docs: PORT takes a port number from 0 to 65535 (0 picks a free one), not "-1"\nusage: npm run docs [-- --help]\nenv: PORT (8080), HOST (127.0.0.1)\n',
    );
  });

  it("dms mcp --port (exit 2)", async () => {
    const result = await dms(["mcp", "--port", "99999"], { DMS_API_KEY: "k", DMS_BASE_URL: "http://127.0.0.1:1" });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--port takes a port number from 0 to 65535 (0 picks a free one), not "99999"');
  });
});

describe("the start functions refuse a bad port option by name", () => {
  it.each([70000, -1, 1.5, Number.NaN, "4011"])("startSimulator and startMock: port %j", async (port) => {
    await expect(startSimulator({ port: port as number, quiet: true })).rejects.toThrow(/^startSimulator: port must be a port number from 0 to 65535/);
    await expect(startMock({ port: port as number })).rejects.toThrow(/^startMock: port must be a port number from 0 to 65535/);
  });
});
