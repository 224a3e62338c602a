// Generated requests (requests.ts) sent to every surface that serves the simulator, in both error
// shapes: the simulator in-process (createSimulator().fetch), on its own port (startSimulator), under
// the Vite plugin's prefix (a real Vite dev server on port 0) and through the MSW handlers (msw's
// getResponse, no interception of this process's own requests). Each surface has its own simulator
// from the same seed. A refusal must be the same answer everywhere, byte for byte: status, media
// type, body, and Allow. A success the same status. Seeded as the other fuzz properties
// (FUZZ_SEED, FUZZ_PATH, FUZZ_COLLECT=1).
import fc from "fast-check";
import { getResponse } from "msw";
import { createServer, type ViteDevServer } from "vite";
import { afterAll, beforeAll, expect, it } from "vitest";
import { simulatorHandlers } from "../../../src/msw.js";
import type { ErrorShape } from "../../../src/shared/problems.js";
import type { KeyScope } from "../../../src/simulator/core/options.js";
import { createSimulator, SEED_IDS } from "../../../src/simulator/core/index.js";
import { type RunningSimulator, startSimulator } from "../../../src/simulator/node/index.js";
import { simulatorPlugin } from "../../../src/vite/index.js";
import { budget, report, timeout } from "./budget.js";
import { anyCase, type Case, describeCase } from "./requests.js";
import { type Answer, sendHttp, type WireRequest } from "./targets.js";

interface Surface {
  name: string;
  /** A request this surface cannot be sent or answers on purpose by another rule (docs/decisions.md). */
  differs?(request: WireRequest): boolean;
  send(request: WireRequest): Promise<Answer & { headers: string }>;
  close(): Promise<void>;
}

async function answerOf(response: Response): Promise<Answer & { headers: string }> {
  return {
    status: response.status,
    contentType: response.headers.get("content-type") ?? "",
    text: await response.text(),
    headers: sideHeaders((name) => response.headers.get(name)),
  };
}

/** The headers besides the body that an answer must carry alike: Allow (405, OPTIONS) and Retry-After (429, 503). */
function sideHeaders(get: (name: string) => string | null): string {
  return `allow=${get("allow") ?? ""} retry-after=${get("retry-after") ?? ""}`;
}

/**
 * What a fetch cannot send: TRACE, TRACK and CONNECT (forbidden methods, refused before any handler
 * sees them), and a fragment (`#`), which fetch leaves out of the request.
 */
const fetchCannotSend = (request: WireRequest) => /^(?:trace|track|connect)$/i.test(request.method) || request.target.includes("#");

function fetchInit(request: WireRequest): RequestInit {
  const headers = new Headers();
  for (const [name, value] of request.headers) headers.append(name, value);
  return { method: request.method, headers, ...(request.body ? { body: request.body as BodyInit } : {}) };
}

/** The options every surface of a group is made with: the error shape, and the key scope. */
interface Variant {
  name: string;
  errors: ErrorShape;
  keyScope?: KeyScope;
}
const VARIANTS: Variant[] = [
  { name: "problem", errors: "problem" },
  { name: "service", errors: "service" },
  { name: "organisation keys", errors: "service", keyScope: "organization" },
  { name: "workspace keys", errors: "problem", keyScope: { tenantId: SEED_IDS.tenant_id } },
];
const simulatorOptions = (v: Variant) => ({ errors: v.errors, ...(v.keyScope ? { keyScope: v.keyScope } : {}) });

function inProcess(v: Variant): Surface {
  const sim = createSimulator(simulatorOptions(v));
  return {
    name: `in-process (${v.name})`,
    differs: fetchCannotSend,
    send: async (request) => answerOf(await sim.fetch(`http://127.0.0.1${request.target}`, fetchInit(request))),
    close: () => sim.close(),
  };
}

async function overHttp(v: Variant): Promise<Surface> {
  const running: RunningSimulator = await startSimulator({ port: 0, quiet: true, ...simulatorOptions(v) });
  return { name: `HTTP (${v.name})`, send: (request) => sendRaw(running.url, request), close: () => running.close() };
}

/** One request over HTTP/1.1 as raw as node:http sends it (targets.ts's sendHttp), with the side headers compared. */
async function sendRaw(base: string, request: WireRequest): Promise<Answer & { headers: string }> {
  const answer = await sendHttp(base, request);
  return { ...answer, headers: sideHeaders((name) => (answer.headers[name] as string | undefined) ?? null) };
}

function msw(v: Variant): Surface {
  // The handlers' own errors option over a simulator of problem+json: the conversion is MSW's.
  const sim = createSimulator(v.keyScope ? { keyScope: v.keyScope } : {});
  const base = "http://msw.example.test/api";
  const handlers = simulatorHandlers(sim, { baseUrl: base, errors: v.errors });
  return {
    name: `MSW (${v.name})`,
    differs: fetchCannotSend,
    async send(request) {
      const response = await getResponse(handlers, new Request(`${base}${request.target}`, fetchInit(request)));
      if (!response) throw new Error("MSW: no handler answered");
      return answerOf(response);
    },
    close: () => sim.close(),
  };
}

const prefixOf = (v: Variant) => `/sim-${VARIANTS.indexOf(v)}`;
let vite: ViteDevServer;
function underVite(v: Variant): Surface {
  return {
    name: `Vite (${v.name})`,
    // Vite answers every OPTIONS itself (its CORS middleware runs before any plugin), and a target
    // with "#" with its own bare 400 before any middleware.
    differs: (request) => request.method === "OPTIONS" || request.target.includes("#"),
    send: (request) => sendRaw(vite.resolvedUrls!.local[0]!, { ...request, target: `${prefixOf(v)}${request.target}` }),
    close: async () => {},
  };
}

let surfaces: Surface[];
beforeAll(async () => {
  vite = await createServer({
    root: process.cwd(),
    configFile: false,
    logLevel: "silent",
    plugins: VARIANTS.map((v) => simulatorPlugin({ prefix: prefixOf(v), ...simulatorOptions(v) })),
    server: { host: "127.0.0.1", port: 0, watch: null },
    optimizeDeps: { noDiscovery: true, include: [] },
  });
  await vite.listen();
  surfaces = [];
  for (const v of VARIANTS) surfaces.push(inProcess(v), await overHttp(v), underVite(v), msw(v));
});
afterAll(async () => {
  await Promise.all((surfaces ?? []).map((s) => s.close()));
  await vite?.close();
});

/** What two answers to one request must share: a refusal in full, a success its status. */
function comparable(answer: Answer & { headers: string }): string {
  if (answer.status < 400) return `${answer.status}`;
  return `${answer.status} ${answer.contentType} ${answer.headers} ${answer.text}`;
}

/** What is wrong with the answers of every surface to one request: a 5xx or no answer, and each that differs from the in-process one. */
async function disagreements(request: WireRequest): Promise<string[]> {
  const problems: string[] = [];
  for (const v of VARIANTS) {
    const group = surfaces.filter((s) => s.name.endsWith(`(${v.name})`) && !s.differs?.(request));
    const answers = await Promise.all(
      group.map((s) => s.send(request).catch((e: Error) => ({ status: 0, contentType: "", text: `no answer: ${e.message}`, headers: "" }))),
    );
    for (const [i, answer] of answers.entries()) {
      if (answer.status === 0 || answer.status >= 500) problems.push(`${group[i]!.name}: ${answer.status} ${answer.text.slice(0, 300)}`);
    }
    const first = comparable(answers[0]!);
    for (const [i, answer] of answers.entries()) {
      if (comparable(answer) !== first) problems.push(`${group[i]!.name}: ${comparable(answer).slice(0, 400)}\n    ${group[0]!.name}: ${first.slice(0, 400)}`);
    }
  }
  return problems;
}

const COLLECT = process.env.FUZZ_COLLECT === "1";

it(
  "every surface of the simulator answers a generated request alike, in both error shapes",
  async () => {
    const started = Date.now();
    let cases = 0;
    const collected = new Map<string, string>();
    await fc
      .assert(
        fc.asyncProperty(anyCase(), async (c: Case) => {
          cases++;
          const problems = await disagreements(c);
          if (problems.length === 0) return;
          if (COLLECT) {
            const key = `${c.operationId} ${c.mutation.replace(/[0-9a-f-]{36}/g, "<id>").slice(0, 50)}`;
            if (!collected.has(key)) collected.set(key, `${describeCase(c)}\n  ${problems.join("\n  ")}`);
            return;
          }
          throw new Error(`${describeCase(c)}\n  ${problems.join("\n  ")}`);
        }),
        budget(150, 0.5),
      )
      .finally(() => report("surfaces", cases, started));
    if (COLLECT) for (const [key, example] of [...collected].sort()) console.log(`\n### ${key}\n${example}`);
    expect(collected.size).toBe(0);
  },
  timeout(180_000, 0.5),
);

const D = "/v2/deployments";
const DEP = "b0000000-0000-4000-8000-000000000000";
const HOSTILE: WireRequest[] = (() => {
  const key: [string, string] = ["x-api-key", "dev"];
  const json: [string, string] = ["content-type", "application/json"];
  const get = (target: string, headers: [string, string][] = [key]): WireRequest => ({ method: "GET", target, headers });
  const patch = (target: string, body: string, headers: [string, string][] = [key, json]): WireRequest => ({
    method: "PATCH",
    target,
    headers,
    body: new TextEncoder().encode(body),
  });
  const list: WireRequest[] = [];
  // Paths and queries: empty, repeated and odd separators, escapes of NUL, "/", overlong UTF-8, a lone
  // surrogate, a fullwidth digit, numbers in other spellings, case, dot segments, the control API's.
  const queries = ["", "&&", "=", "limit", "limit=%00", "limit=1%00", "limit=%C0%B1", "limit=%ED%A0%80", "limit=%EF%BC%91", "limit=+1", "limit=1.0"];
  queries.push("limit=0x10", "limit=1e1", "limit=01", "limit=99999999999999999999", "limit=-0", "offset=-0", "name_contains=%00");
  queries.push(`name_contains=${"a".repeat(10000)}`, "%00=1", "limit[]=1", "limit=1&limit=2", "deployment_type=dev&deployment_type=prod");
  queries.push("deployment_type=,", "deployment_type=dev,,prod", "tag_value_id=%ZZ", "q=%", "name_contains=a#b");
  const under = [
    "/",
    "//",
    "/%00",
    "/%2F",
    "/a%2Fb",
    "/%C0%AF",
    "/%ED%A0%80",
    "/%F0%9F%98%80",
    `/${"a".repeat(5000)}`,
    "/%20",
    "/.",
    "/..",
    "/%2e",
    "#frag",
    ";x",
  ];
  const paths = ["/", "//", "/v2", "/v2/", `/${D}`, "/v2//deployments", "/V2/deployments", "/v2/DEPLOYMENTS", "/v2/listeners/", "/v2/auth/providers/%00"];
  paths.push("/v2/auth/providers/..%2F", "/v2/auth/agents/%00/connections", "/v1/integrations/scm/%00/repos", "/v1/integrations/scm/x/repos?page=-1");
  paths.push("/_simulator", "/_simulator/", "/_simulator?x=1", "/_simulator/?x", "/_simulator//", "//_simulator", "/_simulator/reset/");
  paths.push("/_simulator/faults/clear/", "/_SIMULATOR", "/%5Fsimulator", "/_simulator/%00", "/_simulator/x%zz");
  for (const target of [...queries.map((q) => `${D}?${q}`), ...under.map((u) => `${D}${u}`), ...paths]) list.push(get(target));
  // Headers
  list.push(
    get(D, []),
    get(D, [["x-api-key", ""]]),
    get(D, [key, key]),
    get(D, [
      ["x-api-key", "a"],
      ["x-api-key", "b"],
    ]),
    get(D, [["X-API-KEY", "dev"]]),
  );
  for (const tenant of [
    "",
    " ",
    "not-a-uuid",
    "00000000-0000-0000-0000-000000000000",
    "A0000000-0000-4000-8000-000000000000",
    " a0000000-0000-4000-8000-000000000000",
    "a0000000-0000-4000-8000-000000000000,a0000000-0000-4000-8000-000000000000",
    "{a0000000-0000-4000-8000-000000000000}",
    "urn:uuid:a0000000-0000-4000-8000-000000000000",
    "a00000000000400080000000000000000",
    "ä",
  ]) {
    list.push(get(D, [key, ["x-tenant-id", tenant]]));
  }
  list.push(get(D, [key, ["x-tenant-id", "a0000000-0000-4000-8000-000000000000"], ["x-tenant-id", "a0000000-0000-4000-8000-000000000001"]]));
  const seedTenant: [string, string] = ["x-tenant-id", SEED_IDS.tenant_id];
  list.push(
    get(D, [key, seedTenant]),
    get(D, [key, ["x-tenant-id", SEED_IDS.tenant_id.toUpperCase()]]),
    get(D, [key, seedTenant, seedTenant]),
    get(`${D}/${SEED_IDS.other_tenant_deployment_id}`, [key, seedTenant]),
    get(`${D}/${SEED_IDS.deployment_id}/revisions?limit=0`, [key, seedTenant]),
    get(`${D}/${SEED_IDS.deployment_id}/revisions?limit=0`, [key]),
    get("/_simulator", [key]),
    get("/_simulator", [key, ["x-tenant-id", "nope"]]),
    { method: "PATCH", target: `${D}/${SEED_IDS.deployment_id}`, headers: [key, json], body: new TextEncoder().encode('{"name":1}') },
    { method: "PATCH", target: `${D}/${SEED_IDS.deployment_id}`, headers: [key, json, ["x-tenant-id", ""]], body: new TextEncoder().encode('{"name":1}') },
    { method: "PATCH", target: `${D}/${SEED_IDS.deployment_id}`, headers: [key, json, seedTenant], body: new TextEncoder().encode('{"name":1}') },
    { method: "PATCH", target: `${D}/${SEED_IDS.deployment_id}`, headers: [key, ["content-type", "text/plain"]], body: new TextEncoder().encode("{}") },
  );
  // Methods
  for (const method of ["HEAD", "OPTIONS", "POST", "PUT", "DELETE", "TRACE", "PATCH", "PROPFIND", "get", "Get"]) {
    list.push(
      { method, target: D, headers: [key] },
      { method, target: `${D}/${DEP}`, headers: [key] },
      { method, target: "/_simulator/reset", headers: [key] },
      { method, target: "/nowhere", headers: [key] },
    );
  }
  // Bodies
  const target = `${D}/${DEP}`;
  for (const body of [
    "",
    " ",
    "\ufeff{}",
    "{}x",
    "{} {}",
    "[]",
    "null",
    "1",
    '"x"',
    "{",
    '{"a":1,"a":2}',
    '{"name":"a","name":"b"}',
    '{"__proto__":{"x":1}}',
    '{"constructor":{"prototype":{}}}',
    '{"source_config":{"__proto__":null}}',
    '{"source_config":{"cpu":1e400}}',
    '{"source_config":{"cpu":12345678901234567890123}}',
    '{"source_config":{"cpu":-0}}',
    '{"source_config":{"cpu":"1"}}',
    '{"source_config":null}',
    '{"name":null}',
    '{"name":""}',
    '{"name":"\\u0000"}',
    '{"name":"\\ud800"}',
    '{"secrets":null}',
    '{"secrets":[null]}',
    '{"secrets":[{"name":"A","value":null}]}',
    '{"deployment_type":"nope"}',
    '{"unknown":1}',
    `${"[".repeat(100)}${"]".repeat(100)}`,
    `{"a":${"[".repeat(40)}${"]".repeat(40)}}`,
    '{"source_revision_config":{"image_uri":"x"}}',
    '{"revision_source":"external_docker"}',
    "\u0000",
    '{"name":"x"}\u0000',
    "\xff\xfe{\x00}\x00",
  ]) {
    list.push(patch(target, body));
  }
  for (const ct of [
    "text/plain",
    "application/json; charset=latin1",
    "application/json; charset=utf-16",
    "application/JSON",
    "application/json;",
    'application/json; charset="utf-8"',
    "application/merge-patch+json",
    "application/problem+json",
    "application/json, text/plain",
    "",
    "*/*",
    "application/x-www-form-urlencoded",
    "multipart/form-data; boundary=x",
  ]) {
    list.push(patch(target, "{}", [key, ["content-type", ct]]));
  }
  list.push(patch(target, "{}", [key]), patch(target, "{}", [key, json, json]), patch(target, "{}", [key, json, ["content-type", "text/plain"]]));
  list.push(
    patch("/v2/listeners/00000000-0000-4000-8000-000000000000", '{"name":1}'),
    patch("/v2/listeners/00000000-0000-4000-8000-000000000000", '{"__proto__":1}'),
  );
  // Control API refusals
  const post = (path: string, body: string, headers: [string, string][] = [key, json]): WireRequest => ({
    method: "POST",
    target: `/_simulator/${path}`,
    headers,
    body: new TextEncoder().encode(body),
  });
  for (const body of ['{"seconds":-1}', '{"seconds":"1"}', '{"seconds":1e400}', '{"seconds":null}', "[]", "x", '{"__proto__":{"seconds":1}}', "{}x"])
    list.push(post("advance", body));
  for (const body of ['{"status":200}', '{"status":"500"}', '{"operation":"nope","status":500}', "[]", '{"count":-1}'])
    list.push(post("fail-next", body), post("faults", body));
  for (const body of ['{"ms":-1}', '{"minMs":5,"maxMs":1}', '{"ms":1e9}', "null"]) list.push(post("latency", body));
  list.push(post("advance", '{"seconds":0}', [key, ["content-type", "text/plain"]]), post("advance", '{"seconds":0}', [key]), {
    method: "GET",
    target: "/_simulator/advance",
    headers: [key],
  });
  return list;
})();

it("every surface answers a table of hostile requests alike, in both error shapes", async () => {
  const problems: string[] = [];
  for (const request of HOSTILE) {
    const found = await disagreements(request);
    const body = request.body ? new TextDecoder().decode(request.body).slice(0, 80) : "";
    if (found.length > 0)
      problems.push(
        `${request.method} ${request.target.slice(0, 120)} ${request.headers.map(([n, v]) => `${n}: ${v}`).join("; ")} ${body}\n  ${found.join("\n  ")}`,
      );
  }
  expect(problems.join("\n")).toBe("");
});

it("under the Vite plugin, a target's dot segments are removed before its prefix is matched, as fetch removes them", async () => {
  // The plugin matched the prefix on the raw target: `/sim-0/../sim-0/v2/listeners` was the simulator's
  // 404, `/sim-0/v2/../../v2/listeners` (outside the prefix once resolved) the simulator's 200.
  const origin = vite.resolvedUrls!.local[0]!;
  const request = (target: string): WireRequest => ({ method: "GET", target, headers: [["x-api-key", "dev"]] });
  for (const target of ["/sim-0/../sim-0/v2/listeners", "/sim-0/%2e%2e/sim-0/v2/listeners", "/x/../sim-0/v2/listeners", "/sim-0/./v2/listeners"]) {
    const answer = await sendRaw(origin, request(target));
    expect(`${target} ${answer.status} ${answer.contentType}`).toMatch(/ 200 application\/json/);
  }
  for (const target of ["/sim-0/v2/../../v2/listeners", "/sim-0/v2/%2e%2e/%2E%2E/v2/listeners"]) {
    const answer = await sendRaw(origin, request(target));
    expect(`${target} ${answer.status} ${answer.contentType}`, answer.text.slice(0, 200)).not.toMatch(/application\/(problem\+)?json/);
  }
});

it("a fault asked for through each surface's own control API is answered alike: 429, 500, 503 with their headers, and a drop as no answer", async () => {
  // MSW answered a drop with a 500 carrying the TypeError's stack (its handler threw); the others drop the connection.
  const key: [string, string] = ["x-api-key", "dev"];
  const problems: string[] = [];
  for (const fault of [429, 500, 503, "drop"]) {
    const ask: WireRequest = {
      method: "POST",
      target: "/_simulator/faults",
      headers: [key, ["content-type", "application/json"]],
      body: new TextEncoder().encode(JSON.stringify({ operation: "listListeners", fault })),
    };
    for (const v of VARIANTS) {
      const group = surfaces.filter((s) => s.name.endsWith(`(${v.name})`));
      const answers = await Promise.all(
        group.map(async (s) => {
          const asked = await s.send(ask);
          if (asked.status !== 200) return `${asked.status} ${asked.text}`;
          const failed = await s.send({ method: "GET", target: "/v2/listeners", headers: [key] }).then(
            (a) => (a.status === 0 ? "no answer" : comparable(a)),
            () => "no answer",
          );
          const next = await s.send({ method: "GET", target: "/v2/listeners", headers: [key] });
          return `${failed}; then ${next.status}`;
        }),
      );
      for (const [i, answer] of answers.entries()) {
        if (answer !== answers[0]) problems.push(`${fault} ${group[i]!.name}: ${answer.slice(0, 300)}\n  ${group[0]!.name}: ${answers[0]!.slice(0, 300)}`);
      }
    }
  }
  expect(problems.join("\n")).toBe("");
});
