// dms rollback when the service fails after the PATCH created the revision: the revision is named
// with the dms wait command that follows it (running the rollback again would create another one,
// and go back one revision further). Its own simulator, whose faults no other test shares.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningSimulator, SEED_IDS, startSimulator } from "../../src/simulator/node/index.js";
import { dms, jsonLines, SimulatorControl } from "./support.js";

let simulator: RunningSimulator;
let sim: SimulatorControl;

beforeAll(async () => {
  simulator = await startSimulator({ port: 0, stepSeconds: 3600, quiet: true });
  sim = new SimulatorControl(simulator.url);
});
afterAll(() => simulator?.close());

describe("dms rollback, the service failing after the PATCH", () => {
  it("exit 6 names the revision created and the dms wait command that resumes, in text and in --json", async () => {
    const id = SEED_IDS.deployment_id;
    for (const json of [false, true]) {
      const before = (await sim.get(`/v2/deployments/${id}`)).latest_revision_id;
      // Without --to the target is found by listing: the revision GETs that fail are the polls after the PATCH.
      await sim.post("/_simulator/faults", { operation: "getRevision", count: 40, fault: 500 });
      const result = await dms(["rollback", id, "--interval", "20ms", ...(json ? ["--json"] : [])], sim.env({ DMS_API_KEY: "rollback-faults-key" }));
      await sim.post("/_simulator/faults/clear", {});
      const created = (await sim.get(`/v2/deployments/${id}`)).latest_revision_id;
      expect(created).not.toBe(before);
      expect(result.code, result.stderr).toBe(6);
      expect(result.stderr).toContain(`revision   ${created}`);
      expect(result.stderr).toContain(`resume with: dms wait ${id} ${created} --interval 20ms`);
      if (json) {
        expect(jsonLines(result.stdout).at(-1)).toMatchObject({
          event: "result",
          revision_id: created,
          exit_code: 6,
          resume: expect.stringContaining(created),
        });
      }
    }
  });
});
