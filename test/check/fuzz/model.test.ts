// A model-based test of the simulator: random sequences of PATCH (creating a revision or not), clock
// advances, fail-next, reset and reads, run against the simulator in-process (through its fetch and
// its /_simulator control API) and against a small reference model of the revision rules, written
// here from the document and docs/simulator.md, not from the simulator's code:
// - a PATCH creates a revision when one of the document's x-revision-fields is present and not
//   null; it becomes latest_revision_id at once, starts CREATING, and older revisions still in
//   progress end INTERRUPTED;
// - a revision moves one step of the document's x-progression per step of simulated time; a
//   pending fail-next replaces the step out of CREATING, BUILDING or DEPLOYING with its failure;
// - reaching DEPLOYED makes it active_revision_id and a deployment AWAITING_DATABASE becomes READY;
// - created_at is the simulated time, 1 ms later than the newest one when that is not behind it,
//   and the simulated clock never reads earlier than the newest created_at;
// - reset brings back the seed and the clock.
// Seeded like the other generated tests (budget.ts): a failure prints the seed and the shrunk commands.
import { sourceViolations } from "../../../src/shared/source-rules.js";
import type { DeploymentPatch, Source } from "../../../src/shared/types.js";
import fc from "fast-check";
import { expect, it } from "vitest";
import { createSimulator, SEED_IDS, type Simulator } from "../../../src/simulator/core/index.js";
import { seedState } from "../../../src/simulator/core/seed.js";
import { document } from "../../support/document.js";
import { budget, report, timeout } from "./budget.js";
import { arbitraryFor } from "./schema-arbitrary.js";

const REVISION_FIELDS: string[] = document.components.schemas.DeploymentPatch["x-revision-fields"];
const PROGRESSION: string[] = document.components.schemas.RevisionStatus["x-progression"];
const FAILURES: Record<string, string> = { CREATE_FAILED: "CREATING", BUILD_FAILED: "BUILDING", DEPLOY_FAILED: "DEPLOYING" };
const HEADERS = { "x-api-key": "model", "content-type": "application/json" };
const TRACKED = 4;
const SEED_DEPLOYMENT = SEED_IDS.deployment_id;
const iso = (ms: number) => new Date(ms).toISOString();

interface ModelRevision {
  id: string;
  status: string;
  stepAt: number;
  updatedAt: string;
  failWith: string | null;
}

interface ModelDeployment {
  id: string;
  /** Which patch fields it takes (src/shared/source-rules.ts). */
  source: Source;
  status: string;
  latest: string | null;
  active: string | null;
  /** Oldest first. */
  revisions: ModelRevision[];
  failNext: string | null;
}

interface Model {
  clock: number;
  stepMs: number;
  offset: number;
  /** The newest created_at handed out. */
  highWater: number;
  deployments: ModelDeployment[];
  initial: { offset: number; highWater: number; deployments: ModelDeployment[] };
}

interface Real {
  simulator: Simulator;
}

const next = (status: string) => {
  const i = PROGRESSION.indexOf(status);
  return i >= 0 && i < PROGRESSION.length - 1 ? PROGRESSION[i + 1] : undefined;
};

function simulatedNow(m: Model): number {
  const t = m.clock + m.offset;
  if (t >= m.highWater) return t;
  m.offset += m.highWater - t;
  return m.highWater;
}

function advanceTo(m: Model, t: number): void {
  for (const d of m.deployments) {
    for (const r of d.revisions) {
      for (let n = next(r.status); n !== undefined && t >= r.stepAt + m.stepMs; n = next(r.status)) {
        r.stepAt += m.stepMs;
        r.status = r.failWith && FAILURES[r.failWith] === r.status ? r.failWith : n;
        r.updatedAt = iso(r.stepAt);
        if (r.status === "DEPLOYED") {
          d.active = r.id;
          if (d.status === "AWAITING_DATABASE") d.status = "READY";
        }
      }
    }
  }
}

async function call(real: Real, method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const response = await real.simulator.fetch(`http://simulator${path}`, {
    method,
    headers: HEADERS,
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

/** The tracked deployment and its revisions as the simulator shows them. */
async function observe(real: Real, id: string) {
  const d = await call(real, "GET", `/v2/deployments/${id}`);
  const revs = await call(real, "GET", `/v2/deployments/${id}/revisions?limit=100`);
  expect(d.status).toBe(200);
  expect(revs.status).toBe(200);
  return { deployment: d.body, revisions: revs.body.resources as any[] };
}

function expectMatches(m: ModelDeployment, seen: { deployment: any; revisions: any[] }, where: string): void {
  const shown = {
    status: seen.deployment.status,
    latest_revision_id: seen.deployment.latest_revision_id,
    active_revision_id: seen.deployment.active_revision_id,
    revisions: seen.revisions.map((r) => ({ id: r.id, status: r.status, updated_at: r.updated_at })),
  };
  const modelled = {
    status: m.status,
    latest_revision_id: m.latest,
    active_revision_id: m.active,
    revisions: [...m.revisions].reverse().map((r) => ({ id: r.id, status: r.status, updated_at: r.updatedAt })),
  };
  expect(shown, where).toEqual(modelled);
}

class PatchCommand implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly index: number,
    readonly body: Record<string, unknown>,
  ) {}
  check = () => true;
  async run(m: Model, real: Real): Promise<void> {
    const d = m.deployments[this.index]!;
    const t = simulatedNow(m);
    advanceTo(m, t);
    const answer = await call(real, "PATCH", `/v2/deployments/${d.id}`, this.body);
    // A patch the deployment's source does not take is refused (400 for revision_source, else 422) and changes nothing.
    const { revisionSource, fields } = sourceViolations(d.source, this.body as DeploymentPatch);
    if (revisionSource || fields.length > 0) {
      expect(answer.status, JSON.stringify(answer.body)).toBe(revisionSource ? 400 : 422);
      advanceTo(m, simulatedNow(m));
      expectMatches(d, await observe(real, d.id), `refused patch(#${this.index})`);
      return;
    }
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const creates = REVISION_FIELDS.some((f) => this.body[f] !== undefined && this.body[f] !== null);
    if (creates) {
      const id = answer.body.latest_revision_id;
      expect(
        d.revisions.some((r) => r.id === id),
        "a new revision has a new id",
      ).toBe(false);
      for (const r of d.revisions) {
        if (next(r.status) !== undefined) {
          r.status = "INTERRUPTED";
          r.updatedAt = iso(t);
          r.stepAt = t;
        }
      }
      const created = Math.max(t, m.highWater + 1);
      m.highWater = created;
      d.revisions.push({ id, status: "CREATING", stepAt: created, updatedAt: iso(created), failWith: d.failNext });
      d.failNext = null;
      d.latest = id;
    }
    advanceTo(m, simulatedNow(m));
    expect(answer.body.latest_revision_id, "latest_revision_id after the PATCH").toBe(d.latest);
    expect(answer.body.active_revision_id, "active_revision_id after the PATCH").toBe(d.active);
    expect(answer.body.status, "status after the PATCH").toBe(d.status);
  }
  toString = () => `patch(#${this.index}, ${JSON.stringify(this.body).slice(0, 200)})`;
}

class AdvanceCommand implements fc.AsyncCommand<Model, Real> {
  constructor(readonly seconds: number) {}
  check = () => true;
  async run(m: Model, real: Real): Promise<void> {
    simulatedNow(m);
    const answer = await call(real, "POST", "/_simulator/advance", { seconds: this.seconds });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    m.offset += Math.round(this.seconds * 1000);
    const t = simulatedNow(m);
    advanceTo(m, t);
    expect(answer.body.now, "the simulated time after advance").toBe(iso(t));
  }
  toString = () => `advance(${this.seconds})`;
}

class FailNextCommand implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly index: number,
    readonly status: string,
  ) {}
  check = () => true;
  async run(m: Model, real: Real): Promise<void> {
    const d = m.deployments[this.index]!;
    const answer = await call(real, "POST", "/_simulator/fail-next", { deployment_id: d.id, status: this.status });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    advanceTo(m, simulatedNow(m));
    d.failNext = this.status;
  }
  toString = () => `failNext(#${this.index}, ${this.status})`;
}

class ResetCommand implements fc.AsyncCommand<Model, Real> {
  check = () => true;
  async run(m: Model, real: Real): Promise<void> {
    const answer = await call(real, "POST", "/_simulator/reset", {});
    expect(answer.status).toBe(200);
    m.offset = m.initial.offset;
    m.highWater = m.initial.highWater;
    m.deployments = structuredClone(m.initial.deployments);
  }
  toString = () => "reset()";
}

class ReadCommand implements fc.AsyncCommand<Model, Real> {
  constructor(readonly index: number) {}
  check = () => true;
  async run(m: Model, real: Real): Promise<void> {
    const d = m.deployments[this.index]!;
    advanceTo(m, simulatedNow(m));
    expectMatches(d, await observe(real, d.id), `read(#${this.index})`);
    const status = await call(real, "GET", "/_simulator");
    expect(status.body.now, "the simulated time").toBe(iso(simulatedNow(m)));
  }
  toString = () => `read(#${this.index})`;
}

const index = fc.nat(TRACKED - 1);
/** Patch bodies drawn from the document's DeploymentPatch, small; half of them made to create a revision or not for sure. */
const patchBody = fc.oneof(
  arbitraryFor({ $ref: "#/components/schemas/DeploymentPatch" }, { maxDepth: 2 }) as fc.Arbitrary<Record<string, unknown>>,
  fc.record({ source_revision_config: fc.record({ repo_ref: fc.constantFrom("main", "release/1", "v2") }) }),
  fc.record({ source_config: fc.record({ custom_url: fc.constantFrom("https://a.example.com", null) }) }),
  fc.constant({ secrets: null, secret_references: null, revision_source: null }),
);
const commands = [
  fc.tuple(index, patchBody).map(([i, body]) => new PatchCommand(i, body)),
  fc.oneof(fc.integer({ min: 0, max: 6 }), fc.constantFrom(0.4, 0.5, 1.0005, 1.9994, 2.5, 3600)).map((s) => new AdvanceCommand(s)),
  fc.tuple(index, fc.constantFrom(...Object.keys(FAILURES))).map(([i, s]) => new FailNextCommand(i, s)),
  fc.constant(new ResetCommand()),
  index.map((i) => new ReadCommand(i)),
];

/** Clocks: one after the seed, one before it (1970) and one in the year before it. */
const CLOCKS = [Date.parse("2026-06-01T12:00:00.000Z"), 0, Date.parse("2025-03-01T00:00:00.000Z")];

it(
  "random sequences of PATCH, advance, fail-next, reset and reads follow the revision rules",
  async () => {
    const started = Date.now();
    let runs = 0;
    let steps = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...CLOCKS),
        fc.constantFrom(2, 1, 0.5),
        fc.commands(commands, { maxCommands: 40, size: "medium" }),
        async (clock, stepSeconds, cmds) => {
          runs++;
          const simulator = createSimulator({ now: () => clock, stepSeconds });
          try {
            const real: Real = { simulator };
            const list = await call(real, "GET", `/v2/deployments?limit=${TRACKED}`);
            const deployments: ModelDeployment[] = [];
            for (const d of list.body.resources) {
              const seen = await observe(real, d.id);
              deployments.push({
                id: d.id,
                source: d.source,
                status: seen.deployment.status,
                latest: seen.deployment.latest_revision_id,
                active: seen.deployment.active_revision_id,
                failNext: null,
                revisions: [...seen.revisions].reverse().map((r) => ({
                  id: r.id,
                  status: r.status,
                  stepAt: Date.parse(r.updated_at),
                  updatedAt: r.updated_at,
                  failWith: null,
                })),
              });
            }
            const seed = seedState(30, clock);
            const newest = Math.max(
              seed.last_created_ms,
              ...seed.deployments.map((d) => Date.parse(d.revisions.at(-1)?.revision.created_at ?? d.deployment.created_at)),
            );
            const model: Model = {
              clock,
              stepMs: stepSeconds * 1000,
              offset: 0,
              highWater: newest,
              deployments,
              initial: { offset: 0, highWater: newest, deployments: structuredClone(deployments) },
            };
            simulatedNow(model);
            model.initial.offset = 0;
            steps += [...cmds].length;
            await fc.asyncModelRun(() => ({ model, real }), cmds);
            // And every tracked deployment at the end, whatever the sequence read.
            for (let i = 0; i < TRACKED; i++) await new ReadCommand(i).run(model, real);
          } finally {
            await simulator.close();
          }
        },
      ),
      budget(60, 0.9),
    );
    report("model", runs, started, { commands: steps });
  },
  timeout(60_000, 0.9),
);

it(
  "the control API takes any JSON without a 5xx, and time advanced as far as it goes leaves every answer valid",
  async () => {
    const started = Date.now();
    let cases = 0;
    const tenYears = 10 * 365.25 * 86_400;
    const bodies = fc.oneof(
      fc.jsonValue({ maxDepth: 3 }),
      fc.record({ seconds: fc.oneof(fc.double(), fc.integer(), fc.constantFrom(tenYears, tenYears + 1, -0, 1e-9, 8.64e12), fc.string()) }),
      fc.record({
        deployment_id: fc.oneof(fc.uuid(), fc.string(), fc.constant(SEED_DEPLOYMENT)),
        status: fc.oneof(fc.constantFrom(...Object.keys(FAILURES)), fc.string()),
      }),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.constantFrom("advance", "fail-next", "reset"), bodies), { maxLength: 12 }),
        fc.constantFrom(0, 2, 1000),
        async (calls, far) => {
          cases++;
          const simulator = createSimulator({ stepSeconds: 1 });
          try {
            const real: Real = { simulator };
            for (const [name, body] of calls) {
              const answer = await call(real, "POST", `/_simulator/${name}`, body);
              expect([200, 404, 422], `${name} ${JSON.stringify(body)}: ${JSON.stringify(answer.body)}`).toContain(answer.status);
            }
            // As far as the clock goes, ten years at a time: refused once past the bound, never broken.
            for (let i = 0; i < far; i++) {
              const answer = await call(real, "POST", "/_simulator/advance", { seconds: tenYears });
              expect([200, 422]).toContain(answer.status);
              if (answer.status === 422) break;
            }
            const patched = await call(real, "PATCH", `/v2/deployments/${SEED_DEPLOYMENT}`, { source_revision_config: { repo_ref: "main" } });
            expect(patched.status, JSON.stringify(patched.body)).toBe(200);
            for (const date of [patched.body.created_at, patched.body.updated_at]) expect(Number.isNaN(Date.parse(date)), date).toBe(false);
            const status = await call(real, "GET", "/_simulator");
            expect(status.status).toBe(200);
            expect(Number.isNaN(Date.parse(status.body.now))).toBe(false);
            const revisions = await call(real, "GET", `/v2/deployments/${SEED_DEPLOYMENT}/revisions?limit=100`);
            expect(revisions.status).toBe(200);
          } finally {
            await simulator.close();
          }
        },
      ),
      budget(12, 0.05),
    );
    report("control", cases, started);
  },
  timeout(60_000, 0.05),
);
