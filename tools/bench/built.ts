// The modules of dist/ the benches run, imported by path and typed by what the benches use of them.
// Their types are written here rather than taken from src/: the tools' own check (erasable syntax
// only) would otherwise walk src/, which tsc compiles and which may use syntax Node cannot strip.
import { pathToFileURL } from "node:url";

/** dist/simulator/core/index.js */
export interface SimulatorCore {
  createSimulator(): { ready: Promise<unknown>; fetch(request: Request): Promise<Response> };
  SEED_IDS: Record<string, string>;
}

/** dist/index.js: the typed client, as far as the client bench calls it. */
export interface ClientEntry {
  createDeploymentsClient(options: { baseUrl: string; apiKey: string; tenantId?: string; fetch?: (request: Request) => Promise<Response> }): BuiltClient;
}

export interface BuiltClient {
  GET(path: "/v2/deployments/{deployment_id}", init: { params: { path: { deployment_id: string } } }): Promise<{ data?: unknown; error?: unknown }>;
}

/** Imports a module of dist/ by its path from the repository root (`dist/index.js`). */
export function importBuilt<Module>(path: string): Promise<Module> {
  return import(pathToFileURL(new URL(`../../${path}`, import.meta.url).pathname).href);
}
