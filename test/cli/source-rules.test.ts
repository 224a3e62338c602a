// dms deploy and the source table (src/shared/source-rules.ts): every flag that sets a patch field,
// on a deployment of every source. A flag the source does not take is refused before the PATCH is
// sent (exit 2, the flag named, nothing changed on the simulator); one it takes deploys (exit 0,
// --no-wait). dms runs in-process (runDms): no process boundary is under test here. The same
// cases, generated from the table, run on the simulator in test/simulator/source-rules.test.ts.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEPLOY_FLAG_OF_FIELD } from "../../src/cli/deploy-patch.js";
import { startSimulator, type RunningSimulator } from "../../src/simulator/node/index.js";
import { DEPLOYMENT_SOURCES } from "../../src/shared/source-rules.js";
import { sourceCases } from "../support/source-cases.js";
import { dmsInProcess as dms, SimulatorControl } from "./support.js";

let running: RunningSimulator;
let sim: SimulatorControl;
const ids: Record<string, string> = {};

beforeAll(async () => {
  running = await startSimulator({ port: 0, quiet: true, stepSeconds: 3600 });
  sim = new SimulatorControl(running.url);
  const page = await sim.get("/v2/deployments?limit=10");
  for (const source of DEPLOYMENT_SOURCES) ids[source] = page.resources.find((d: { source: string }) => d.source === source).id;
});
afterAll(() => running?.close());

/** The cases a dms deploy flag can express: the revision config fields and revision_source. */
const FLAG_CASES = sourceCases().flatMap((c) => {
  const [field, value] = c.field.split("=");
  const flag = DEPLOY_FLAG_OF_FIELD[field!];
  if (!flag) return [];
  const given = value ?? (Object.values(c.patch.source_revision_config ?? {})[0] as string);
  return [{ ...c, flag, args: [flag, given] }];
});

describe("dms deploy checks each flag against the deployment's source before it sends", () => {
  it("covers every revision flag on every source", () => {
    expect(FLAG_CASES.length).toBe(DEPLOYMENT_SOURCES.length * 7);
  });

  it.each(FLAG_CASES.map((c) => [`${c.source}: ${c.flag} ${c.args[1]}`, c] as const))("%s", async (_name, c) => {
    const id = ids[c.source]!;
    const before = await sim.get(`/v2/deployments/${id}`);
    const result = await dms(["deploy", id, ...c.args, "--no-wait"], sim.env());
    if (c.status === 200) {
      expect(result.code, result.stderr).toBe(0);
      return;
    }
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain(`${c.flag} does not fit this deployment`);
    expect(result.stderr).toContain("nothing was sent");
    expect(await sim.get(`/v2/deployments/${id}`)).toEqual(before);
  });

  it("--dry-run refuses the same flags with the same exit code", async () => {
    const result = await dms(["deploy", ids.internal_docker!, "--ref", "main", "--dry-run"], sim.env());
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain("--ref does not fit this deployment");
  });

  it("--json says source_mismatch with the fields", async () => {
    const result = await dms(["deploy", ids.scm_host!, "--image-uri", "r/x:1", "--json", "--no-wait"], sim.env());
    expect(result.code).toBe(2);
    const last = result.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l))
      .at(-1);
    expect(last.error).toMatchObject({ kind: "source_mismatch", source: "scm_host", fields: ["source_revision_config.image_uri"] });
  });
});
