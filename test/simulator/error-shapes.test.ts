// errors: "service" — every error the simulator can answer (test/support/error-cases.ts), once as
// problem+json (the default) and once in the service's own FastAPI shapes: the same status and
// headers, application/json, `{"detail": "text"}`, and for a 422 naming fields `{"detail": [{loc,
// msg, type}]}`. In-process (createSimulator) and over HTTP (startSimulator, as `--errors service`
// gives it). The control API keeps problem+json. Each case fails on a simulator without the option.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SEED_IDS } from "../../src/simulator/core/seed.js";
import { sendRaw } from "../support/raw-http.js";
import { createSimulator, type CreateSimulatorOptions } from "../../src/simulator/core/simulator.js";
import { startSimulator, type RunningSimulator } from "../../src/simulator/node/index.js";
import { documentedErrorStatuses, type ErrorCase, errorCases, requestOf } from "../support/error-cases.js";

const CASES = errorCases();
const BASE = "https://api.example.test";

async function answer(c: ErrorCase, errors: "problem" | "service", over: "in-process" | "http"): Promise<Response> {
  const options: CreateSimulatorOptions = { stepSeconds: 3600, ...c.options, errors };
  if (over === "in-process") {
    const sim = createSimulator(options);
    await sim.ready;
    return sim.fetch(requestOf(c, BASE));
  }
  const { persistence: _notOverHttp, ...rest } = options;
  const running: RunningSimulator = await startSimulator({ port: 0, quiet: true, ...(rest as object) });
  try {
    const response = await fetch(requestOf(c, running.url));
    // Read before the server closes.
    const text = await response.text();
    return new Response(text, { status: response.status, headers: response.headers });
  } finally {
    await running.close();
  }
}

function expectServiceShape(c: ErrorCase, response: Response, body: any): void {
  expect(response.status, c.name).toBe(c.status);
  expect(response.headers.get("content-type"), c.name).toMatch(/^application\/json/);
  expect(Object.keys(body), c.name).toEqual(["detail"]);
  if (Array.isArray(body.detail)) {
    expect(c.status).toBe(422);
    for (const item of body.detail) {
      expect(Object.keys(item).sort()).toEqual(["loc", "msg", "type"]);
      expect(["body", "query", "path", "header"]).toContain(item.loc[0]);
      expect(typeof item.msg).toBe("string");
    }
  } else {
    expect(typeof body.detail, c.name).toBe("string");
    expect(body.detail.length, c.name).toBeGreaterThan(0);
  }
}

describe("every documented error status has a case", () => {
  it("the cases cover each 4xx and 5xx the document lets an operation answer", () => {
    const covered = new Set(CASES.map((c) => c.status));
    expect(documentedErrorStatuses().filter((s) => !covered.has(s))).toEqual([]);
  });
});

for (const over of ["in-process", "http"] as const) {
  describe(`errors: "service" (${over})`, () => {
    // Over HTTP the local-server gate answers some before the core (gate: true), in the same shape;
    // a persistence adapter is an in-process option.
    const cases = over === "http" ? CASES.filter((c) => !c.options?.persistence) : CASES;
    it.each(cases.map((c) => [`${c.status} ${c.name}`, c] as const))("%s", async (_name, c) => {
      const problem = await answer(c, "problem", over);
      expect(problem.status).toBe(c.status);
      expect(problem.headers.get("content-type")).toMatch(/^application\/problem\+json/);
      const service = await answer(c, "service", over);
      expectServiceShape(c, service, await service.json());
      // Headers that say what to do keep going: Retry-After, Allow.
      for (const name of ["retry-after", "allow"]) expect(service.headers.get(name), name).toBe(problem.headers.get(name));
    });
  });
}

describe("the control API keeps problem+json", () => {
  const sim = createSimulator({ errors: "service" });
  afterAll(() => sim.close());
  it("a bad control request is problem+json", async () => {
    const response = await sim.fetch(`${BASE}/_simulator/advance`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": "k" },
      body: '{"seconds":-1}',
    });
    expect(response.status).toBe(422);
    expect(response.headers.get("content-type")).toMatch(/^application\/problem\+json/);
  });
});

describe("the option is checked", () => {
  it("errors must be problem or service, in every entry's words", async () => {
    expect(() => createSimulator({ errors: "fastapi" as never })).toThrow(/createSimulator: errors must be "problem" or "service", not "fastapi"/);
    await expect(startSimulator({ port: 0, errors: "fastapi" as never })).rejects.toThrow(/startSimulator: errors must be/);
    const { simulatorPlugin } = await import("../../src/vite/index.js");
    expect(() => simulatorPlugin({ errors: "fastapi" as never })).toThrow(/simulatorPlugin: errors must be/);
    expect(() => simulatorPlugin({ keyScope: "org" as never })).toThrow(/simulatorPlugin: keyScope must be/);
  });
});

describe("dms-simulator --errors and --key-scope", () => {
  it("a value it cannot use is a usage error naming the flag", async () => {
    const { runSimulatorCli, SimulatorUsageError } = await import("../../src/simulator/node/cli-main.js");
    await expect(runSimulatorCli(["--port", "0", "--quiet", "--errors", "fastapi"])).rejects.toThrow(SimulatorUsageError);
    await expect(runSimulatorCli(["--port", "0", "--quiet", "--errors", "fastapi"])).rejects.toThrow(/^--errors must be "problem" or "service"/);
    await expect(runSimulatorCli(["--port", "0", "--quiet", "--key-scope", "everyone"])).rejects.toThrow(/^--key-scope must be/);
  });
});

describe("the node gate's own refusals in the service's shape (errors: \"service\", over HTTP only)", () => {
  let running: RunningSimulator;
  beforeAll(async () => {
    running = await startSimulator({ port: 0, quiet: true, errors: "service" });
  });
  afterAll(() => running?.close());

  // The gate refuses these before the core; on the control API they stay problem+json, as the core's own
  // refusals there do (they were written in the service's shape over HTTP and as problem+json in-process).
  it.each([
    ["a % that does not decode", "/_simulator/x%zz", { headers: { "x-api-key": "k" } }],
    ["dot segments to the control API", "/v2/../_simulator/x%zz", { headers: { "x-api-key": "k" } }],
    [
      "a foreign Host",
      "/_simulator/reset",
      { method: "POST", headers: { host: "evil.example", "content-type": "application/json", "x-api-key": "k" }, body: "{}" },
    ],
    [
      "a body past the bound",
      "/_simulator/reset",
      { method: "POST", headers: { "content-type": "application/json", "content-length": String(2 * 1024 * 1024), "x-api-key": "k" } },
    ],
  ] as const)("on the control API, %s: problem+json, over HTTP as in-process", async (_name, path, request) => {
    const answer = await sendRaw(`${running.url}${path}`, {
      ...request,
      path,
      headers: { ...request.headers },
    } as never);
    expect(answer.status).toBeGreaterThanOrEqual(400);
    expect(answer.headers["content-type"], answer.text).toMatch(/^application\/problem\+json/);
  });

  it.each([
    ["a foreign Host", { headers: { host: "evil.example", "x-api-key": "k" } }],
    ["a cross-site write", { method: "PATCH", headers: { origin: "https://evil.example", "content-type": "text/plain", "x-api-key": "k" }, body: "{}" }],
  ] as const)("%s: 403 {detail} as application/json", async (_name, request) => {
    const answer = await sendRaw(`${running.url}/v2/deployments/${SEED_IDS.deployment_id}`, { ...request, headers: { ...request.headers } });
    expect(answer.status).toBe(403);
    expect(answer.headers["content-type"]).toMatch(/^application\/json/);
    expect(Object.keys(JSON.parse(answer.text))).toEqual(["detail"]);
  });
});
