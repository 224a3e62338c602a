// Every message answered: one table of raw messages, sent to `dms mcp` (the compiled CLI as a child
// process) as raw lines on stdin and as raw POST bodies to `dms mcp --port`, each with the answer
// JSON-RPC 2.0 asks for, the same over both: not JSON -32700 (id null), not JSON-RPC -32600 (with its
// id when it can be read), a batch one -32600 saying batches are not taken, and any JSON integer id,
// however large, echoed as the same digits. The server goes on answering after each.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningSimulator, startSimulator } from "../../src/simulator/node/index.js";
import { restoreIds } from "../../src/mcp/framing.js";
import { idOfEdges } from "../../src/mcp/stdio.js";
import { startDms } from "../cli/support.js";
import { sendRaw } from "../support/raw-http.js";

const KEY = "framing-test-key-2c7d";
const INITIALIZE = { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } };
const BIG = "123456789012345678901234567890";
const PAST_2_53 = "9007199254740993";

/** A raw message, and what its answer's raw text must hold: the id as written, the code or a result. */
const CASES: { name: string; line: string; id: string; code?: number; message?: RegExp }[] = [
  { name: "not JSON", line: "{not json", id: "null", code: -32700 },
  { name: "a wrong jsonrpc, id readable", line: '{"jsonrpc":"1.0","id":5,"method":"ping"}', id: "5", code: -32600 },
  { name: "no method, result or error", line: '{"jsonrpc":"2.0","id":"s-1"}', id: '"s-1"', code: -32600 },
  { name: "an id that is an object", line: '{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}', id: "null", code: -32600 },
  { name: "a batch", line: '[{"jsonrpc":"2.0","id":1,"method":"ping"}]', id: "null", code: -32600, message: /batches are not taken/ },
  { name: "an empty batch", line: "[]", id: "null", code: -32600 },
  { name: "an id past 2^53", line: `{"jsonrpc":"2.0","id":${PAST_2_53},"method":"ping"}`, id: PAST_2_53 },
  { name: "an id of 30 digits", line: `{"jsonrpc":"2.0","id":${BIG},"method":"ping"}`, id: BIG },
  { name: "a negative id of 30 digits", line: `{"jsonrpc":"2.0","id":-${BIG},"method":"ping"}`, id: `-${BIG}` },
  { name: "an invalid request with a big id", line: `{"jsonrpc":"1.0","id":${BIG},"method":"ping"}`, id: BIG, code: -32600 },
  {
    name: "a request nested 101 levels deep",
    line: `{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"list_listeners","arguments":{"a":${"[".repeat(98)}${"]".repeat(98)}}}}`,
    id: "9",
    code: -32600,
    message: /nests objects and arrays more than 100 levels deep/,
  },
  {
    name: "JSON nested 100,000 levels deep",
    line: `${"[".repeat(100_000)}${"]".repeat(100_000)}`,
    id: "null",
    code: -32600,
    message: /more than 100 levels deep/,
  },
];

/** Checks one answer's raw text against its case. */
function expectAnswer(text: string, c: (typeof CASES)[number]): void {
  expect(text, c.name).toContain(`"id":${c.id}`);
  const answer = JSON.parse(text);
  if (c.code === undefined) expect(answer.result, `${c.name}: ${text}`).toEqual({});
  else {
    expect(answer.error?.code, `${c.name}: ${text}`).toBe(c.code);
    if (c.message) expect(answer.error.message).toMatch(c.message);
  }
}

let sim: RunningSimulator;
beforeAll(async () => {
  sim = await startSimulator({ port: 0, stepSeconds: 0.02, quiet: true });
});
afterAll(() => sim?.close());

describe("a big id seen only at a too-large message's edges", () => {
  it("is answered as the same digits", () => {
    const id = idOfEdges(`{"jsonrpc":"2.0","id":${BIG},"method":"tools/call","params":{"x":"`, "");
    expect(restoreIds(JSON.stringify({ jsonrpc: "2.0", id, error: { code: -32600, message: "too large" } }))).toContain(`"id":${BIG},`);
    expect(idOfEdges(`{"jsonrpc":"2.0","id":${PAST_2_53},"method":"x","params":{"a":"`, "")).not.toBe(Number(PAST_2_53));
  });
});

describe("every message answered", () => {
  it("over stdio: raw lines, each answered with one line", async () => {
    const run = startDms(["mcp"], { DMS_BASE_URL: sim.url, DMS_API_KEY: KEY });
    let stdout = "";
    run.child.stdout.on("data", (chunk: string) => {
      stdout += chunk;
    });
    try {
      run.child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id: "init", method: "initialize", params: INITIALIZE })}\n`);
      await run.waitForStdout('"id":"init"');
      run.child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n`);
      for (const c of CASES) {
        const seen = stdout.length;
        run.child.stdin.write(`${c.line}\n`);
        await expect.poll(() => stdout.slice(seen).includes("\n"), { message: c.name }).toBe(true);
        const lines = stdout
          .slice(seen)
          .split("\n")
          .filter((l) => l !== "");
        expect(lines, c.name).toHaveLength(1);
        expectAnswer(lines[0]!, c);
      }
      run.child.stdin.write('{"jsonrpc":"2.0","id":"last","method":"ping"}\n');
      await run.waitForStdout('"id":"last"');
    } finally {
      run.child.stdin.end();
      await run.ended;
    }
  });

  it("over HTTP: raw POST bodies, each answered", async () => {
    const run = startDms(["mcp", "--port", "0"], { DMS_BASE_URL: sim.url, DMS_API_KEY: KEY });
    let out = "";
    run.child.stdout.on("data", (chunk: string) => {
      out += chunk;
    });
    try {
      await run.waitForStdout("/mcp\n");
      const url = new URL(out.split("\n")[0]!);
      for (const c of CASES) {
        const { status, text } = await sendRaw(url, {
          method: "POST",
          headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "content-length": String(Buffer.byteLength(c.line)) },
          body: c.line,
        });
        expect(status, c.name).toBe(c.code === undefined ? 200 : 400);
        // An SSE answer: the data of its message event.
        const answer =
          c.code === undefined
            ? text
                .split("\n")
                .find((l) => l.startsWith("data: {"))!
                .slice("data: ".length)
            : text;
        expectAnswer(answer, c);
      }
    } finally {
      run.child.kill("SIGTERM");
      await run.ended;
    }
  });
});
