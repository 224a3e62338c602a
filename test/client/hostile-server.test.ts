// The client against a real node:http server that answers what no well-behaved service would:
// endless and oversized bodies, field errors of the wrong types, pages that ignore the limit or
// carry an offset that is not a whole number, a revision whose status is not text. Each must end
// in one clear error, at once, never in a hang, an endless walk, a filled memory or "[object Object]".
import type { ServerResponse } from "node:http";
import { describe, expect, it } from "vitest";
import { rejection } from "../support/rejection.js";
import {
  ApiError,
  createDeploymentsClient,
  deployRevision,
  paginate,
  planRollback,
  ResponseTooLargeError,
  rollbackDeployment,
  unwrap,
  waitForRevision,
} from "../../src/index.js";
import { localServers, sendJson } from "./local-server.js";

const serve = localServers();
const D = "7f1c2d4e-0000-4000-8000-000000000001";
const R = "7f1c2d4e-0000-4000-8000-0000000000aa";
const LIMIT = 4096;
const fast = { retries: 2, minDelayMs: 1, maxDelayMs: 5 };

/** Writes chunks of `x` until the client goes away: a body that never ends. */
function endless(res: ServerResponse, status: number) {
  res.writeHead(status, { "Content-Type": "application/json" });
  res.write("[");
  const chunk = "1,".repeat(8192);
  const pump = () => {
    while (!res.destroyed && res.write(chunk));
    if (!res.destroyed) res.once("drain", pump);
  };
  res.on("close", () => res.removeAllListeners("drain"));
  pump();
}

describe("a body longer than maxResponseBytes", () => {
  // [name, handler]: each body passes the bound; the call rejects at once, without a retry.
  const cases: [string, (res: ServerResponse) => void][] = [
    ["a 200 declaring a Content-Length over the bound", (res) => sendJson(res, 200, { resources: [], offset: 0, pad: "x".repeat(LIMIT) })],
    ["a chunked 200 that never ends", (res) => endless(res, 200)],
    ["a chunked 503 error page that never ends (retried status, still not retried)", (res) => endless(res, 503)],
    ["a 422 problem declaring a Content-Length over the bound", (res) => sendJson(res, 422, { detail: "x".repeat(LIMIT) })],
  ];
  it.each(cases)("%s: ResponseTooLargeError naming method, path, status and bound, one attempt", async (_name, handler) => {
    const server = await serve((_req, res) => handler(res));
    const client = createDeploymentsClient({ baseUrl: server.baseUrl, apiKey: "k", maxResponseBytes: LIMIT, retry: fast });
    const error = await rejection(client.GET("/v2/deployments"));
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect(error).toMatchObject({ method: "GET", path: "/v2/deployments", maxResponseBytes: LIMIT });
    expect((error as Error).message).toMatch(new RegExp(`^GET /v2/deployments answered \\d{3} with a body longer than ${LIMIT} bytes`));
    expect(server.requests).toHaveLength(1);
  });

  it("a body of exactly maxResponseBytes is read as usual; multi-byte text is decoded as Response.text() does", async () => {
    const name = "ü€😀".repeat(10);
    const body = JSON.stringify({ resources: [{ id: "a", name }], offset: 1 });
    const server = await serve((_req, res) => sendJson(res, 200, JSON.parse(body)));
    const client = createDeploymentsClient({ baseUrl: server.baseUrl, apiKey: "k", maxResponseBytes: Buffer.byteLength(body) });
    expect(unwrap(await client.GET("/v2/listeners"))).toEqual(JSON.parse(body));
  });
});

describe("problem details whose field errors have the wrong types", () => {
  it("pointer, parameter and code that are not strings are left out, never printed as 5, null or [object Object]", async () => {
    const server = await serve((_req, res) =>
      sendJson(res, 422, {
        title: 5,
        detail: { nested: true },
        errors: [
          { pointer: 5, detail: {}, code: 3 },
          { parameter: null, detail: "x" },
          "not an object",
          { parameter: { a: 1 }, pointer: "/name", detail: "y", code: "" },
          { parameter: "limit", detail: "must be <= 100", code: "maximum" },
        ],
      }),
    );
    const client = createDeploymentsClient({ baseUrl: server.baseUrl, apiKey: "k" });
    const error = (await rejection(client.GET("/v2/deployments").then(unwrap))) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.errors).toEqual([
      { detail: "is not valid" },
      { detail: "x" },
      { pointer: "/name", detail: "y" },
      { parameter: "limit", detail: "must be <= 100", code: "maximum" },
    ]);
    expect(error.message).not.toMatch(/\[object Object\]|\bnull\b|\b5\b|\[3\]/);
  });
});

describe("problem details of megabytes", () => {
  it("a 422 with 1,000 field errors of 1,000 characters and a title and detail of 10,000: the message stays short, errors keep every entry", async () => {
    const errors = Array.from({ length: 1000 }, (_, i) => ({ pointer: `/secrets/${i}/value`, detail: "x ".repeat(500), code: "max_length" }));
    const server = await serve((_req, res) => sendJson(res, 422, { title: "T".repeat(10_000), detail: "d".repeat(10_000), errors }));
    const client = createDeploymentsClient({ baseUrl: server.baseUrl, apiKey: "k" });
    const error = (await rejection(client.GET("/v2/deployments").then(unwrap))) as ApiError;
    expect(error.errors).toHaveLength(1000);
    expect(error.errors[999]!.detail).toHaveLength(1_000);
    expect(error.message.length).toBeLessThan(10_000);
    expect(error.message).toMatch(/; and 980 more \(see errors\)$/);
    expect(error.message.split("\n")).toHaveLength(1);
  });
});

describe("pages that would make a walk endless", () => {
  // [name, page for the request at offset (limit 2), the detail]
  const cases: [string, (offset: number) => unknown, RegExp][] = [
    [
      "more resources than the limit, offset moving by one",
      (offset) => ({ resources: [1, 2, 3, 4, 5].map((i) => ({ id: `${offset + i}` })), offset: offset + 1 }),
      /the page has 5 resources, more than the limit of 2/,
    ],
    ["an offset that is not a whole number", (offset) => ({ resources: [{ id: "a" }, { id: "b" }], offset: offset + 0.5 }), /offset 0.5 is not a whole number/],
    ["an offset that is a string", () => ({ resources: [{ id: "a" }, { id: "b" }], offset: "2" }), /offset "2" is not a whole number/],
    ["an offset past the safe integers", () => ({ resources: [{ id: "a" }, { id: "b" }], offset: 1e308 }), /offset 1e\+308 is not a whole number/],
    ["no offset", () => ({ resources: [{ id: "a" }, { id: "b" }] }), /offset \(none\) is not a whole number/],
  ];
  it.each(cases)("%s: an ApiError on the first such page", async (_name, page, detail) => {
    const server = await serve((req, res) => sendJson(res, 200, page(Number(req.url.searchParams.get("offset")))));
    const client = createDeploymentsClient({ baseUrl: server.baseUrl, apiKey: "k" });
    const walk = async () => {
      for await (const _ of paginate(client, "/v2/deployments", { query: { limit: 2 } }));
    };
    const error = await rejection(walk());
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).detail).toMatch(detail);
    expect(server.requests).toHaveLength(1);
  });
});

describe("a server that ignores offset", () => {
  it("the same full page at every offset, the offset moving on: paginate stops at the third identical page with an ApiError", async () => {
    const server = await serve((req, res) =>
      sendJson(res, 200, { resources: [{ id: "a" }, { id: "b" }], offset: Number(req.url.searchParams.get("offset")) + 2 }),
    );
    const client = createDeploymentsClient({ baseUrl: server.baseUrl, apiKey: "k" });
    const seen: string[] = [];
    const walk = async () => {
      for await (const item of paginate(client, "/v2/listeners", { query: { limit: 2 } })) seen.push(item.id);
    };
    const error = await rejection(walk());
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).detail).toBe("the pages at offsets 0 to 4 hold the same resources (the server ignored offset)");
    // One repeat may be a live list that moved by exactly one page: walked, not refused.
    expect(seen).toEqual(["a", "b", "a", "b"]);
    expect(server.requests).toHaveLength(3);
  });
});

describe("a server that ignores offset and sends items without string ids", () => {
  // [name, the items of every full page]: the document requires a string id; without one the walk
  // still tells the same page sent again (by the items' JSON), and stops instead of walking forever.
  const deep = `${"[".repeat(5_000)}${"]".repeat(5_000)}`;
  // [name, the resources' JSON text] (written by hand: JSON.stringify overflows its stack on the deep one)
  const cases: [string, string][] = [
    ["no id", '[{"name":"a"},{"name":"b"}]'],
    ["numeric ids", '[{"id":1},{"id":2}]'],
    ["null items", "[null,null]"],
    ["items nested 5,000 levels deep", `[${deep},${deep}]`],
  ];
  it.each(cases)("%s: an ApiError at the third identical page", async (_name, resources) => {
    const server = await serve((req, res) => {
      res.writeHead(200, { "Content-Type": "application/json" });
      res.end(`{"resources":${resources},"offset":${Number(req.url.searchParams.get("offset")) + 2}}`);
    });
    const client = createDeploymentsClient({ baseUrl: server.baseUrl, apiKey: "k" });
    const walk = async () => {
      for await (const _ of paginate(client, "/v2/listeners", { query: { limit: 2 } }));
    };
    const error = await rejection(walk());
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).detail).toBe("the pages at offsets 0 to 4 hold the same resources (the server ignored offset)");
    expect(server.requests).toHaveLength(3);
  });
});

describe("a revision whose status is not text", () => {
  it.each([[{ x: 1 }], [null], [7], [undefined]])("status %j: waitForRevision rejects with an ApiError at once, not at its timeout", async (status) => {
    const server = await serve((_req, res) => sendJson(res, 200, { id: R, status }));
    const client = createDeploymentsClient({ baseUrl: server.baseUrl, apiKey: "k" });
    const started = Date.now();
    const error = await rejection(waitForRevision(client, D, R, { timeoutMs: 5_000, intervalMs: 1 }));
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).detail).toMatch(/is not a revision: its "status" is .*, not a string/);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(server.requests).toHaveLength(1);
  });
});

describe("a rollback target without a source_revision_config object", () => {
  const ACTIVE = "7f1c2d4e-0000-4000-8000-0000000000a1";
  const OLDER = "7f1c2d4e-0000-4000-8000-0000000000b2";
  // rollbackDeployment, planRollback (and dms rollback, through rollbackPatch): an ApiError naming the revision, no PATCH.
  const calls: [string, (client: ReturnType<typeof createDeploymentsClient>) => Promise<unknown>][] = [
    ["rollbackDeployment", (client) => rollbackDeployment(client, D, { intervalMs: 1, timeoutMs: 1_000 })],
    ["planRollback", (client) => planRollback(client, D)],
  ];
  const configs: unknown[] = [null, undefined, "main", []];
  it.each(calls.flatMap(([name, call]) => configs.map((config) => [name, config, call] as const)))(
    "%s, source_revision_config %j: an ApiError before anything is sent",
    async (_name, config, call) => {
      const server = await serve((req, res) => {
        if (req.url.pathname.endsWith("/revisions")) {
          const older = { id: OLDER, status: "DEPLOYED", source: "scm_host", source_revision_config: config };
          return sendJson(res, 200, { resources: [{ id: ACTIVE, status: "DEPLOYED", source: "scm_host", source_revision_config: {} }, older], offset: 2 });
        }
        sendJson(res, 200, { id: D, source: "scm_host", latest_revision_id: ACTIVE, active_revision_id: ACTIVE, source_revision_config: {} });
      });
      const client = createDeploymentsClient({ baseUrl: server.baseUrl, apiKey: "k" });
      const error = await rejection(call(client));
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).detail).toMatch(new RegExp(`^revision ${OLDER} has no source_revision_config object .*nothing was sent$`));
      expect(server.requests.filter((r) => r.method === "PATCH")).toEqual([]);
    },
  );
});

describe("a problem whose words would drive a terminal", () => {
  // [where the server put it, the problem]: the message a terminal prints shows each control and
  // bidi character as an escape; the fields keep the server's words as they came (data is data).
  const ESC = "\u001b]0;owned\u0007\u001b[2J";
  const cases: [string, Record<string, unknown>, string][] = [
    ["title", { title: `Bad${ESC}`, detail: "d" }, "title"],
    ["detail", { title: "T", detail: `a\u009b31mred\u202eevil` }, "detail"],
    ["a field error", { title: "T", detail: "d", errors: [{ pointer: `/name${ESC}`, detail: `x${ESC}`, code: "type" }] }, "errors"],
  ];
  it.each(cases)("in the %s: no raw control in the message, the field as sent", async (_name, problem, field) => {
    const server = await serve((_req, res) => sendJson(res, 422, problem, { "Content-Type": "application/problem+json" }));
    const client = createDeploymentsClient({ baseUrl: server.baseUrl, apiKey: "k" });
    const error = (await rejection(client.GET("/v2/deployments").then(unwrap))) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.message).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e]/);
    expect(error.message).toMatch(/\\x1B|\\x9B/);
    const kept = field === "errors" ? error.errors[0]!.detail : (error as unknown as Record<string, string>)[field]!;
    expect(kept).toMatch(/[\u001b\u009b]/);
  });
});

describe("the helpers' errors quoting the server's words", () => {
  // [error, the server's answers]: each message a helper writes around a value the server sent
  // (a status, an id) shows its control characters as escapes, as ApiError's does.
  const ESC = "\u001b]0;owned\u0007";
  type Call = (client: ReturnType<typeof createDeploymentsClient>) => Promise<unknown>;
  const cases: [string, (path: string, method: string) => unknown, Call][] = [
    ["RevisionWaitTimeoutError (last status)", () => ({ id: R, status: `BUILDING${ESC}` }), (c) => waitForRevision(c, D, R, { timeoutMs: 100, intervalMs: 1 })],
    ["RevisionFailedError (revision id)", () => ({ id: `${R}${ESC}`, status: "DEPLOY_FAILED" }), (c) => waitForRevision(c, D, R, { throwOnFailure: true })],
    [
      "NoRevisionCreatedError (latest_revision_id)",
      () => ({ id: D, source: "scm_host", latest_revision_id: `old${ESC}`, source_revision_config: {} }),
      (c) => deployRevision(c, D, { source_revision_config: { repo_ref: "main" } }),
    ],
  ];
  it.each(cases)("%s: no raw control character in the message", async (name, answer, call) => {
    const server = await serve((req, res) => sendJson(res, 200, answer(req.url.pathname, req.method)));
    const client = createDeploymentsClient({ baseUrl: server.baseUrl, apiKey: "k" });
    const error = (await rejection(call(client))) as Error;
    expect(error.name).toBe(name.split(" ")[0]);
    expect(error.message).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
    expect(error.message).toContain("\\x1B]0;owned\\x07");
  });
});
