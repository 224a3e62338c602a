// Bounded requests: a body over the size bound gets a 413 problem before it is read in full (the
// mock's memory stays flat on a 100 MB upload), and a body inside the size bound that nests too
// deep, holds too long strings or arrays, or numbers JSON cannot hold gets a 422 naming the field.
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REQUEST_BOUNDS } from "../../src/gate/bounds.js";
import { PROBLEM_TYPES } from "../../src/shared/problems.js";
import { DEPLOYMENT, KEY, raw, startMockProcess, type MockProcess } from "./support.js";
import { upload } from "../support/upload.js";

const json = { ...KEY, "content-type": "application/json" };
const MiB = 1024 * 1024;

// `npm start` as a process of its own, to watch its memory.
let mock: MockProcess;
beforeAll(async () => {
  mock = await startMockProcess();
});
afterAll(async () => {
  await mock.stop();
});

describe("body size", () => {
  it("refuses a 100 MB body with a Content-Length before reading it, with a 413 problem", async () => {
    const before = mock.memory();
    const answer = await upload(mock.baseUrl, { method: "PATCH", path: DEPLOYMENT, headers: json, total: 100 * MiB, framing: "length" });
    expect(answer.status).toBe(413);
    expect(answer.body).toMatchObject({ type: PROBLEM_TYPES["content-too-large"].type, title: PROBLEM_TYPES["content-too-large"].title, status: 413 });
    expect(answer.body.detail).toContain(String(REQUEST_BOUNDS.maxBodyBytes));
    // Answered long before the upload could finish: the body was not read.
    expect(answer.sentWhenAnswered).toBeLessThan(20 * MiB);
    const after = mock.memory();
    console.log(
      `mock memory, 100 MB body with Content-Length: peak ${before.peakMiB.toFixed(0)} -> ${after.peakMiB.toFixed(0)} MiB, rss ${after.rssMiB.toFixed(0)} MiB`,
    );
    expect(after.peakMiB - before.peakMiB).toBeLessThan(32);
  });

  it("stops reading a chunked 100 MB body once it passes the bound, and its memory stays flat", async () => {
    const before = mock.memory();
    const answer = await upload(mock.baseUrl, { method: "PATCH", path: DEPLOYMENT, headers: json, total: 100 * MiB, framing: "chunked" });
    expect(answer.status).toBe(413);
    expect(answer.body.type).toBe(PROBLEM_TYPES["content-too-large"].type);
    expect(answer.sentWhenAnswered).toBeLessThan(20 * MiB);
    const after = mock.memory();
    console.log(
      `mock memory, 100 MB chunked body: peak ${before.peakMiB.toFixed(0)} -> ${after.peakMiB.toFixed(0)} MiB, rss ${after.rssMiB.toFixed(0)} MiB; answered after ${(answer.sentWhenAnswered / MiB).toFixed(1)} MiB sent`,
    );
    expect(after.peakMiB - before.peakMiB).toBeLessThan(32);
  });

  it("answers Expect: 100-continue with the 413 instead of a go-ahead, and a body within the bound with one", async () => {
    const url = new URL(mock.baseUrl);
    const ask = (length: number) =>
      new Promise<{ status: number; continued: boolean }>((resolve, reject) => {
        let continued = false;
        const req = http.request({
          host: url.hostname,
          port: url.port,
          method: "PATCH",
          path: DEPLOYMENT,
          headers: { ...json, expect: "100-continue", "content-length": String(length) },
        });
        req.on("continue", () => {
          continued = true;
          req.end(JSON.stringify({ source_revision_config: { repo_ref: "main" } }).padEnd(length, " "));
        });
        req.on("response", (res) => {
          res.resume();
          res.on("end", () => {
            req.destroy();
            resolve({ status: res.statusCode ?? 0, continued });
          });
        });
        req.on("error", reject);
        req.flushHeaders();
      });
    expect(await ask(50 * MiB)).toEqual({ status: 413, continued: false });
    expect(await ask(100 * 1024)).toEqual({ status: 200, continued: true });
  });

  it("tells a keep-alive client not to reuse the connection, so its next request is answered", async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      for (let i = 0; i < 3; i++) {
        const answer = await upload(mock.baseUrl, {
          method: "PATCH",
          path: DEPLOYMENT,
          headers: json,
          total: 20 * MiB,
          framing: i % 2 === 0 ? "length" : "chunked",
          agent,
        });
        expect(answer.status).toBe(413);
        expect(answer.headers.connection).toBe("close");
        const next = await new Promise<number>((resolve, reject) => {
          const url = new URL(mock.baseUrl);
          http
            .get({ host: url.hostname, port: url.port, path: "/v2/listeners", headers: KEY, agent }, (res) => {
              res.resume();
              res.on("end", () => resolve(res.statusCode ?? 0));
            })
            .on("error", reject);
        });
        expect(next).toBe(200);
      }
    } finally {
      agent.destroy();
    }
  });

  it("takes a body just under the bound, and still answers after the refusals", async () => {
    const body = JSON.stringify({ source_revision_config: { repo_ref: "main" } }).padEnd(REQUEST_BOUNDS.maxBodyBytes - 1, " ");
    const ok = await raw(mock.baseUrl, { method: "PATCH", path: DEPLOYMENT, headers: json, body });
    expect(ok.status).toBe(200);
    const over = await raw(mock.baseUrl, { method: "PATCH", path: DEPLOYMENT, headers: json, body: `${body}  ` });
    expect(over.status).toBe(413);
  });
});

describe("bounds on the JSON value (422 before Prism sees it)", () => {
  async function patch(body: string) {
    const answer = await raw(mock.baseUrl, { method: "PATCH", path: DEPLOYMENT, headers: json, body });
    expect(answer.status, answer.text.slice(0, 300)).toBe(422);
    const problem = answer.json();
    expect(problem).toMatchObject({ type: PROBLEM_TYPES.validation.type, title: PROBLEM_TYPES.validation.title, status: 422 });
    return problem.errors as { pointer: string; code: string; detail: string }[];
  }

  it("refuses a value nested 6,000 and 100,000 levels deep in an open field", async () => {
    for (const depth of [6_000, 100_000]) {
      const errors = await patch(`{"source_config":{"containers":[{"name":"a","env":${"[".repeat(depth)}${"]".repeat(depth)}}]}}`);
      expect(errors).toEqual([{ pointer: expect.stringMatching(/^\/source_config\/containers\/0\/env(\/0)+$/), code: "too_deep", detail: expect.any(String) }]);
    }
  });

  it("refuses numbers JSON cannot hold (1e309 parses as Infinity)", async () => {
    const errors = await patch('{"source_config":{"resource_spec":{"cpu":1e309}}}');
    expect(errors).toEqual([{ pointer: "/source_config/resource_spec/cpu", code: "not_finite", detail: "must be a finite number" }]);
  });

  it("refuses too long strings and too many items", async () => {
    const long = await patch(JSON.stringify({ source_revision_config: { repo_ref: "x".repeat(REQUEST_BOUNDS.maxStringLength + 1) } }));
    expect(long).toEqual([{ pointer: "/source_revision_config/repo_ref", code: "max_length", detail: expect.any(String) }]);
    const many = await patch(JSON.stringify({ secrets: Array.from({ length: REQUEST_BOUNDS.maxArrayItems + 1 }, () => ({ name: "a", value: "b" })) }));
    expect(many).toEqual([{ pointer: "/secrets", code: "max_items", detail: expect.any(String) }]);
  });
});
