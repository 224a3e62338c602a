// Serialized answers, cached beside the transport: a deployment's JSON is kept until the store's
// version of that deployment moves, a list page until any deployment changes. The store holds the
// data; this is only a cache of its text, so lists of 10,000 deployments stay cheap to serve. Both
// caches are bounded by bytes and entries and evict the least recently used answer.
import { BoundedCache, type CacheBounds, sizeOfText } from "./bounded-cache.js";
import type { DeploymentRecord } from "./model.js";
import type { Store } from "./store/index.js";

/** Deployment JSON: room for every deployment of a large seed (10,000 take about 25 MB as text). */
const DEPLOYMENT_JSON_BOUNDS: Readonly<CacheBounds> = Object.freeze({ maxBytes: 64 * 1024 * 1024, maxEntries: 100_000 });
/** List answers: a distinct query per request (an id filter, an offset) must not grow memory without end. */
export const LIST_PAGE_BOUNDS: Readonly<CacheBounds> = Object.freeze({ maxBytes: 16 * 1024 * 1024, maxEntries: 1000 });

interface CachedPage {
  version: number;
  bytes: Uint8Array;
  /** The query's key, counted in the page's size (an id filter can be long). */
  key: string;
}

/** The JSON text of answers, cached by the store's versions (a cache of serialized answers, not a renderer of anything). */
export class JsonCache {
  readonly deployments = new BoundedCache<string, { version: number; text: string }>(DEPLOYMENT_JSON_BOUNDS, (e) => sizeOfText(e.text));
  readonly pages = new BoundedCache<string, CachedPage>(LIST_PAGE_BOUNDS, (e) => sizeOfText(e.bytes) + sizeOfText(e.key));
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
    const bytes = this.encoder.encode(build());
    this.pages.set(key, { version, bytes, key });
    return bytes;
  }
}
