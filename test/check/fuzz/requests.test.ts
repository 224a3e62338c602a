// Generated adversarial requests (test/check/fuzz/requests.ts), each sent to the simulator in-process, the
// simulator over HTTP and the mock as `npm start` runs it. A case fails when any answer breaks an
// invariant: no crash, no 5xx, a documented status, a body valid against its documented schema, the
// answer the case's expectation asks for, and agreement between the servers (see check.ts). Known
// findings not fixed yet are listed in known.ts. Seeded: a failure prints the seed and path to replay
// (FUZZ_SEED=... FUZZ_PATH=... npx vitest run test/check/fuzz/requests.test.ts).
import fc from "fast-check";
import { afterAll, beforeAll, expect, it } from "vitest";
import { budget, report, timeout } from "./budget.js";
import { runCase, type Servers, type Violation } from "./check.js";
import { KNOWN_FINDINGS, knownFinding } from "./known.js";
import { anyCase, type Case, describeCase, OPERATIONS, toCase } from "./requests.js";
import { httpSimulatorTarget, inProcessTarget, mockTarget } from "./targets.js";

let servers: Servers;
beforeAll(async () => {
  const [http, mock] = await Promise.all([httpSimulatorTarget(), mockTarget()]);
  servers = { inProcess: inProcessTarget(), http, mock };
});
afterAll(async () => {
  await Promise.all([servers?.inProcess.close(), servers?.http.close(), servers?.mock?.close()]);
});

const knownHits = new Map<string, number>();
/** FUZZ_COLLECT=1: go on past failures and print one example of each kind at the end (for triage). */
const COLLECT = process.env.FUZZ_COLLECT === "1";
const collected = new Map<string, string>();

function failures(c: Case, violations: Violation[]): Violation[] {
  return violations.filter((v) => {
    const known = knownFinding(c, v);
    if (known) knownHits.set(known.id, (knownHits.get(known.id) ?? 0) + 1);
    return !known;
  });
}

it(
  "every generated request, valid or mutated, is answered by the document on all three servers",
  async () => {
    const started = Date.now();
    let cases = 0;
    const byMutation = new Map<string, number>();
    const summary = () => report("requests", cases, started, { known: Object.fromEntries(knownHits), mutations: Object.fromEntries(byMutation) });
    await fc
      .assert(
        fc.asyncProperty(anyCase(), async (c) => {
          cases++;
          const kind = c.mutation.split(" ")[0]!;
          byMutation.set(kind, (byMutation.get(kind) ?? 0) + 1);
          const { violations } = await runCase(c, servers);
          const left = failures(c, violations);
          if (left.length > 0 && COLLECT) {
            for (const v of left) {
              const key = `${v.server} | ${v.invariant} | ${c.mutation.replace(/[0-9a-f-]{36}/g, "<id>").slice(0, 60)}`;
              if (!collected.has(key)) collected.set(key, `${describeCase(c)}\n    ${v.detail}`);
            }
            return;
          }
          if (left.length > 0) {
            throw new Error(`${describeCase(c)}\n${left.map((v) => `  ${v.server}: ${v.invariant}: ${v.detail}`).join("\n")}`);
          }
        }),
        budget(150, 0.9),
      )
      .finally(summary);
    if (COLLECT) for (const [key, example] of [...collected].sort()) console.log(`\n### ${key}\n${example}`);
    // Every server still answers after all of it.
    for (const target of [servers.inProcess, servers.http, servers.mock!]) expect(await target.alive(), target.name).toBe(true);
  },
  timeout(120_000, 0.9),
);

/** The shrunk case of each finding of the generated tests, open or fixed. */
const REPLAYS: Record<string, () => Case> = {
  "413-undocumented": () => ({
    ...toCase({
      op: operation("patchListener"),
      pathValues: { listener_id: "5d8e2f1a-7b3c-4e9d-a6f2-0c1b8e7d3a54" },
      query: [],
      headers: [
        ["x-api-key", "dev"],
        ["content-type", "application/json"],
      ],
      body: {},
    }),
    body: new TextEncoder().encode(`{}${" ".repeat(1024 * 1024 - 1)}`),
    mutation: "body padded with spaces to 1048577 bytes",
    expect: "invalid",
  }),
  "tenant-422-undocumented": () => ({
    ...toCase({
      op: operation("listOAuthProviders"),
      pathValues: {},
      query: [],
      headers: [
        ["x-api-key", "dev"],
        ["x-tenant-id", "acme"],
      ],
    }),
    mutation: "header X-Tenant-Id not a UUID",
    expect: "invalid",
  }),
  "repeated-query-parameter": () => ({
    ...toCase({
      op: operation("listListeners"),
      pathValues: {},
      query: [
        ["limit", "1"],
        ["limit", "1"],
      ],
      headers: [["x-api-key", "dev"]],
    }),
    mutation: "query limit sent twice with the same value",
    expect: "any",
  }),
  "F1-broken-escape-400": () => ({
    ...toCase({ op: operation("getOAuthProvider"), pathValues: { provider_id: "google" }, query: [], headers: [["x-api-key", "dev"]] }),
    target: "/v2/auth/providers/google%z",
    mutation: "path provider_id followed by the broken escape %z",
    expect: "any",
  }),
  "F2-mock-empty-query-value": () => ({
    ...toCase({ op: operation("listListeners"), pathValues: {}, query: [["offset", ""]], headers: [["x-api-key", "dev"]] }),
    mutation: 'query offset=""',
    expect: "invalid",
  }),
  "F4-mock-empty-enum-array-query": () => ({
    ...toCase({
      op: operation("listRevisions"),
      pathValues: { deployment_id: "e1d7b3a9-6c2f-4e5b-8a1d-3f9c7b2e4a60" },
      query: [["status", ""]],
      headers: [["x-api-key", "dev"]],
    }),
    mutation: 'query status=""',
    expect: "invalid",
  }),
  "F5-mock-empty-enum-query": () => ({
    ...toCase({ op: operation("listDeployments"), pathValues: {}, query: [["deployment_type", ""]], headers: [["x-api-key", "dev"]] }),
    mutation: 'query deployment_type=""',
    expect: "invalid",
  }),
  "F3-mock-offset-past-int32": () => ({
    ...toCase({
      op: operation("listListeners"),
      pathValues: {},
      query: [
        ["limit", "9"],
        ["offset", "2147483647"],
      ],
      headers: [["x-api-key", "dev"]],
    }),
    mutation: "none",
    expect: "valid",
  }),
};

function operation(id: string) {
  return OPERATIONS.find((op) => op.operationId === id)!;
}

// Each finding's shrunk case: an open one (in known.ts) must still fail (it.fails), so its fix makes
// this fail and asks for the entry's removal; a fixed one must hold with no violation at all.
for (const [id, replay] of Object.entries(REPLAYS)) {
  const finding = KNOWN_FINDINGS.find((k) => k.id === id);
  if (finding) {
    it.fails(`open finding ${id} still stands (${finding.issue})`, async () => {
      const c = replay();
      const { violations } = await runCase(c, servers);
      expect(
        violations.filter((v) => knownFinding(c, v) === finding),
        describeCase(c),
      ).toEqual([]);
    });
  } else {
    it(`fixed finding ${id} holds`, async () => {
      const c = replay();
      const { violations } = await runCase(c, servers);
      expect(violations, describeCase(c)).toEqual([]);
    });
  }
}
