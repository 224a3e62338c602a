// What a prober sends the MCP server, raw: JSON-RPC messages written by hand (keys an SDK client
// would never send, such as __proto__), and a service that repeats a short API key. Spoken to in
// memory, against the in-process simulator.
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { createDeploymentsClient } from "../../src/client/client.js";
import { createMcpServer } from "../../src/mcp/index.js";
import { boundedLines, idOfEdges } from "../../src/mcp/stdio.js";
import { createSimulator, SEED_IDS } from "../../src/simulator/core/index.js";

const DEPLOYMENT = SEED_IDS.deployment_id;
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** A server on one end of a linked pair; `call` sends a raw JSON-RPC message (parsed from text) and answers the response to it. */
async function rawServer(options: { apiKey: string; fetch?: typeof fetch }) {
  const sim = createSimulator({ stepSeconds: 0.01 });
  const client = createDeploymentsClient({
    baseUrl: "https://api.example.test",
    apiKey: options.apiKey,
    fetch: options.fetch ?? sim.fetch,
    retry: { retries: 0 },
  });
  const server = createMcpServer({ client, pollIntervalMs: 5, redact: [options.apiKey] });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const waiting = new Map<unknown, (message: any) => void>();
  clientSide.onmessage = (message: any) => waiting.get(message.id)?.(message);
  await server.connect(serverSide);
  await clientSide.start();
  closers.push(() => server.close());
  let next = 0;
  const send = (method: string, params: string): Promise<any> => {
    const id = ++next;
    const answered = new Promise((resolve) => waiting.set(id, resolve));
    void clientSide.send(JSON.parse(`{"jsonrpc":"2.0","id":${id},"method":${JSON.stringify(method)},"params":${params}}`) as JSONRPCMessage);
    return answered;
  };
  await send("initialize", JSON.stringify({ protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } }));
  await clientSide.send({ jsonrpc: "2.0", method: "notifications/initialized" });
  return { sim, call: (name: string, args: string) => send("tools/call", `{"name":${JSON.stringify(name)},"arguments":${args}}`) };
}

describe("the MCP server, spoken to raw", () => {
  it("names a __proto__ argument as unknown, as it names constructor, and sends nothing", async () => {
    const { call } = await rawServer({ apiKey: "raw-test-key-1c9e" });
    for (const key of ["__proto__", "constructor", "prototype"]) {
      const answer = await call("get_deployment", `{"${key}":{"polluted":true},"deployment_id":"${DEPLOYMENT}"}`);
      expect(answer.result.isError, JSON.stringify(answer)).toBe(true);
      expect(answer.result.content[0].text).toContain(`- ${key}: is not an argument of get_deployment`);
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("arguments that are not an object are an invalid-params error (-32602), not an internal error", async () => {
    const { call } = await rawServer({ apiKey: "raw-test-key-1c9e" });
    for (const args of ['"text"', "[1,2]", "42"]) {
      const answer = await call("get_deployment", args);
      expect(answer.error?.code, JSON.stringify(answer)).toBe(-32602);
    }
    expect((await call("get_deployment", `{"deployment_id":"${DEPLOYMENT}"}`)).result.isError).toBeFalsy();
  });

  it("a short key (dev) quoted back in a problem never shows; a data value equal to it stays; the JSON text is the structured content", async () => {
    const sim = createSimulator({ stepSeconds: 0.01 });
    // A service that quotes the key in a problem detail and in a field of what it answers.
    const echoing: typeof fetch = async (input, init) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      if (url.pathname.endsWith("/revisions"))
        return new Response(JSON.stringify({ type: "about:blank", title: "Unauthorized", status: 401, detail: "the key dev is not accepted here" }), {
          status: 401,
          headers: { "content-type": "application/problem+json" },
        });
      return sim.fetch(input, init);
    };
    const { call } = await rawServer({ apiKey: "dev", fetch: echoing });
    const refused = await call("list_revisions", `{"deployment_id":"${DEPLOYMENT}"}`);
    expect(refused.result.isError).toBe(true);
    expect(refused.result.content[0].text).toContain("the key *** is not accepted here");
    expect(JSON.stringify(refused)).not.toMatch(/(?<![\p{L}\p{N}_-])dev(?![\p{L}\p{N}_-])/u);
    // The deployment now holds "dev" as its ref: a data value equal to the key is data, unchanged in the structured content and its JSON text alike.
    const deployed = await call("deploy", `{"deployment_id":"${DEPLOYMENT}","source_revision_config":{"repo_ref":"dev"},"wait":false}`);
    const { content, structuredContent } = deployed.result;
    expect(structuredContent.deployment.source_revision_config.repo_ref).toBe("dev");
    expect(content.at(-1).text).toBe(JSON.stringify(structuredContent));
  });

  it("createMcpServer refuses a bad option at creation with a TypeError naming it", () => {
    const sim = createSimulator({ stepSeconds: 0.01 });
    const client = createDeploymentsClient({ baseUrl: "https://api.example.test", apiKey: "raw-test-key-1c9e", fetch: sim.fetch });
    const bad: [Record<string, unknown>, RegExp][] = [
      [{ readOnly: "false" }, /readOnly must be true or false/],
      [{ pollIntervalMs: -1 }, /pollIntervalMs must be/],
      [{ pollIntervalMs: Number.NaN }, /pollIntervalMs must be/],
      [{ redact: "raw-test-key-1c9e" }, /redact must be an array of strings/],
      [{ redact: [42] }, /redact must be an array of strings/],
    ];
    for (const [options, message] of bad) expect(() => createMcpServer({ client, ...options } as never), JSON.stringify(options)).toThrow(message);
    expect(() => createMcpServer({ client, readOnly: true, pollIntervalMs: 0, redact: [] })).not.toThrow();
  });

  it("boundedLines passes each line up to the bound whole, however stdin cuts it, and reports each longer one once", async () => {
    const line = fc.oneof(fc.string({ maxLength: 40 }), fc.string({ minLength: 41, maxLength: 120 })).map((t) => t.replace(/\n/g, " "));
    await fc.assert(
      fc.asyncProperty(fc.array(line, { maxLength: 12 }), fc.array(fc.integer({ min: 1, max: 50 }), { minLength: 1, maxLength: 8 }), async (lines, cuts) => {
        const dropped: unknown[] = [];
        const bounded = boundedLines(40, (id) => dropped.push(id));
        const passed: Buffer[] = [];
        bounded.on("data", (chunk: Buffer) => passed.push(chunk));
        const bytes = Buffer.from(lines.map((l) => `${l}\n`).join(""));
        for (let at = 0, i = 0; at < bytes.length; i++) {
          const next = Math.min(bytes.length, at + cuts[i % cuts.length]!);
          bounded.write(bytes.subarray(at, next));
          at = next;
        }
        bounded.end();
        await new Promise((resolve) => bounded.on("end", resolve).resume());
        const fits = (l: string) => Buffer.byteLength(l) <= 40;
        expect(Buffer.concat(passed).toString()).toBe(
          lines
            .filter(fits)
            .map((l) => `${l}\n`)
            .join(""),
        );
        expect(dropped).toHaveLength(lines.filter((l) => !fits(l)).length);
      }),
    );
  });

  it("idOfEdges finds a top-level id at a message's start or end, and nothing else", () => {
    expect(idOfEdges('{"jsonrpc":"2.0","id":7,"method":"x","params":{"a":"', "")).toBe(7);
    expect(idOfEdges('{"method":"tools/call","params":{"x":"', 'xxx"},"jsonrpc":"2.0","id":"abc"}')).toBe("abc");
    expect(idOfEdges('{"method":"tools/call","params":{"id":5,"x":"', 'xxx"}}')).toBeNull();
  });

  it("a deploy or rollback whose revision cannot be read after the PATCH names that revision and says to wait for it, not to call again", async () => {
    const { sim, call } = await rawServer({ apiKey: "raw-test-key-1c9e" });
    const control = (path: string, body?: unknown) =>
      sim.fetch(
        new Request(`https://api.example.test/_simulator/${path}`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: body === undefined ? undefined : JSON.stringify(body),
        }),
      );
    const calls: [string, string][] = [
      ["deploy", `{"deployment_id":"${DEPLOYMENT}","source_revision_config":{"repo_ref":"unread"}}`],
      ["deploy", `{"deployment_id":"${DEPLOYMENT}","source_revision_config":{"repo_ref":"unread"},"wait":false}`],
      ["rollback", `{"deployment_id":"${DEPLOYMENT}"}`],
    ];
    for (const [tool, args] of calls) {
      await control("faults", { operation: "getRevision", count: 50, fault: 500 });
      const answer = await call(tool, args);
      await control("faults/clear");
      const latest = (await (await sim.fetch(new Request(`https://api.example.test/v2/deployments/${DEPLOYMENT}`, { headers: { "x-api-key": "k" } }))).json())
        .latest_revision_id;
      const text: string = answer.result.content[0].text;
      expect(answer.result.isError, text).toBe(true);
      expect(text).toContain(`revision ${latest} of deployment ${DEPLOYMENT} was created`);
      expect(text).toContain(`call wait_for_revision with deployment_id ${DEPLOYMENT} and revision_id ${latest}`);
      expect(text).toContain("500");
      expect(text).not.toMatch(/trying again later may work/);
    }
  });
});
