// Generated cases for path parameters (fast-check, seeded): whatever string a caller passes, the
// request reaches a real server with exactly the path's segments, the parameter's segment decoding
// back to the value; the values no encoding can keep in place ("", ".", "..", a lone surrogate) are refused unsent.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createDeploymentsClient } from "../../src/index.js";
import { localServers, sendJson } from "./local-server.js";

const serve = localServers();
const DOT_SEGMENT = /^(?:\.|%2e){1,2}$/i;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

describe("path parameters, generated", () => {
  it("any value stays in its one segment and arrives unchanged (100 cases)", async () => {
    const server = await serve((_req, res) => sendJson(res, 200, { id: "x", latest_revision_id: null }));
    const client = createDeploymentsClient({ baseUrl: `${server.baseUrl}/base`, apiKey: "k", retry: { retries: 0 } });
    const value = fc.oneof(
      fc.string({ unit: "binary", maxLength: 40 }),
      fc.stringMatching(/^[./%?#\\a-zA-Z0-9 -]{0,12}$/),
      fc.constantFrom(".", "..", "%2e", "%2E%2e", "./..", "../", "/", "?", "#", "%", "%2F", "\\..", "..\\", "a\uD800b", "\uDFFF"),
    );
    await fc.assert(
      fc.asyncProperty(value, async (deployment_id) => {
        const before = server.requests.length;
        const call = client.GET("/v2/deployments/{deployment_id}", { params: { path: { deployment_id } } });
        if (deployment_id === "" || DOT_SEGMENT.test(deployment_id) || LONE_SURROGATE.test(deployment_id)) {
          await expect(call).rejects.toBeInstanceOf(TypeError);
          expect(server.requests.length).toBe(before);
          return;
        }
        await call;
        const seen = server.requests.at(-1)!.url.pathname.split("/");
        expect(seen.slice(0, 4)).toEqual(["", "base", "v2", "deployments"]);
        expect(seen).toHaveLength(5);
        expect(decodeURIComponent(seen[4]!)).toBe(deployment_id);
      }),
      { numRuns: 100, seed: 19 },
    );
  });
});
