// One seed for the mock and the simulator: the document's examples that Prism answers (static mode,
// `npm start`) are written from the simulator's seed, so both show the same deployments, revisions,
// listeners, providers, connections and repositories, with the same ids, names, timestamps and order.
// Each example's value is the simulator's own answer to a GET, taken on a simulator whose clock is
// stopped at EXAMPLES_NOW (the seed's in-progress revisions take their times from the clock).
//
//   node tools/build/seed-examples.ts           writes the example files (npm run build runs it first)
//   node tools/build/seed-examples.ts --check   exits 1 when a file differs from what it would write
//
// The summaries and descriptions are this table's: they say what the seed holds. test/mock/same-seed.test.ts
// checks the files against the seed (the drift check) and asks the mock and the simulator the same GETs.
import { readFile, writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { stringify } from "yaml";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
export const EXAMPLES_DIR = join(root, "openapi", "components", "examples");

/** The moment the examples show: after every seeded creation, so in-progress revisions read as "now". */
export const EXAMPLES_NOW = "2026-01-05T15:00:00.000Z";
/** The key the examples are read with (the simulator takes any key by default). */
const KEY = "dev";

/** What the generator needs of the simulator: the core's createSimulator (src/ in tests, dist/ in the build). */
export type CreateSimulator = (options: { now: () => number; stepSeconds: number }) => { fetch: (input: string, init?: RequestInit) => Promise<Response> };

interface ExampleSpec {
  summary: string;
  description?: string;
  /** The GET whose answer is the value, and what to take of it. */
  value: (get: (path: string) => Promise<any>) => Promise<unknown>;
}

/** A revision of the default seed with this status (the first, newest deployment first). */
async function revisionWithStatus(get: (path: string) => Promise<any>, status: string): Promise<any> {
  const deployments = (await get("/v2/deployments?limit=100")).resources as { id: string }[];
  for (const deployment of deployments) {
    const revisions = (await get(`/v2/deployments/${deployment.id}/revisions?limit=100`)).resources as { status: string }[];
    const found = revisions.find((r) => r.status === status);
    if (found) return found;
  }
  throw new Error(`the seed has no revision ${status}`);
}

async function deploymentOfSource(get: (path: string) => Promise<any>, source: string): Promise<any> {
  const page = (await get("/v2/deployments?limit=4")).resources as { source: string }[];
  const found = page.find((d) => d.source === source);
  if (!found) throw new Error(`the seed's first four deployments have no ${source}`);
  return found;
}

const FIRST = "/v2/deployments?limit=4";

/** Every example written from the seed, by its file name (openapi/components/examples/<name>.yaml). */
export const SEED_EXAMPLES: Record<string, ExampleSpec> = {
  DeploymentPageFirst: {
    summary: "The first page, newest first",
    description:
      "The first four deployments of the simulator's seed (`?limit=4`), one of each source. The simulator seeds more, older ones after them; the mock holds these four.",
    value: (get) => get(FIRST),
  },
  DeploymentScmHost: { summary: "A deployment built from a repository (scm_host)", value: (get) => deploymentOfSource(get, "scm_host") },
  DeploymentInternalDocker: { summary: "A deployment of an image in the service's registry", value: (get) => deploymentOfSource(get, "internal_docker") },
  DeploymentInternalSource: { summary: "A deployment of an uploaded source archive", value: (get) => deploymentOfSource(get, "internal_source") },
  DeploymentExternalDocker: {
    summary: "A self-hosted deployment on a listener",
    value: (get) => deploymentOfSource(get, "external_docker"),
  },
  RevisionPageFirst: {
    summary: "The revisions of a deployment, newest first",
    description: "The revisions of the newest deployment (support-agent): the serving one, an interrupted one and the first.",
    value: async (get) => get(`/v2/deployments/${(await get(FIRST)).resources[0].id}/revisions`),
  },
  RevisionDeployed: {
    summary: "The revision that is serving",
    value: async (get) => get(`/v2/deployments/${(await get(FIRST)).resources[0].id}/revisions/${(await get(FIRST)).resources[0].active_revision_id}`),
  },
  RevisionBuilding: { summary: "A revision being built", value: (get) => revisionWithStatus(get, "BUILDING") },
  RevisionBuildFailed: { summary: "A revision whose build failed", value: (get) => revisionWithStatus(get, "BUILD_FAILED") },
  RevisionDeployFailed: { summary: "A revision whose deploy failed", value: (get) => revisionWithStatus(get, "DEPLOY_FAILED") },
  ListenerPageFirst: { summary: "The listeners, newest first", value: (get) => get("/v2/listeners") },
  ListenerProdCluster: {
    summary: "A production Kubernetes cluster",
    value: async (get) => (await get("/v2/listeners")).resources.find((l: { compute_id: string }) => l.compute_id === "prod-eu-west"),
  },
  OAuthProviderList: { summary: "The organization's providers", value: (get) => get("/v2/auth/providers") },
  OAuthProviderGithub: { summary: "A provider without PKCE", value: (get) => get("/v2/auth/providers/github") },
  OAuthProviderGooglePkce: { summary: "A provider that uses PKCE", value: (get) => get("/v2/auth/providers/google") },
  AgentConnectionListSupport: { summary: "The connections of an agent", value: (get) => get("/v2/auth/agents/support-agent/connections") },
  RepositoryListScm: {
    summary: "Repositories of a source-code host integration",
    value: async (get) => get(`/v1/integrations/scm/${(await get(FIRST)).resources[0].source_config.integration_id}/repos`),
  },
  RepositoryListForge: {
    summary: "Repositories of a forge integration",
    value: async (get) => {
      // The forge integration is the one the scm integration is not: the seed's two.
      const all = (await get("/v2/deployments?limit=100")).resources as { source_config: { integration_id?: string; repo_url?: string } }[];
      const forge = all.find((d) => d.source_config.repo_url?.includes("forge."))?.source_config.integration_id;
      if (!forge) throw new Error("the seed has no forge deployment");
      return get(`/v1/integrations/forge/scm/${forge}/repos`);
    },
  },
};

/** The text of each example file, written from a simulator made with `createSimulator`. */
export async function seedExampleFiles(createSimulator: CreateSimulator): Promise<Map<string, string>> {
  const now = Date.parse(EXAMPLES_NOW);
  // A stopped clock: nothing moves while the examples are read.
  const sim = createSimulator({ now: () => now, stepSeconds: 2 });
  const get = async (path: string) => {
    const response = await sim.fetch(`https://sim.example.test${path}`, { headers: { "x-api-key": KEY } });
    if (!response.ok) throw new Error(`GET ${path}: ${response.status} ${await response.text()}`);
    return response.json();
  };
  const files = new Map<string, string>();
  for (const [name, spec] of Object.entries(SEED_EXAMPLES)) {
    const value = await spec.value(get);
    const example = { summary: spec.summary, ...(spec.description ? { description: spec.description } : {}), value };
    const header = `# Written by tools/build/seed-examples.ts from the simulator's seed (npm run build); do not edit.\n`;
    // Strings double-quoted: a YAML 1.1 reader would take an unquoted timestamp for a date.
    files.set(join(EXAMPLES_DIR, `${name}.yaml`), header + stringify(example, { defaultStringType: "QUOTE_DOUBLE", defaultKeyType: "PLAIN", lineWidth: 0 }));
  }
  return files;
}

/** The example files that differ from what the seed gives (their paths). */
export async function staleExampleFiles(createSimulator: CreateSimulator): Promise<string[]> {
  const stale: string[] = [];
  for (const [file, text] of await seedExampleFiles(createSimulator)) {
    const current = await readFile(file, "utf8").catch(() => "");
    if (current !== text) stale.push(file);
  }
  return stale;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { importCompiled } = await import("./compile-if-stale.ts");
  const { createSimulator } = await importCompiled<{ createSimulator: CreateSimulator }>("dist/simulator/core/index.js");
  if (process.argv.includes("--check")) {
    const stale = await staleExampleFiles(createSimulator);
    if (stale.length > 0) {
      console.error(`examples not written from the seed: ${stale.join(", ")} (run npm run build)`);
      process.exit(1);
    }
  } else {
    for (const [file, text] of await seedExampleFiles(createSimulator)) await writeFile(file, text);
  }
}
