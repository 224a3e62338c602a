// Values that cannot be sent, in every option that becomes a header or a URL. The dms options are
// read from the flag tables (every flag with a DMS_ variable: its flag and its variable), the client's
// from its options; each gets a value with a character of each class fetch refuses or changes (line
// breaks, control characters, characters above U+00FF). A value that cannot be sent is the caller's
// mistake: exit 2 naming the flag or variable, or a TypeError naming the option, never the value
// itself (it may be the key), and nothing reaches the server. Exit 6 (network) would make CI retry.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDeploymentsClient } from "../../../src/client/client.js";
import { type CommandSpec, commandFlags } from "../../../src/cli/flags.js";
import { COMMANDS } from "../../../src/cli/specs.js";
import { startSimulator } from "../../../src/simulator/node/start.js";
import { simulatorPlugin } from "../../../src/vite/index.js";
import { dms } from "../../cli/support.js";

/** A part no message may show: it stands for the secret. */
const MARK = "SeCrEtMaRk";

/** Characters fetch cannot send in a header (or sends as something else), by class. NUL cannot be passed to a process at all. */
const HEADER_CLASSES: [name: string, char: string][] = [
  ["LF", "\n"],
  ["CR", "\r"],
  ["CR LF", "\r\n"],
  ["NUL", "\0"],
  ["C0 control", "\x01"],
  ["ESC", "\x1b"],
  ["DEL", "\x7f"],
  ["above U+00FF", "\u0100"],
  ["line separator", "\u2028"],
  ["emoji", "\u{1F600}"],
];
/** In a URL, the parser drops or trims these. */
const URL_CLASSES = HEADER_CLASSES.filter(([, c]) => /[\x00-\x1f\x7f]/.test(c));

let server: Server;
let base = "";
let requests = 0;
beforeAll(async () => {
  server = createServer((_req, res) => {
    requests++;
    res.writeHead(500).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** The commands that send requests and end (simulate and mcp serve until stopped), each with its help's first example. */
const withConnection = Object.values(COMMANDS as Record<string, CommandSpec>).filter((spec) =>
  Object.values(commandFlags(spec)).some((flag) => flag.env?.startsWith("DMS_")),
);
const sending = withConnection.filter((spec) => spec.name !== "mcp");

/** Every flag read from a DMS_ variable: how its value is sent, and a good value to put a bad character in. */
function connectionFlags(spec: CommandSpec) {
  return Object.entries(commandFlags(spec))
    .filter(([, flag]) => flag.env?.startsWith("DMS_"))
    .map(([name, flag]) => ({
      flag: `--${name}`,
      variable: flag.env!,
      url: flag.placeholder === "URL",
      good: flag.placeholder === "URL" ? base : flag.placeholder === "ID" ? "6b0d8a52-3c1e-4f7a-9b2d-1e5f3a7c9d01" : "dev-key",
    }));
}

/** `char` inside a good value, with the mark beside it: inside the host or the port for a URL. */
const spoil = (good: string, char: string, url: boolean) => (url ? good.replace("127.0.0.1", `127.0${char}${MARK}.0.1`) : `${good}${char}${MARK}`);

describe("dms: a value that cannot be sent, in every flag and variable that becomes a header or a URL", () => {
  it("the flag tables name the options this test covers", () => {
    expect(sending.map((s) => s.name)).toEqual(expect.arrayContaining(["deploy", "wait", "deployments", "revisions"]));
    expect(connectionFlags(sending[0]!).map((f) => f.variable)).toEqual(expect.arrayContaining(["DMS_BASE_URL", "DMS_API_KEY", "DMS_TENANT_ID"]));
  });

  it("exit 2 naming the flag or the variable, never showing the value; nothing is sent", async () => {
    // Every command, flag and source once; the classes in rotation, so each appears several times.
    const cases: { command: CommandSpec; flag: ReturnType<typeof connectionFlags>[number]; fromEnv: boolean; cls: [string, string] }[] = [];
    let n = 0;
    for (const command of sending) {
      for (const flag of connectionFlags(command)) {
        const classes = (flag.url ? URL_CLASSES : HEADER_CLASSES).filter(([, c]) => !c.includes("\0"));
        for (const fromEnv of [false, true]) cases.push({ command, flag, fromEnv, cls: classes[n++ % classes.length]! });
      }
    }
    const before = requests;
    for (let i = 0; i < cases.length; i += 4) {
      await Promise.all(
        cases.slice(i, i + 4).map(async ({ command, flag, fromEnv, cls }) => {
          const example = command.example[0]!.split(" ").slice(1);
          const env: Record<string, string> = { DMS_BASE_URL: base, DMS_API_KEY: "dev-key", OPENAI_API_KEY: "x" };
          const bad = spoil(flag.good, cls[1], flag.url);
          const args = fromEnv ? example : [...example, flag.flag, bad];
          if (fromEnv) env[flag.variable] = bad;
          const result = await dms(args, env);
          const label = `dms ${command.name} with ${cls[0]} in ${fromEnv ? flag.variable : flag.flag}: ${result.stderr}`;
          expect(result.code, label).toBe(2);
          expect(result.stderr, label).toContain(fromEnv ? flag.variable : flag.flag);
          expect(result.stderr + result.stdout, label).not.toContain(MARK);
        }),
      );
    }
    expect(requests - before).toBe(0);
  });
});

describe("createDeploymentsClient: a value that cannot be sent, in every option that becomes a header or the URL", () => {
  const options: [name: string, make: (bad: string) => Record<string, unknown>, url: boolean][] = [
    ["apiKey", (bad) => ({ apiKey: bad }), false],
    ["tenantId", (bad) => ({ apiKey: "k", tenantId: bad }), false],
    ["headers", (bad) => ({ apiKey: "k", headers: { "X-Trace": bad } }), false],
    ["headers", (bad) => ({ apiKey: "k", headers: [["X-Trace", bad]] }), false],
    ["baseUrl", (bad) => ({ apiKey: "k", baseUrl: bad }), true],
  ];
  for (const [name, make, url] of options) {
    it(`${name}: a TypeError at creation naming it, for every class; nothing is fetched`, () => {
      for (const [cls, char] of url ? URL_CLASSES : HEADER_CLASSES) {
        let fetched = 0;
        const fetch = async () => {
          fetched++;
          return new Response("{}");
        };
        const create = () =>
          createDeploymentsClient({ baseUrl: "http://127.0.0.1:4010", fetch, ...make(url ? spoil(base, char, true) : spoil("dev-key", char, false)) });
        expect(create, `${name} with ${cls}`).toThrow(TypeError);
        expect(create, `${name} with ${cls}`).toThrow(new RegExp(name));
        try {
          create();
        } catch (error) {
          expect((error as Error).message).not.toContain(MARK);
        }
        expect(fetched).toBe(0);
      }
    });
  }
  it("whitespace at either end of a key or tenant id is refused (fetch would send another value)", () => {
    for (const bad of [" k", "k ", "\tk"]) {
      expect(() => createDeploymentsClient({ baseUrl: "http://127.0.0.1:4010", apiKey: bad })).toThrow(/apiKey/);
      expect(() => createDeploymentsClient({ baseUrl: "http://127.0.0.1:4010", apiKey: "k", tenantId: bad })).toThrow(/tenantId/);
    }
  });
});

describe("the simulator's accepted keys: a key no client can send is refused where it is given", () => {
  it("startSimulator({ apiKeys }) and simulatorPlugin({ apiKeys }): a TypeError naming the option, for every class", async () => {
    for (const [cls, char] of HEADER_CLASSES) {
      const keys = ["good", `bad${char}${MARK}`];
      const started = await startSimulator({ port: 0, quiet: true, seedDeployments: 1, apiKeys: keys }).then(
        async (s) => {
          await s.close();
          return undefined;
        },
        (e: Error) => e,
      );
      expect(started, cls).toBeInstanceOf(TypeError);
      expect(started!.message, cls).toMatch(/apiKeys\[1\]/);
      expect(started!.message).not.toContain(MARK);
      expect(() => simulatorPlugin({ apiKeys: keys }), cls).toThrow(/simulatorPlugin: apiKeys\[1\]/);
    }
  });

  it("SIMULATOR_API_KEYS: dms simulate exits naming the variable", async () => {
    for (const [cls, char] of HEADER_CLASSES.filter(([, c]) => !c.includes("\0"))) {
      const result = await dms(["simulate", "--port", "0", "--quiet"], { SIMULATOR_API_KEYS: `good,bad${char}${MARK}` });
      expect(result.code, `${cls}: ${result.stderr}`).not.toBe(0);
      expect(result.stderr, cls).toContain("SIMULATOR_API_KEYS");
      expect(result.stderr).not.toContain(MARK);
    }
  });
});
