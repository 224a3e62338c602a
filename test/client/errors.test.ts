// ApiError and unwrap over real HTTP: the problem details, status, method and path of a failed call,
// read from problem+json, the real service's FastAPI bodies, text and HTML alike; and how it prints.
import { readFileSync } from "node:fs";
import { format, inspect } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { ApiError, createDeploymentsClient, PROBLEM_TYPES, type ProblemKind, unwrap } from "../../src/index.js";
import { type LocalServer, sendJson, sendText, startLocalServer } from "./local-server.js";
import { ROOT } from "../support/document.js";
import { unwrapError } from "../support/unwrap-error.js";
import { run } from "../support/run.js";

let server: LocalServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const DEPLOYMENT_ID = "7f1c2d4e-0000-4000-8000-000000000001";

describe("unwrap", () => {
  it("returns the data of a successful response", async () => {
    const deployment = { id: DEPLOYMENT_ID, name: "agent" };
    server = await startLocalServer((_req, res) => sendJson(res, 200, deployment));
    const client = createDeploymentsClient({ baseUrl: server.baseUrl, apiKey: "k" });
    const data = unwrap(await client.GET("/v2/deployments/{deployment_id}", { params: { path: { deployment_id: DEPLOYMENT_ID } } }));
    expect(data).toEqual(deployment);
  });

  it("throws an ApiError with the problem details, status, method and path of a 422", async () => {
    const problem = {
      type: "https://example.com/problems/validation",
      title: "Unprocessable Entity",
      status: 422,
      detail: "The request body is not valid.",
      instance: `/v2/deployments/${DEPLOYMENT_ID}`,
      errors: [{ pointer: "/source_revision_config/repo_ref", detail: "must be string" }],
    };
    server = await startLocalServer((_req, res) => sendJson(res, 422, problem));
    const client = createDeploymentsClient({ baseUrl: server.baseUrl, apiKey: "k", retry: { retries: 0 } });
    const result = await client.PATCH("/v2/deployments/{deployment_id}", {
      params: { path: { deployment_id: DEPLOYMENT_ID } },
      body: { source_revision_config: { repo_ref: "main" } },
    });
    const error = unwrapError(result);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe("ApiError");
    expect(error).toMatchObject({
      status: 422,
      method: "PATCH",
      path: `/v2/deployments/${DEPLOYMENT_ID}`,
      type: problem.type,
      title: problem.title,
      detail: problem.detail,
      instance: problem.instance,
      errors: problem.errors,
      problem,
    });
    expect(error.message).toContain(`PATCH /v2/deployments/${DEPLOYMENT_ID} failed with 422`);
    expect(error.message).toContain("/source_revision_config/repo_ref must be string");
  });

  it("throws an ApiError for an error response whose body is not JSON", async () => {
    server = await startLocalServer((_req, res) => {
      res.writeHead(502, { "Content-Type": "text/plain" });
      res.end("bad gateway");
    });
    const client = createDeploymentsClient({ baseUrl: server.baseUrl, apiKey: "k", retry: { retries: 0 } });
    const result = await client.GET("/v2/listeners", { params: { query: { limit: 3 } } });
    expect(() => unwrap(result)).toThrow(ApiError);
    const error = unwrapError(result);
    expect(error).toMatchObject({ status: 502, method: "GET", path: "/v2/listeners", detail: "bad gateway", errors: [] });
    expect(error.problem).toBeUndefined();
  });

  it("throws an ApiError for an empty error response", async () => {
    server = await startLocalServer((_req, res) => {
      res.writeHead(401, { "Content-Length": "0" });
      res.end();
    });
    const client = createDeploymentsClient({ baseUrl: server.baseUrl, apiKey: "k" });
    const result = await client.GET("/v2/auth/providers");
    expect(() => unwrap(result)).toThrow(/GET \/v2\/auth\/providers failed with 401/);
  });
});

/** The ApiError of one GET answered with this status, content type and body (raw text). */
async function errorFor(status: number, contentType: string, body: string, statusText?: string): Promise<ApiError> {
  server = await startLocalServer((_req, res) => {
    if (statusText !== undefined) res.statusMessage = statusText;
    sendText(res, status, body, contentType);
  });
  const client = createDeploymentsClient({ baseUrl: server.baseUrl, apiKey: "k", retry: { retries: 0 } });
  const result = await client.GET("/v2/deployments/{deployment_id}", { params: { path: { deployment_id: DEPLOYMENT_ID } } });
  return unwrapError(result);
}

const path = `/v2/deployments/${DEPLOYMENT_ID}`;

describe("the real service's FastAPI bodies (application/json)", () => {
  for (const [status, kind, text] of [
    [400, "bad-request", "Invalid revision source"],
    [403, "forbidden", "Not authenticated"],
    [404, "not-found", "Deployment not found"],
  ] as const) {
    it(`{"detail": "text"} with ${status}: detail is the text, title the reason phrase, kind ${kind}`, async () => {
      const error = await errorFor(status, "application/json", JSON.stringify({ detail: text }));
      expect(error).toMatchObject({ status, method: "GET", path, detail: text, kind, type: undefined, errors: [] });
      expect(error.title).toBe({ 400: "Bad Request", 403: "Forbidden", 404: "Not Found" }[status]);
      expect(error.message).toBe(`GET ${path} failed with ${status} (${error.title}): ${text}`);
    });
  }

  it('{"detail": [{loc, msg, type}]} with 422: one field error each, with a JSON Pointer or the parameter name, and the type as code', async () => {
    const detail = [
      { loc: ["body", "source_config", "resource_spec", "cpu"], msg: "Input should be a valid number", type: "float_parsing", input: "x" },
      { loc: ["body", "secrets", 0, "name"], msg: "Field required", type: "missing" },
      { loc: ["body", "source_config", "resource_spec", "labels", "app/name~x"], msg: "Input should be a valid string", type: "string_type" },
      { loc: ["body"], msg: "Field required", type: "missing" },
      { loc: ["query", "limit"], msg: "Input should be less than or equal to 100", type: "less_than_equal" },
      { loc: ["path", "deployment_id"], msg: "Input should be a valid UUID", type: "uuid_parsing" },
      { loc: ["header", "x-api-key"], msg: "Field required", type: "missing" },
      { loc: ["body", "name"], msg: "Extra inputs are not permitted" },
    ];
    const error = await errorFor(422, "application/json", JSON.stringify({ detail }));
    expect(error.errors).toEqual([
      { pointer: "/source_config/resource_spec/cpu", detail: "Input should be a valid number", code: "float_parsing" },
      { pointer: "/secrets/0/name", detail: "Field required", code: "missing" },
      { pointer: "/source_config/resource_spec/labels/app~1name~0x", detail: "Input should be a valid string", code: "string_type" },
      { pointer: "", detail: "Field required", code: "missing" },
      { parameter: "limit", detail: "Input should be less than or equal to 100", code: "less_than_equal" },
      { parameter: "deployment_id", detail: "Input should be a valid UUID", code: "uuid_parsing" },
      { parameter: "x-api-key", detail: "Field required", code: "missing" },
      { pointer: "/name", detail: "Extra inputs are not permitted" },
    ]);
    expect(error).toMatchObject({ status: 422, kind: "validation", title: "Unprocessable Entity", detail: "The request has 8 invalid fields." });
    // A list detail is not problem details: `problem` stays empty, `body` keeps what was sent.
    expect(error.problem).toBeUndefined();
    expect(error.body).toEqual({ detail });
    expect(error.message).toContain("/source_config/resource_spec/cpu Input should be a valid number [float_parsing]");
    expect(error.message).toContain("limit Input should be less than or equal to 100 [less_than_equal]");
    expect(error.message).toContain("(body) Field required [missing]");
  });

  it("a malformed FastAPI list still gives field errors a person can read", async () => {
    const error = await errorFor(422, "application/json", JSON.stringify({ detail: [{ msg: "bad" }, "junk", { loc: "body" }] }));
    expect(error.errors).toEqual([
      { pointer: "", detail: "bad" },
      { pointer: "", detail: "is not valid" },
      { pointer: "", detail: "is not valid" },
    ]);
    expect(error.detail).toBe("The request has 3 invalid fields.");
  });
});

describe("text and HTML bodies", () => {
  it("plain text: detail is the text with its whitespace collapsed", async () => {
    const error = await errorFor(500, "text/plain", "upstream   exploded\n\n   badly\n");
    expect(error).toMatchObject({ status: 500, title: "Internal Server Error", detail: "upstream exploded badly", kind: "internal", errors: [] });
    expect(error.problem).toBeUndefined();
    expect(error.body).toBe("upstream   exploded\n\n   badly\n");
  });

  it("an HTML page: no markup, scripts, styles or head; entities decoded; capped in length", async () => {
    const page = `<!DOCTYPE html><html><head><title>Oops</title><style>body { color: red }</style></head>
      <body><script>window.track("error")</script><!-- a comment -->
      <h1>Service&nbsp;unavailable</h1><p>Try again &amp; again &lt;soon&gt; &#8212; &#x263A;</p>
      <p>${"filler text ".repeat(100)}</p></body></html>`;
    const error = await errorFor(503, "text/html; charset=utf-8", page);
    expect(error.detail.startsWith("Service unavailable Try again & again <soon> — ☺ filler text")).toBe(true);
    expect(error.detail.length).toBeLessThanOrEqual(300);
    expect(error.detail.endsWith("…")).toBe(true);
    for (const leftover of ["<h1>", "<p>", "track", "color: red", "Oops", "comment", "&amp;"]) expect(error.detail).not.toContain(leftover);
    expect(error).toMatchObject({ title: "Service Unavailable", kind: "service-unavailable" });
  });

  it("a long plain text body is capped too", async () => {
    const error = await errorFor(500, "text/plain", "x".repeat(10_000));
    expect(error.detail.length).toBe(300);
  });

  it("an HTML page sent as text/plain is recognised by its first tag", async () => {
    const error = await errorFor(502, "text/plain", "<html><body><h1>502 Bad Gateway</h1></body></html>");
    expect(error.detail).toBe("502 Bad Gateway");
  });

  it('a gateway\'s {"message": ...} becomes the detail', async () => {
    const error = await errorFor(403, "application/json", JSON.stringify({ message: "Missing Authentication Token" }));
    expect(error).toMatchObject({ detail: "Missing Authentication Token", kind: "forbidden", title: "Forbidden" });
  });

  it("the title falls back to the reason phrase the server sent, else the standard one", async () => {
    expect((await errorFor(429, "application/json", "{}", "Slow Down")).title).toBe("Slow Down");
    // A response without a reason phrase, as over HTTP/2.
    const error = new ApiError(new Response(null, { status: 404 }), undefined, { request: { method: "GET", url: "http://h/v2/x" } });
    expect(error).toMatchObject({ title: "Not Found", detail: "The response body was empty (Not Found).", path: "/v2/x", kind: "not-found" });
    expect(new ApiError(new Response(null, { status: 418 }), "").title).toBe("HTTP 418");
  });
});

describe("kind", () => {
  const urn = (kind: ProblemKind) => PROBLEM_TYPES[kind].type;

  it("is the kind whose type URI the body names, even where the status alone would say another", async () => {
    const error = await errorFor(
      400,
      "application/problem+json",
      JSON.stringify({ type: urn("malformed-json"), title: "Malformed JSON body", status: 400, detail: "Unexpected end of JSON input" }),
    );
    expect(error).toMatchObject({ kind: "malformed-json", type: urn("malformed-json"), title: "Malformed JSON body" });
  });

  it("every kind of PROBLEM_TYPES is recognised by its type URI", () => {
    for (const [kind, entry] of Object.entries(PROBLEM_TYPES)) {
      const error = new ApiError(new Response(JSON.stringify({}), { status: entry.status }), { type: entry.type, title: entry.title, status: entry.status });
      expect(error.kind).toBe(kind);
    }
  });

  it("without a known type URI it follows the status where one kind has it, 400 is bad-request, others have none", () => {
    const kindOf = (status: number, type?: string) => new ApiError(new Response(null, { status }), type ? { type } : {}).kind;
    expect(kindOf(401)).toBe("unauthorized");
    expect(kindOf(404, "about:blank")).toBe("not-found");
    expect(kindOf(422, "https://example.com/problems/other")).toBe("validation");
    expect(kindOf(429)).toBe("rate-limited");
    expect(kindOf(400)).toBe("bad-request");
    expect(kindOf(409)).toBeUndefined();
    expect(kindOf(502)).toBeUndefined();
    expect(kindOf(503)).toBe("service-unavailable");
  });

  it("problem+json field errors keep their code", async () => {
    const errors = [{ parameter: "limit", detail: "must be <= 100", code: "maximum" }];
    const error = await errorFor(
      422,
      "application/problem+json",
      JSON.stringify({ type: urn("validation"), title: "Request validation failed", status: 422, detail: "The query is not valid.", errors }),
    );
    expect(error.errors).toEqual(errors);
    expect(error.message).toBe(`GET ${path} failed with 422 (Request validation failed): The query is not valid. - limit must be <= 100 [maximum]`);
  });
});

describe("printing an ApiError", () => {
  it("inspect, console.error's format and String show one readable paragraph, not the Response", async () => {
    const error = await errorFor(
      422,
      "application/json",
      JSON.stringify({ detail: [{ loc: ["body", "source_config", "resource_spec", "cpu"], msg: "Input should be a valid number", type: "float_parsing" }] }),
    );
    const paragraph = `ApiError: GET ${path} failed with 422 (Unprocessable Entity): The request has 1 invalid field. - /source_config/resource_spec/cpu Input should be a valid number [float_parsing]`;
    expect(String(error)).toBe(paragraph);
    for (const printed of [inspect(error), format(error), format("%o", error), inspect({ wrapped: error })]) {
      expect(printed).toContain(paragraph);
      for (const internal of ["Response", "Headers", "statusText", "bodyUsed", "Symbol(", "body:", "problem:"]) expect(printed).not.toContain(internal);
    }
    // The stack frames stay: they say where the error came from.
    expect(inspect(error).split("\n")[1]).toMatch(/^\s+at /);
    // The response is still there for a program that asks for it.
    expect(error.response.status).toBe(422);
    expect(Object.keys(error)).not.toContain("response");
  });

  it("node prints an unhandled rejection with an ApiError as that paragraph and its fields, not the Response (the built package, in a child process)", async () => {
    // dist/ is compiled by the test run's global setup.
    const script = `
      import { ApiError } from "./dist/index.js";
      const page = "<html><head><title>502</title></head><body><h1>502 Bad Gateway</h1></body></html>";
      const response = new Response(page, { status: 502, statusText: "Bad Gateway", headers: { "content-type": "text/html" } });
      Promise.reject(new ApiError(response, page, { request: { method: "GET", url: "http://127.0.0.1:1/v2/listeners?limit=5" } }));
    `;
    const child = await run(process.execPath, ["--input-type=module", "-e", script], { cwd: ROOT }).then(
      () => ({ code: 0, stderr: "" }),
      (error: { code: number; stderr: string }) => error,
    );
    expect(child.code).toBe(1);
    expect(child.stderr).toContain("ApiError: GET /v2/listeners failed with 502 (Bad Gateway): 502 Bad Gateway");
    // (node also quotes the source line that made the error, hence nothing from that line here)
    for (const internal of ["Response {", "Headers", "bodyUsed", "<h1>", "problem:"]) expect(child.stderr).not.toContain(internal);
    // Node adds the error's own plain fields, for logs.
    expect(child.stderr).toContain("kind: undefined");
  });
});

describe("docs/client.md", () => {
  it("lists every kind of PROBLEM_TYPES with its type URI and status, and no other", () => {
    const readme = readFileSync(new URL("../../docs/client.md", import.meta.url), "utf8");
    const rows = [...readme.matchAll(/^\| `([a-z-]+)` \| `(urn:deployment-management-api:problem:[a-z-]+)` \| (\d{3}) \|$/gm)];
    const listed = Object.fromEntries(rows.map(([, kind, type, status]) => [kind, { type, status: Number(status) }]));
    const expected = Object.fromEntries(Object.entries(PROBLEM_TYPES).map(([kind, { type, status }]) => [kind, { type, status }]));
    expect(listed).toEqual(expected);
  });
});
