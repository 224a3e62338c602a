// The client against a local server that misbehaves the way real servers and proxies do: it never
// answers, stalls mid-body, drops the connection mid-body, answers 200 with something that is not
// JSON, or sends an HTML error page. Real HTTP, real sockets, small timeouts so the suite stays fast.
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it, vi } from "vitest";
import { rejection } from "../support/rejection.js";
import { ApiError, createDeploymentsClient, deployRevision, paginate, RequestTimeoutError, unwrap, waitForRevision } from "../../src/index.js";
import { cutMidBody, type Handler, localServers, sendJson, sendText } from "./local-server.js";

const serve = localServers();

const DEPLOYMENT_ID = "7f1c2d4e-0000-4000-8000-000000000001";
const REVISION_ID = "7f1c2d4e-0000-4000-8000-0000000000aa";
const page = { resources: [], offset: 0 };
const fast = { minDelayMs: 1, maxDelayMs: 5 };
const never: Handler = () => undefined;

/** globalThis.fetch, counting the attempts the client makes: under load an attempt can time out before the server sees it. */
function countingFetch() {
  const counted = {
    attempts: 0,
    fetch: (request: Request) => {
      counted.attempts++;
      return fetch(request);
    },
  };
  return counted;
}

function patchListener(client: ReturnType<typeof createDeploymentsClient>) {
  return client.PATCH("/v2/listeners/{listener_id}", { params: { path: { listener_id: DEPLOYMENT_ID } }, body: { version: "2" } });
}

describe("a server that never answers", () => {
  it("a GET times out on each attempt, is retried, and fails with a RequestTimeoutError naming method, path and timeout", async () => {
    const server = await serve(never);
    const counted = countingFetch();
    const client = createDeploymentsClient({ baseUrl: server.baseUrl, apiKey: "k", fetch: counted.fetch, timeoutMs: 100, retry: { retries: 2, ...fast } });
    const error = await rejection(client.GET("/v2/listeners"));
    expect(error).toBeInstanceOf(RequestTimeoutError);
    expect(error).toMatchObject({ method: "GET", path: "/v2/listeners", timeoutMs: 100 });
    expect(String(error)).toBe("RequestTimeoutError: GET /v2/listeners timed out after 100 ms without a complete response");
    expect(counted.attempts).toBe(3);
    expect(server.requests.length).toBeGreaterThanOrEqual(1);
    expect(server.requests.length).toBeLessThanOrEqual(3);
  });

  // Node's fetch links a Request's signal to the fetch through objects it may collect first: after a
  // garbage collection the abort would never arrive, and the call would hang until the server closed.
  for (const [when, handler] of [
    ["before the headers", never],
    [
      "in the middle of the body",
      ((_req, res) => {
        res.writeHead(200, { "Content-Type": "application/json", "Content-Length": 100 });
        res.write('{"resources": [');
      }) as Handler,
    ],
  ] as const) {
    it(`the deadline still fires after a garbage collection ${when}`, async () => {
      setFlagsFromString("--expose-gc");
      const gc = runInNewContext("gc") as () => void;
      const server = await serve(handler);
      const client = createDeploymentsClient({ baseUrl: server.baseUrl, apiKey: "k", timeoutMs: 300, retry: { retries: 0 } });
      let settled = false;
      const pending = rejection(client.GET("/v2/listeners")).finally(() => (settled = true));
      // Collect once the request is on the wire, which is when an unreferenced deadline timer would
      // be lost (or once it has already timed out, on a machine too loaded to get it there first).
      await vi.waitFor(() => expect(server.requests.length > 0 || settled).toBe(true), { timeout: 30_000, interval: 5 });
      gc();
      gc();
      expect(await pending).toBeInstanceOf(RequestTimeoutError);
    }, 30_000);
  }

  it("a PATCH times out once and is not sent again", async () => {
    const server = await serve(never);
    const counted = countingFetch();
    const client = createDeploymentsClient({ baseUrl: server.baseUrl, apiKey: "k", fetch: counted.fetch, timeoutMs: 300, retry: fast });
    const error = await rejection(patchListener(client));
    expect(error).toBeInstanceOf(RequestTimeoutError);
    expect(error).toMatchObject({ method: "PATCH", path: `/v2/listeners/${DEPLOYMENT_ID}`, timeoutMs: 300 });
    expect(counted.attempts).toBe(1);
    expect(server.requests.length).toBeLessThanOrEqual(1);
  });

  it("a GET that timed out gets the answer of the next attempt", async () => {
    let seen = 0;
    const server = await serve((_req, res) => {
      if (seen++ > 0) sendJson(res, 200, page);
    });
    const client = createDeploymentsClient({ baseUrl: server.baseUrl, apiKey: "k", timeoutMs: 250, retry: fast });
    expect(unwrap(await client.GET("/v2/listeners"))).toEqual(page);
    expect(server.requests.length).toBeGreaterThanOrEqual(2);
  });

  it("the deadline covers the body: headers sent, then a stall, is a timeout too", async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200, { "Content-Type": "application/json", "Content-Length": 100 });
      res.write('{"resources": [');
    });
    const client = createDeploymentsClient({ baseUrl: server.baseUrl, apiKey: "k", timeoutMs: 100, retry: { retries: 0 } });
    expect(await rejection(client.GET("/v2/listeners"))).toBeInstanceOf(RequestTimeoutError);
  });

  it("the caller's abort is reported as the caller's, not as a timeout, and is not retried", async () => {
    const controller = new AbortController();
    const reason = new Error("the caller gave up");
    // The caller gives up once the server has the request, which it never answers.
    const server = await serve(() => controller.abort(reason));
    const counted = countingFetch();
    const client = createDeploymentsClient({ baseUrl: server.baseUrl, apiKey: "k", fetch: counted.fetch, timeoutMs: 5_000, retry: fast });
    expect(await rejection(client.GET("/v2/listeners", { signal: controller.signal }))).toBe(reason);
    expect(counted.attempts).toBe(1);
    expect(server.requests).toHaveLength(1);
  });
});

describe("a connection closed mid-body", () => {
  it("a GET whose body is cut short is sent again", async () => {
    let seen = 0;
    const server = await serve((_req, res) => (seen++ < 2 ? cutMidBody(res) : sendJson(res, 200, page)));
    const client = createDeploymentsClient({ baseUrl: server.baseUrl, apiKey: "k", retry: fast });
    expect(unwrap(await client.GET("/v2/listeners"))).toEqual(page);
    expect(server.requests).toHaveLength(3);
  });

  it("after the last attempt it is the network error fetch reports", async () => {
    const server = await serve((_req, res) => cutMidBody(res));
    const client = createDeploymentsClient({ baseUrl: server.baseUrl, apiKey: "k", retry: { retries: 1, ...fast } });
    expect(await rejection(client.GET("/v2/listeners"))).toBeInstanceOf(TypeError);
    expect(server.requests).toHaveLength(2);
  });

  it("a PATCH whose response is cut short is not sent again", async () => {
    const server = await serve((_req, res) => cutMidBody(res));
    const client = createDeploymentsClient({ baseUrl: server.baseUrl, apiKey: "k", retry: fast });
    expect(await rejection(patchListener(client))).toBeInstanceOf(TypeError);
    expect(server.requests).toHaveLength(1);
  });
});

describe("a 200 whose body is not the JSON the document promises", () => {
  const bodies: [string, Handler, RegExp][] = [
    ["invalid JSON", (_req, res) => sendText(res, 200, '{"resources": [', "application/json"), /body is not JSON/],
    ["an empty body (Content-Length: 0)", (_req, res) => sendText(res, 200, "", "application/json"), /empty body/],
    [
      "an empty chunked body",
      (_req, res) => {
        res.writeHead(200, { "Content-Type": "application/json" });
        res.end();
      },
      /empty body/,
    ],
    ["a bare null", (_req, res) => sendText(res, 200, "null", "application/json"), /body is null, not a JSON object or array/],
    ["an HTML page", (_req, res) => sendText(res, 200, "<html><body>Welcome to nginx!</body></html>", "text/html"), /body is not JSON/],
  ];

  for (const [name, handler, said] of bodies) {
    it(`${name}: the GET rejects with an ApiError carrying status, method and path, without a retry`, async () => {
      const server = await serve(handler);
      const client = createDeploymentsClient({ baseUrl: server.baseUrl, apiKey: "k", retry: fast });
      const error = await rejection(client.GET("/v2/listeners", { params: { query: { limit: 5 } } }));
      expect(error).toBeInstanceOf(ApiError);
      expect(error).toMatchObject({ status: 200, method: "GET", path: "/v2/listeners", title: "Invalid response body", kind: undefined });
      expect((error as ApiError).detail).toMatch(said);
      expect((error as ApiError).message).toMatch(/^GET \/v2\/listeners failed with 200 \(Invalid response body\): /);
      expect((error as ApiError).response.status).toBe(200);
      expect(server.requests).toHaveLength(1);
    });
  }

  it("invalid JSON keeps the parser's error as the cause", async () => {
    const server = await serve((_req, res) => sendText(res, 200, "{oops", "application/json"));
    const client = createDeploymentsClient({ baseUrl: server.baseUrl, apiKey: "k" });
    const error = (await rejection(client.GET("/v2/auth/providers"))) as ApiError;
    expect(error.cause).toBeInstanceOf(SyntaxError);
    expect(error.body).toBe("{oops");
  });

  it("a PATCH answered with an empty 200 rejects with an ApiError naming PATCH", async () => {
    const server = await serve((_req, res) => sendText(res, 200, "", "application/json"));
    const client = createDeploymentsClient({ baseUrl: server.baseUrl, apiKey: "k" });
    const error = await rejection(patchListener(client));
    expect(error).toMatchObject({ status: 200, method: "PATCH", path: `/v2/listeners/${DEPLOYMENT_ID}` });
    expect(error).toBeInstanceOf(ApiError);
  });

  it("paginate surfaces it as an ApiError", async () => {
    const server = await serve((_req, res) => sendText(res, 200, "<html>maintenance</html>", "text/html"));
    const client = createDeploymentsClient({ baseUrl: server.baseUrl, apiKey: "k" });
    const walk = async () => {
      for await (const _ of paginate(client, "/v2/deployments")) void _;
    };
    expect(await rejection(walk())).toMatchObject({ name: "ApiError", status: 200, path: "/v2/deployments" });
  });

  it("waitForRevision surfaces it as an ApiError", async () => {
    const server = await serve((_req, res) => sendText(res, 200, "", "application/json"));
    const client = createDeploymentsClient({ baseUrl: server.baseUrl, apiKey: "k" });
    const error = await rejection(waitForRevision(client, DEPLOYMENT_ID, REVISION_ID, { intervalMs: 1 }));
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 200, path: `/v2/deployments/${DEPLOYMENT_ID}/revisions/${REVISION_ID}` });
  });

  it("deployRevision surfaces an empty PATCH answer as an ApiError", async () => {
    const server = await serve((req, res) =>
      req.method === "GET" ? sendJson(res, 200, { id: DEPLOYMENT_ID, latest_revision_id: null }) : sendText(res, 200, "", "application/json"),
    );
    const client = createDeploymentsClient({ baseUrl: server.baseUrl, apiKey: "k" });
    const error = await rejection(deployRevision(client, DEPLOYMENT_ID, { source_revision_config: { repo_ref: "main" } }));
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 200, method: "PATCH" });
    expect(server.requests.map((r) => r.method)).toEqual(["GET", "PATCH"]);
  });
});

const NGINX_502 = `<html>
<head><title>502 Bad Gateway</title></head>
<body>
<center><h1>502 Bad Gateway</h1></center>
<hr><center>nginx/1.25.3</center>
</body>
</html>
`;

describe("an HTML error page from a proxy", () => {
  it("a 502 page is retried, then becomes an ApiError whose detail is the page's text, not its markup", async () => {
    const server = await serve((_req, res) => sendText(res, 502, NGINX_502, "text/html"));
    const client = createDeploymentsClient({ baseUrl: server.baseUrl, apiKey: "k", retry: { retries: 2, ...fast } });
    const result = await client.GET("/v2/deployments");
    expect(server.requests).toHaveLength(3);
    const error = (() => {
      try {
        unwrap(result);
      } catch (e) {
        return e as ApiError;
      }
      throw new Error("unwrap did not throw");
    })();
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 502,
      method: "GET",
      path: "/v2/deployments",
      title: "Bad Gateway",
      detail: "502 Bad Gateway nginx/1.25.3",
      errors: [],
      kind: undefined,
    });
    expect(error.message).toBe("GET /v2/deployments failed with 502 (Bad Gateway): 502 Bad Gateway nginx/1.25.3");
    expect(error.message).not.toContain("<");
  });
});

describe("Retry-After with a fraction of seconds", () => {
  it("waits 1.5 s between the two attempts (timed on the server)", async () => {
    let seen = 0;
    const server = await serve((_req, res) =>
      seen++ === 0 ? sendJson(res, 503, { title: "busy", status: 503 }, { "Retry-After": "1.5" }) : sendJson(res, 200, page),
    );
    // Backoff alone would send the second attempt after a few milliseconds.
    const client = createDeploymentsClient({ baseUrl: server.baseUrl, apiKey: "k", retry: { minDelayMs: 1, maxDelayMs: 5_000 } });
    expect(unwrap(await client.GET("/v2/listeners"))).toEqual(page);
    const [first, second] = server.requests;
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(1_400);
  });
});
