// Deterministic seed data: the same ids, names and timestamps on every start, so tests, docs and
// the contract suite can name them. Only the moment in-progress revisions entered their state is
// taken from the clock, so they go on advancing after a start. No Node imports: it runs in browsers.
import type {
  AgentConnection,
  Deployment,
  DeploymentRecord,
  DeploymentStatus,
  DeploymentType,
  Listener,
  OAuthProvider,
  Repository,
  RevisionRecord,
  RevisionStatus,
  State,
} from "./model.js";
import { isInProgress } from "../../shared/revision-rules.js";

/**
 * The ids the document's examples use, each given to the seeded resource the example shows (same
 * name, source, tier, tenant; test/simulator/examples-seed.test.ts holds them to it), so that a
 * request copied from the docs finds what the docs say it finds. Every other seed id is derived
 * from its name.
 */
const DOCUMENT_IDS: Record<string, string> = {
  // support-agent, scm_host, prod: the newest deployment, with three revisions (RevisionPageFirst).
  "deployment:0": "3f2b8c1e-5a47-4d6b-9e21-7c0a4f8e1b52",
  "deployment:0:revision:0": "a2c4e6f8-0b1d-4c3e-9f5a-7b9d1f3a5c27",
  "deployment:0:revision:1": "b7a3e9c1-4d2f-4b8a-9c6e-1f5d3a7b2e90",
  "deployment:0:revision:2": "1a3c5e7f-9b2d-4f6a-8c0e-2d4f6a8c0e13",
  // research-agent, internal_docker, dev.
  "deployment:1": "c5e9a2b7-1f3d-4a8c-b6e0-9d2f7a4c1e35",
  "deployment:1:revision:0": "f0b2d4f6-8a1c-4e3a-b5d7-9f1b3d5f7a62",
  // triage-agent, internal_source, prod, AWAITING_DATABASE.
  "deployment:2": "e1d7b3a9-6c2f-4e5b-8a1d-3f9c7b2e4a60",
  "deployment:2:revision:0": "2c4e6a8c-0e1f-4a3b-8d5f-7a9c1e3a5c71",
  // billing-agent, external_docker, prod, on the prod-eu-west listener.
  "deployment:3": "8a4c1f9e-2b6d-4e3a-a7c5-1d9f0b2e6c84",
  "deployment:3:revision:0": "6e8a0c2e-4f6b-4d8f-a1c3-5e7a9c1e3f48",
  "tenant:main": "7b1e2c3d-4f5a-4b6c-8d7e-9f0a1b2c3d4e",
  "listener:prod-eu-west": "5d8e2f1a-7b3c-4e9d-a6f2-0c1b8e7d3a54",
  "listener:dev-us-east": "0b9d7f5e-3c1a-4e8b-9d6f-4a2c0e8b6d91",
  "integration:scm": "9c1e5a3f-2d7b-4f8e-b4a6-6e0d2c9f1b73",
  "integration:forge": "4f6a8c2e-1b3d-4e5f-9a7c-8d0e2f4b6a19",
};

/**
 * `count` 32-bit words of a hash of `text`: FNV-1a lanes with different starting values, each
 * finished with murmur3's avalanche step. Not cryptographic; only stable and well spread, which is
 * all seed ids need, and synchronous (crypto.subtle is not).
 */
function hashWords(text: string, count: number): number[] {
  const words: number[] = [];
  for (let lane = 0; lane < count; lane++) {
    let h = (0x811c9dc5 ^ Math.imul(lane + 1, 0x9e3779b1)) >>> 0;
    for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
    h ^= h >>> 16;
    h = Math.imul(h, 0x85ebca6b);
    h ^= h >>> 13;
    h = Math.imul(h, 0xc2b2ae35);
    h ^= h >>> 16;
    words.push(h >>> 0);
  }
  return words;
}

function hashHex(text: string, words: number): string {
  return hashWords(text, words)
    .map((w) => w.toString(16).padStart(8, "0"))
    .join("");
}

/** A stable UUID derived from a name (the layout of RFC 9562 version 8, "custom"), or the document's id for it. */
function seedUuid(name: string): string {
  const known = DOCUMENT_IDS[name];
  if (known) return known;
  const h = hashHex(`dms-simulator:${name}`, 4);
  const variant = ((parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16);
  // join() makes one flat string; a template literal would keep a tree of pieces alive (with
  // 10,000 deployments that tree was a third of the heap).
  return [h.slice(0, 8), h.slice(8, 12), `8${h.slice(13, 16)}`, `${variant}${h.slice(17, 20)}`, h.slice(20, 32)].join("-");
}

/** 40 hex digits, shaped like a git commit sha. */
export function fakeCommitSha(seed: string): string {
  return hashHex(`commit:${seed}`, 5);
}

/** The item at `n` of a list read round and round: the seed's fields take turns by rank. */
function cycle<T>(list: readonly T[], n: number): T {
  // A non-empty constant list and a whole n >= 0: the index is always in range.
  return list[n % list.length]!;
}

const SEED_EPOCH_MS = Date.parse("2026-01-05T09:00:00.000Z");
const DEPLOYMENT_SPACING_MS = 10 * 60_000;
const REVISION_SPACING_MS = 60_000;

export const DEFAULT_SEED_DEPLOYMENTS = 30;

const TENANT_MAIN = seedUuid("tenant:main");
const TENANT_OTHER = seedUuid("tenant:other");
const SCM_INTEGRATION = seedUuid("integration:scm");
const FORGE_INTEGRATION = seedUuid("integration:forge");
const TAG_VALUES = ["team:platform", "team:support", "env:staging", "env:production"].map((t) => seedUuid(`tag:${t}`));
const LISTENER_NAMES = ["prod-eu-west", "dev-us-east", "staging-eu-west"];
const AGENTS = { "support-agent": 2, "billing-agent": 1, "research-agent": 0 } as const;

const NAMES = ["support", "research", "triage", "billing", "search", "onboarding", "sales", "docs", "translation", "summary", "scheduling", "review"];

// The rank is the position in the default list (0 = newest). These cycles give every source,
// deployment state and revision state; rank 0 is an scm_host deployment that is READY and DEPLOYED.
const SOURCES = ["scm_host", "internal_docker", "internal_source", "external_docker"] as const;
const DEPLOYMENT_STATUS_CYCLE: DeploymentStatus[] = [
  "READY",
  "READY",
  "AWAITING_DATABASE",
  "READY",
  "UNUSED",
  "READY",
  "AWAITING_DELETE",
  "READY",
  "UNKNOWN",
  "READY",
];
const LATEST_REVISION_CYCLE: RevisionStatus[] = [
  "DEPLOYED",
  "BUILDING",
  "DEPLOY_FAILED",
  "QUEUED",
  "DEPLOYED",
  "CREATE_FAILED",
  "AWAITING_BUILD",
  "DEPLOYED",
  "BUILD_FAILED",
  "AWAITING_DEPLOY",
  "SKIPPED",
  "CREATING",
  "UNKNOWN",
  "DEPLOYING",
];
// Every tier; the first four ranks are the tiers of the document's examples.
const TIER_CYCLE: DeploymentType[] = ["prod", "dev", "prod", "prod", "dev_free"];
// A deployment waiting for its database has a revision on its way.
const AWAITING_DATABASE_CYCLE: RevisionStatus[] = ["CREATING", "QUEUED", "BUILDING", "DEPLOYING"];
const OLDER_REVISION_CYCLE: RevisionStatus[] = ["DEPLOYED", "INTERRUPTED", "DEPLOYED", "BUILD_FAILED", "SKIPPED"];

const iso = (ms: number) => new Date(ms).toISOString();

function repositories(integrationId: string, owner: string, host: string, names: string[]): Repository[] {
  return names.map((name, i) => ({
    host_integration_id: integrationId,
    id: 1000 + i + (host === "forge.example.com" ? 500 : 0),
    name,
    owner,
    url: `https://${host}/${owner}/${name}`,
    default_branch: i === 2 ? "develop" : "main",
  }));
}

const SCM_REPOS = repositories(SCM_INTEGRATION, "acme", "scm.example.com", ["support-agent", "billing-agent", "research-agent", "triage-agent"]);
const FORGE_REPOS = repositories(FORGE_INTEGRATION, "acme-labs", "forge.example.com", ["search-agent", "docs-agent", "sales-agent"]);

/** Well-known ids of the seed, for tests, docs and the contract suite. */
export const SEED_IDS = {
  /** The newest deployment: first in the default list, scm_host, READY, its latest revision DEPLOYED. */
  deployment_id: seedUuid("deployment:0"),
  revision_id: seedUuid("deployment:0:revision:0"),
  /** A deployment of the other tenant (invisible with X-Tenant-Id: tenant_id). */
  other_tenant_deployment_id: seedUuid("deployment:5"),
  listener_id: seedUuid(`listener:${LISTENER_NAMES[0]}`),
  provider_id: "github",
  pkce_provider_id: "google",
  agent_id: "support-agent",
  agent_without_connections_id: "research-agent",
  scm_integration_id: SCM_INTEGRATION,
  forge_integration_id: FORGE_INTEGRATION,
  tenant_id: TENANT_MAIN,
  other_tenant_id: TENANT_OTHER,
  tag_value_ids: TAG_VALUES,
} as const;

export function seedState(deploymentCount: number = DEFAULT_SEED_DEPLOYMENTS, nowMs: number = Date.now()): State {
  const listeners = seedListeners();
  const deployments: DeploymentRecord[] = [];
  // Seeded deployments share their identical nested objects (configs, secrets, tags): 10,000 of
  // them stay small. Safe because the store replaces these objects on change, never edits them.
  const memo = new Map<string, unknown>();
  const share: Share = (key, make) => {
    if (!memo.has(key)) memo.set(key, make());
    return memo.get(key) as ReturnType<typeof make>;
  };
  let lastCreated = 0;
  // Created oldest first; rank counts from the newest.
  for (let i = 0; i < deploymentCount; i++) {
    const rank = deploymentCount - 1 - i;
    const record = seedDeployment(rank, SEED_EPOCH_MS + i * DEPLOYMENT_SPACING_MS, listeners, nowMs, share);
    deployments.push(record);
    const lastRevision = record.revisions.at(-1);
    lastCreated = Math.max(lastCreated, Date.parse(record.deployment.created_at), lastRevision ? Date.parse(lastRevision.revision.created_at) : 0);
    // A finished revision's updated_at too: the simulated clock never runs behind a time the seed shows.
    for (const r of record.revisions) if (!isInProgress(r.revision.status)) lastCreated = Math.max(lastCreated, Date.parse(r.revision.updated_at));
  }
  return {
    format: "dms-simulator-state",
    version: 1,
    clock_offset_ms: 0,
    last_created_ms: lastCreated,
    deployments,
    listeners,
    providers: seedProviders(),
    connections: seedConnections(),
    repositories: { scm: { [SCM_INTEGRATION]: SCM_REPOS }, forge: { [FORGE_INTEGRATION]: FORGE_REPOS } },
  };
}

type Share = <T>(key: string, make: () => T) => T;

function seedDeployment(rank: number, createdMs: number, listeners: Listener[], nowMs: number, share: Share): DeploymentRecord {
  const source = cycle(SOURCES, rank);
  const status = cycle(DEPLOYMENT_STATUS_CYCLE, rank);
  const base = cycle(NAMES, rank);
  const name = rank < NAMES.length ? `${base}-agent` : [base, "agent", rank].join("-");
  const id = seedUuid(`deployment:${rank}`);
  const useForge = rank % 8 === 4;
  const repo = useForge ? cycle(FORGE_REPOS, rank) : cycle(SCM_REPOS, rank);
  const listener = cycle(listeners, rank);
  const imageVersion = source === "scm_host" ? null : share(`image_version:${rank % 15}`, () => `1.${rank % 5}.${rank % 3}`);

  const sourceConfig: Deployment["source_config"] = share(`source_config:${source}:${base}:${repo.url}:${rank % 30}:${listener.id}`, () =>
    source === "scm_host"
      ? {
          integration_id: repo.host_integration_id,
          repo_url: repo.url,
          build_on_push: rank % 2 === 0,
          custom_url: rank % 5 === 0 ? `https://${base}.agents.example.com` : null,
          resource_spec: rank % 3 === 0 ? { min_scale: 1, max_scale: 3, cpu: 1, memory_mb: 1024 } : null,
          install_command: null,
          build_command: null,
        }
      : source === "external_docker"
        ? {
            listener_id: listener.id,
            listener_config: { k8s_namespace: listener.compute_config?.k8s_namespaces?.[0] ?? "default" },
            resource_spec: { min_scale: 1, max_scale: 2, cpu: 0.5, memory_mb: 512 },
          }
        : { custom_url: null, resource_spec: null },
  );

  const revisionConfig = (n: number): Deployment["source_revision_config"] =>
    share(`source_revision_config:${source}:${base}:${repo.url}:${n}`, () => {
      switch (source) {
        case "scm_host":
          return { repo_ref: repo.default_branch, graph_config_path: "agent.json", repo_commit_sha: fakeCommitSha(`${repo.url}:${n}`) };
        case "internal_source":
          return { source_tarball_path: `uploads/${base}/source-${n}.tar.gz`, graph_config_path: "agent.json" };
        default:
          return { image_uri: `registry.example.com/${base}-agent:1.${n}.0` };
      }
    });

  const revisionCount = 1 + ((rank + 2) % 3);
  const latestStatus = status === "AWAITING_DATABASE" ? cycle(AWAITING_DATABASE_CYCLE, Math.floor(rank / 10)) : cycle(LATEST_REVISION_CYCLE, rank);
  const revisions: RevisionRecord[] = [];
  for (let n = 0; n < revisionCount; n++) {
    const isLatest = n === revisionCount - 1;
    const revStatus = isLatest ? latestStatus : cycle(OLDER_REVISION_CYCLE, rank + n);
    const revCreated = createdMs + (n + 1) * REVISION_SPACING_MS;
    // A revision the clock moves on takes its updated_at from the clock, not from the seed.
    const inProgress = isInProgress(revStatus);
    const updatedMs = inProgress ? Math.max(nowMs, revCreated) : revCreated + (5 * REVISION_SPACING_MS) / 10;
    revisions.push({
      revision: {
        // The latest revision has the "revision:0" id, so SEED_IDS.revision_id names the newest one.
        id: seedUuid(`deployment:${rank}:revision:${revisionCount - 1 - n}`),
        created_at: iso(revCreated),
        updated_at: iso(updatedMs),
        status: revStatus,
        source,
        source_revision_config: revisionConfig(n),
      },
      remote_reconciled: source === "external_docker",
      step_at_ms: updatedMs,
      fail_with: null,
    });
  }
  const latest = revisions.at(-1)!;
  const active = [...revisions].reverse().find((r) => r.revision.status === "DEPLOYED");
  const secrets = share(`secrets:${rank % 4 === 1 ? "" : base}`, () => (rank % 4 === 1 ? [] : [{ name: "OPENAI_API_KEY", value: `sk-seed-${base}` }]));
  const deployment: Deployment = {
    id,
    tenant_id: rank % 7 === 5 ? TENANT_OTHER : TENANT_MAIN,
    name,
    source,
    source_config: sourceConfig,
    source_revision_config: latest.revision.source_revision_config,
    secrets,
    secret_references:
      source === "external_docker" ? share(`secret_references:${base}`, () => [{ name: "DATABASE_URL", secret_name: `${base}-db`, secret_key: "url" }]) : null,
    image_version: imageVersion,
    status,
    latest_revision_id: latest.revision.id,
    active_revision_id: active?.revision.id ?? null,
    created_at: iso(createdMs),
    updated_at: latest.revision.updated_at,
  };
  const tags = share(`tags:${rank % 5 === 0 ? "pair" : rank % TAG_VALUES.length}`, () =>
    rank % 5 === 0 ? [TAG_VALUES[0]!, TAG_VALUES[2]!] : [cycle(TAG_VALUES, rank)],
  );
  return {
    deployment,
    deployment_type: cycle(TIER_CYCLE, rank),
    remote_reconciled: source === "external_docker",
    tag_value_ids: tags,
    revisions,
    fail_next: null,
  };
}

function seedListeners(): Listener[] {
  return LISTENER_NAMES.map((cluster, i) => ({
    id: seedUuid(`listener:${cluster}`),
    compute_type: "k8s",
    compute_id: cluster,
    compute_config: { k8s_namespaces: i === 0 ? ["agents", "agents-canary"] : [cluster.split("-")[0]!] },
    version: `0.${9 + i}.${i}`,
    created_at: iso(SEED_EPOCH_MS - (3 - i) * 86_400_000),
    updated_at: iso(SEED_EPOCH_MS - (3 - i) * 86_400_000 + 3_600_000),
  }));
}

function seedProviders(): OAuthProvider[] {
  const organization = seedUuid("organization:main");
  const at = iso(SEED_EPOCH_MS - 30 * 86_400_000);
  return [
    {
      id: seedUuid("provider:github"),
      organization_id: organization,
      provider_id: "github",
      name: "GitHub",
      client_id: "Iv1.seed0github",
      auth_url: "https://github.com/login/oauth/authorize",
      token_url: "https://github.com/login/oauth/access_token",
      uses_pkce: false,
      code_challenge_method: null,
      provider_type: "github",
      mcp_server_url: null,
      token_endpoint_auth_method: "client_secret_post",
      is_dynamic_client: false,
      created_at: at,
      updated_at: at,
    },
    {
      id: seedUuid("provider:google"),
      organization_id: organization,
      provider_id: "google",
      name: "Google",
      client_id: "seed-google.apps.example.com",
      auth_url: "https://accounts.google.com/o/oauth2/v2/auth",
      token_url: "https://oauth2.googleapis.com/token",
      uses_pkce: true,
      code_challenge_method: "S256",
      provider_type: "google",
      mcp_server_url: null,
      token_endpoint_auth_method: "client_secret_post",
      is_dynamic_client: false,
      created_at: at,
      updated_at: at,
    },
    {
      id: seedUuid("provider:linear-mcp"),
      organization_id: organization,
      provider_id: "linear-mcp",
      name: "Linear (MCP)",
      client_id: "dyn-seed-linear",
      auth_url: "https://mcp.linear.example.com/authorize",
      token_url: "https://mcp.linear.example.com/token",
      uses_pkce: true,
      code_challenge_method: "S256",
      provider_type: null,
      mcp_server_url: "https://mcp.linear.example.com/sse",
      token_endpoint_auth_method: "none",
      is_dynamic_client: true,
      created_at: at,
      updated_at: at,
    },
  ];
}

function seedConnections(): Record<string, AgentConnection[]> {
  const out: Record<string, AgentConnection[]> = {};
  const providers = ["github", "google"];
  for (const [agent, count] of Object.entries(AGENTS)) {
    out[agent] = Array.from({ length: count }, (_, i) => ({
      id: seedUuid(`connection:${agent}:${i}`),
      agent_id: agent,
      oauth_token_id: seedUuid(`token:${agent}:${i}`),
      provider_id: cycle(providers, i),
      provider_account_label: `${agent.replace("-agent", "")}-bot@example.com`,
      scopes: i % 2 === 0 ? ["repo", "read:org"] : ["openid", "email"],
      expires_at: iso(SEED_EPOCH_MS + 365 * 86_400_000),
      created_by: "seed",
      created_at: iso(SEED_EPOCH_MS - 7 * 86_400_000 + i * 60_000),
    }));
  }
  return out;
}
