// The client end to end against the stateful simulator, whose revisions move: deployRevision,
// waitForRevision (status changes, failures, timeout, abort) and paginate over seeded lists.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ApiError,
  createDeploymentsClient,
  deployRevision,
  type DeploymentsClient,
  NoRevisionCreatedError,
  paginate,
  REVISION_STATUSES,
  RevisionFailedError,
  type RevisionStatus,
  RevisionWaitTimeoutError,
  TERMINAL_REVISION_STATUSES,
  unwrap,
  waitForRevision,
} from "../../src/index.js";
import { createSimulator, type RunningSimulator, SEED_IDS, startSimulator } from "../../src/simulator/node/index.js";

// A fast simulator (a revision state every 50 ms) and a slow one (revisions stand still) for the timeout cases.
let fast: RunningSimulator;
let slow: RunningSimulator;
let client: DeploymentsClient;
let slowClient: DeploymentsClient;

beforeAll(async () => {
  [fast, slow] = await Promise.all([startSimulator({ port: 0, stepSeconds: 0.05, quiet: true }), startSimulator({ port: 0, stepSeconds: 3600, quiet: true })]);
  client = createDeploymentsClient({ baseUrl: fast.url, apiKey: "test-key", tenantId: SEED_IDS.tenant_id });
  slowClient = createDeploymentsClient({ baseUrl: slow.url, apiKey: "test-key", tenantId: SEED_IDS.tenant_id });
});
afterAll(async () => {
  await Promise.all([fast?.close(), slow?.close()]);
});

const deploymentId = SEED_IDS.deployment_id;
const getDeployment = async (c: DeploymentsClient) =>
  unwrap(await c.GET("/v2/deployments/{deployment_id}", { params: { path: { deployment_id: deploymentId } } }));

describe("deployRevision and waitForRevision against the simulator", () => {
  it("patches, follows the new revision through its states and resolves when it is DEPLOYED", async () => {
    const seen: RevisionStatus[] = [];
    const { deployment, revision } = await deployRevision(
      client,
      deploymentId,
      { source_revision_config: { repo_ref: "release-1" } },
      { intervalMs: 10, timeoutMs: 20_000, onStatus: (status) => seen.push(status) },
    );
    expect(revision.status).toBe("DEPLOYED");
    expect(revision.id).toBe(deployment.latest_revision_id);
    expect(revision.source_revision_config?.repo_ref).toBe("release-1");
    // onStatus saw each change once, in lifecycle order, ending at the terminal state.
    expect(seen.at(-1)).toBe("DEPLOYED");
    expect(new Set(seen).size).toBe(seen.length);
    const order = seen.map((s) => REVISION_STATUSES.indexOf(s));
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(seen.filter((s) => (TERMINAL_REVISION_STATUSES as readonly string[]).includes(s))).toEqual(["DEPLOYED"]);
    // The service agrees: the new revision is the active one now.
    const after = await getDeployment(client);
    expect(after.active_revision_id).toBe(revision.id);
  });

  it("resolves with a failed revision by default, and rejects with RevisionFailedError with throwOnFailure", async () => {
    for (const throwOnFailure of [false, true]) {
      const failNext = await fetch(`${fast.url}/_simulator/fail-next`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ deployment_id: deploymentId, status: "BUILD_FAILED" }),
      });
      expect(failNext.status).toBe(200);
      const run = deployRevision(
        client,
        deploymentId,
        { secrets: [{ name: "TOKEN", value: `v${throwOnFailure}` }] },
        {
          intervalMs: 10,
          throwOnFailure,
        },
      );
      if (throwOnFailure) {
        const error = await run.catch((e: unknown) => e);
        expect(error).toBeInstanceOf(RevisionFailedError);
        expect((error as RevisionFailedError).revision.status).toBe("BUILD_FAILED");
      } else {
        expect((await run).revision.status).toBe("BUILD_FAILED");
      }
    }
  });

  it("reports a patch that created no revision instead of waiting on the old one", async () => {
    const before = await getDeployment(client);
    const error = await deployRevision(client, deploymentId, { source_config: { build_on_push: false } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NoRevisionCreatedError);
    expect((error as Error).message).toContain("created no revision");
    expect((await getDeployment(client)).latest_revision_id).toBe(before.latest_revision_id);
  });

  it("rejects a patch the service refuses with its ApiError (422), before any wait", async () => {
    // `name` cannot be changed; the cast sends it anyway, as an untyped caller would.
    const error = await deployRevision(client, deploymentId, { name: "renamed" } as never).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(422);
    expect((error as ApiError).method).toBe("PATCH");
  });

  it("rejects with RevisionWaitTimeoutError naming the last status when the revision does not finish in time", async () => {
    const error = await deployRevision(
      slowClient,
      deploymentId,
      { source_revision_config: { repo_ref: "slow" } },
      {
        timeoutMs: 1500,
        intervalMs: 50,
      },
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RevisionWaitTimeoutError);
    expect((error as RevisionWaitTimeoutError).lastStatus).toBe("CREATING");
    expect((error as Error).message).toMatch(/within 1500 ms; last status: CREATING/);
  });

  it("rejects with the signal's reason when aborted, and stops polling", async () => {
    const latest = (await getDeployment(slowClient)).latest_revision_id!;
    const controller = new AbortController();
    const reason = new Error("pipeline cancelled");
    const statuses: RevisionStatus[] = [];
    let polls = 0;
    // A client of the slow simulator that calls `onSend` before each request it sends.
    const slowClientCalling = (onSend: () => void) =>
      createDeploymentsClient({
        baseUrl: slow.url,
        apiKey: "test-key",
        tenantId: SEED_IDS.tenant_id,
        fetch: (request) => {
          onSend();
          return fetch(request);
        },
      });
    const counting = slowClientCalling(() => polls++);
    await expect(
      waitForRevision(counting, deploymentId, latest, {
        intervalMs: 20,
        signal: controller.signal,
        onStatus: (s) => {
          statuses.push(s);
          // Abort while it polls on: the status does not change, so onStatus is not called again.
          setTimeout(() => controller.abort(reason), 100);
        },
      }),
    ).rejects.toBe(reason);
    expect(statuses).toHaveLength(1);
    // Nothing polls after the abort: on a loaded machine a poll already on the wire when the abort
    // came may still reach the server, but no new one starts.
    const polled = polls;
    // A sibling wait at the same interval, stopped after five polls: by then the aborted one would have polled again.
    const siblingStop = new AbortController();
    let siblingPolls = 0;
    const sibling = slowClientCalling(() => {
      if (++siblingPolls >= 5) siblingStop.abort();
    });
    await waitForRevision(sibling, deploymentId, latest, { intervalMs: 20, signal: siblingStop.signal }).catch(() => undefined);
    expect(siblingPolls).toBeGreaterThanOrEqual(5);
    expect(polls).toBeLessThanOrEqual(polled + 1);
    expect(polled).toBeGreaterThan(1);
  });

  it("rejects with ApiError 404 for a revision that does not exist", async () => {
    const error = await waitForRevision(client, deploymentId, "00000000-0000-4000-8000-000000000000").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(404);
  });
});

describe("paginate against the simulator", () => {
  it("walks every deployment of the tenant in small pages, newest first, like one large page", async () => {
    const onePage = unwrap(await client.GET("/v2/deployments", { params: { query: { limit: 100 } } }));
    const walked: string[] = [];
    for await (const d of paginate(client, "/v2/deployments", { query: { limit: 7 } })) walked.push(d.id);
    expect(walked).toEqual(onePage.resources.map((d) => d.id));
    expect(walked.length).toBeGreaterThan(7);
  });

  it("walks a deployment's revisions, and filters them by a comma-separated status list", async () => {
    const path = { deployment_id: deploymentId };
    const statusOf = new Map<string, RevisionStatus | undefined>();
    for await (const r of paginate(client, "/v2/deployments/{deployment_id}/revisions", { path, query: { limit: 2 } })) {
      const revision = unwrap(
        await client.GET("/v2/deployments/{deployment_id}/revisions/{revision_id}", {
          params: { path: { ...path, revision_id: r.id! } },
        }),
      );
      statusOf.set(r.id!, revision.status);
    }
    expect(statusOf.size).toBeGreaterThan(2);
    const wanted: RevisionStatus[] = ["BUILD_FAILED", "INTERRUPTED"];
    const filtered: string[] = [];
    for await (const r of paginate(client, "/v2/deployments/{deployment_id}/revisions", {
      path,
      query: { limit: 1, status: wanted },
    })) {
      filtered.push(r.id!);
    }
    const expected = [...statusOf].filter(([, status]) => wanted.includes(status!)).map(([id]) => id);
    expect(filtered).toEqual(expected);
    expect(filtered.length).toBeGreaterThan(0);
    expect(filtered.length).toBeLessThan(statusOf.size);
  });

  it("walks the listeners", async () => {
    const ids: string[] = [];
    for await (const l of paginate(client, "/v2/listeners", { query: { limit: 1 } })) ids.push(l.id!);
    expect(ids).toContain(SEED_IDS.listener_id);
  });
});

describe("the client on an in-process simulator (createSimulator().fetch, no port)", () => {
  it("deployRevision follows a revision the simulator's own clock moves, and sees a failure set by failNext", async () => {
    let now = Date.parse("2030-01-01T00:00:00Z");
    const sim = createSimulator({ stepSeconds: 1, now: () => now });
    const inProcess = createDeploymentsClient({ baseUrl: "https://api.example.test", apiKey: "k", fetch: sim.fetch });
    // Each poll moves the simulated clock one step: no real time passes.
    const poll = { intervalMs: 1, timeoutMs: 5_000, onStatus: () => (now += 1_000) };
    const deployed = await deployRevision(inProcess, deploymentId, { source_revision_config: { repo_ref: "in-process" } }, poll);
    expect(deployed.revision.status).toBe("DEPLOYED");
    await sim.failNext(deploymentId, "DEPLOY_FAILED");
    const failed = await deployRevision(inProcess, deploymentId, { secrets: [] }, poll);
    expect(failed.revision.status).toBe("DEPLOY_FAILED");
    expect(unwrap(await inProcess.GET("/v2/deployments/{deployment_id}", { params: { path: { deployment_id: deploymentId } } })).active_revision_id).toBe(
      deployed.revision.id,
    );
  });
});
