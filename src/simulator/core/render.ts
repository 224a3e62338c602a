// Serialized answers, cached beside the transport: a deployment's JSON is kept until the store's
// version of that deployment moves, a list page until any deployment changes. The store holds the
// data; this is only a cache of its text, so lists of 10,000 deployments stay cheap to serve.
import type { DeploymentRecord } from "./model.js";
import type { Store } from "./store.js";

/** At most this many cached list answers (a distinct id filter per request must not grow memory without end). */
const MAX_PAGES = 1000;

export class Renderer {
  private deployments = new Map<string, { version: number; text: string }>();
  private pages = new Map<string, { version: number; bytes: Uint8Array }>();
  private encoder = new TextEncoder();

  constructor(private readonly store: Store) {}

  /** A deployment as the API shows it: with its tier in source_config.deployment_type. */
  deploymentJson(record: DeploymentRecord): string {
    const version = this.store.versionOf(record);
    const id = record.deployment.id;
    const hit = this.deployments.get(id);
    if (hit && hit.version === version) return hit.text;
    const d = record.deployment;
    const text = JSON.stringify({ ...d, source_config: { ...d.source_config, deployment_type: record.deployment_type } });
    this.deployments.set(id, { version, text });
    return text;
  }

  /** The JSON answer of a deployment list as UTF-8, built once per query while no deployment changes (clients poll lists). */
  deploymentPageJson(key: string, build: () => string): Uint8Array {
    const version = this.store.version;
    const hit = this.pages.get(key);
    if (hit && hit.version === version) return hit.bytes;
    if (this.pages.size >= MAX_PAGES) this.pages.clear();
    const bytes = this.encoder.encode(build());
    this.pages.set(key, { version, bytes });
    return bytes;
  }

  clear(): void {
    this.deployments.clear();
    this.pages.clear();
  }
}
