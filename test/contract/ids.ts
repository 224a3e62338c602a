// The ids a contract run puts in paths: the target's own, else found through its list endpoints,
// else a value from the document's examples (enough for the mock, which answers any valid id).
import { validParameterValue, listOperations } from "./cases.js";
import type { Schema } from "./schemas.js";

export type IdName = "deployment_id" | "revision_id" | "listener_id" | "provider_id" | "agent_id" | "scm_integration_id" | "forge_integration_id";

/** The id a path parameter takes: integration_id means a different integration under /forge/. */
export function idKeyFor(path: string, parameter: string): IdName {
  if (parameter === "integration_id") return path.includes("/forge/") ? "forge_integration_id" : "scm_integration_id";
  return parameter as IdName;
}

interface Target {
  baseUrl: string;
  apiKey: string;
  tenantId?: string;
  ids?: Partial<Record<IdName, string>>;
}

export async function discoverIds(document: Schema, target: Target): Promise<Record<IdName, string>> {
  const get = async (path: string): Promise<any> => {
    const headers: Record<string, string> = { accept: "application/json", "x-api-key": target.apiKey };
    if (target.tenantId) headers["x-tenant-id"] = target.tenantId;
    try {
      const response = await fetch(target.baseUrl.replace(/\/+$/, "") + path, { headers });
      return response.ok ? await response.json() : undefined;
    } catch {
      return undefined;
    }
  };
  const found: Partial<Record<IdName, string>> = { ...target.ids };
  if (!found.deployment_id || !found.scm_integration_id || !found.forge_integration_id) {
    const deployment = (await get("/v2/deployments?limit=1"))?.resources?.[0];
    found.deployment_id ??= deployment?.id;
    found.revision_id ??= deployment?.latest_revision_id ?? undefined;
    found.scm_integration_id ??= deployment?.source_config?.integration_id ?? undefined;
    found.forge_integration_id ??= deployment?.source_config?.integration_id ?? undefined;
  }
  if (!found.revision_id && found.deployment_id) {
    found.revision_id = (await get(`/v2/deployments/${encodeURIComponent(found.deployment_id)}/revisions?limit=1`))?.resources?.[0]?.id;
  }
  found.listener_id ??= (await get("/v2/listeners?limit=1"))?.resources?.[0]?.id;
  if (!found.provider_id) {
    const providers = await get("/v2/auth/providers");
    found.provider_id = (Array.isArray(providers) ? providers : providers?.resources)?.[0]?.provider_id;
  }
  // Whatever is still missing: the document's examples, else a value the parameter's schema accepts.
  const ids = {} as Record<IdName, string>;
  for (const { path, parameters } of listOperations(document)) {
    for (const param of parameters.filter((p) => p.in === "path")) {
      const key = idKeyFor(path, param.name);
      ids[key] = found[key] ?? ids[key] ?? exampleValueNamed(document, param.name) ?? String(validParameterValue(document, param));
    }
  }
  return ids;
}

/** The first string value of a property with this name anywhere in the document's examples. */
function exampleValueNamed(document: Schema, name: string): string | undefined {
  const search = (value: unknown): string | undefined => {
    if (Array.isArray(value)) {
      for (const item of value) {
        const hit = search(item);
        if (hit) return hit;
      }
    } else if (value && typeof value === "object") {
      for (const [key, inner] of Object.entries(value)) {
        if (key === name && typeof inner === "string") return inner;
        const hit = search(inner);
        if (hit) return hit;
      }
    }
    return undefined;
  };
  return search(Object.values<Schema>(document.components?.examples ?? {}).map((e) => e.value));
}
