// paginate's memory over a long list, measured: a walk of 10,000 items of about 2 KB each keeps
// memory flat (pages are dropped as the loop moves on). A measurement of the process's heap, so it
// runs in npm run check, in a worker of its own; test/client/paginate.test.ts covers the walk itself.
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { afterEach, describe, expect, it } from "vitest";
import { createDeploymentsClient, paginate } from "../../../src/index.js";
import { type LocalServer, listServer } from "../../client/local-server.js";

let server: LocalServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

// A full garbage collection: the flag can be turned on at run time.
setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

describe("paginate's memory", () => {
  it("keeps memory flat over 10,000 items (pages are dropped as the loop moves on)", async () => {
    // 10,000 items of about 2 KB each: over 20 MB if they were all kept.
    const total = 10_000;
    server = await listServer(total, 2000);
    const client = createDeploymentsClient({ baseUrl: server.baseUrl, apiKey: "k" });
    /** The largest heap growth after a full collection, sampled every 1,000 items; `keep` holds on to the items. */
    async function heapGrowth(keep: unknown[] | undefined) {
      gc();
      const before = process.memoryUsage().heapUsed;
      let count = 0;
      let peak = 0;
      for await (const item of paginate(client, "/v2/deployments", { query: { limit: 100 } })) {
        keep?.push(item);
        if (++count % 1000 === 0) {
          gc();
          peak = Math.max(peak, process.memoryUsage().heapUsed - before);
        }
      }
      expect(count).toBe(total);
      return peak;
    }
    const flat = await heapGrowth(undefined);
    const kept: unknown[] = [];
    const keeping = await heapGrowth(kept);
    expect(server.requests).toHaveLength(2 * (total / 100 + 1));
    // The control shows the measure can see 10,000 items (about 20 MB of JSON; V8 keeps their
    // strings one byte a character, so held they measure near that, and half of it is a bound no
    // heap layout falls under); the walk itself stays far below it.
    expect(keeping).toBeGreaterThan(10 * 1024 * 1024);
    expect(flat).toBeLessThan(keeping / 4);
  });
});
