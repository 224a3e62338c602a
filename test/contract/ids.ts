// The ids a contract run puts in paths: the target's own, else found through its list endpoints,
// else a value from the document's examples (enough for the mock, which answers any valid id).
import { operationsOf, securityOf, validParameterValue } from "./cases.js";
import type { Schema } from "./schemas.js";

export type IdName =
  | "deployment_id"
  | "revision_id"
  | "listener_id"
  | "provider_id"
  | "agent_id"
  | "scm_integration_id"
  | "forge_integration_id"
  // A deployment of each source: a patch example goes to one whose source takes its fields.
  | `deployment_id:${string}`;

/** The id a path parameter takes: integration_id means a different integration under /forge/. */
export function idKeyFor(path: string, parameter: string): IdName {
  if (parameter === "integration_id") return path.includes("/forge/") ? "forge_integration_id" : "scm_integration_id";
  return parameter as IdName;
}

interface Target {
  apiKey: string;
  tenantId?: string;
  ids?: Partial<Record<IdName, string>>;
}

const ORIGIN = "http://contract.test";

export async function discoverIds(
  document: Schema,
  target: Target & { baseUrl?: string },
  send: (request: Request) => Promise<Response>,
): Promise<Record<IdName, string>> {
  const base = (target.baseUrl ?? ORIGIN).replace(/\/+$/, "");
  // Credentials go where the document's security schemes say (the first operation's, as every one needs the same key).
  const security = securityOf(document, operationsOf(document)[0]?.operation ?? {});
  const get = async (path: string): Promise<any> => {
    const url = new URL(base + path);
    const headers = new Headers({ accept: "application/json" });
    for (const credential of security.required) {
      if (credential.in === "query") url.searchParams.set(credential.name, target.apiKey);
      else headers.set(credential.name, target.apiKey);
    }
    if (target.tenantId) for (const credential of security.optional) if (credential.in === "header") headers.set(credential.name, target.tenantId);
    try {
      const response = await send(new Request(url, { headers }));
      return response.ok ? await response.json() : undefined;
    } catch {
      return undefined;
    }
  };
  const found: Partial<Record<IdName, string>> = { ...target.ids };
  const deployments: any[] = (await get("/v2/deployments?limit=100"))?.resources ?? [];
  const deployment = deployments[0];
  found.deployment_id ??= deployment?.id;
  for (const d of deployments) if (typeof d?.source === "string" && typeof d?.id === "string") found[`deployment_id:${d.source}`] ??= d.id;
  if (found.deployment_id === deployment?.id) found.revision_id ??= deployment?.latest_revision_id ?? undefined;
  if (!found.revision_id && found.deployment_id) {
    found.revision_id = (await get(`/v2/deployments/${encodeURIComponent(found.deployment_id)}/revisions?limit=1`))?.resources?.[0]?.id;
  }
  // Deployments name their integration, but not whether it is an scm or a forge one: each
  // integration path gets the first named integration it answers 2xx for.
  const integrations = [...new Set(deployments.map((d) => d?.source_config?.integration_id).filter((id): id is string => typeof id === "string"))];
  for (const path of Object.keys(document.paths ?? {}).filter((p) => p.includes("{integration_id}"))) {
    const key = idKeyFor(path, "integration_id");
    if (found[key]) continue;
    for (const id of integrations) {
      if (await get(path.replace("{integration_id}", encodeURIComponent(id)))) {
        found[key] = id;
        break;
      }
    }
  }
  found.listener_id ??= (await get("/v2/listeners?limit=1"))?.resources?.[0]?.id;
  if (!found.provider_id) {
    const providers = await get("/v2/auth/providers");
    found.provider_id = (Array.isArray(providers) ? providers : providers?.resources)?.[0]?.provider_id;
  }
  // Whatever is still missing: the document's examples, else a value the parameter's schema accepts.
  const ids = {} as Record<IdName, string>;
  for (const { path, parameters } of operationsOf(document)) {
    for (const param of parameters.filter((p) => p.in === "path")) {
      const key = idKeyFor(path, param.name);
      ids[key] = found[key] ?? ids[key] ?? parameterExample(param) ?? exampleValueNamed(document, param.name) ?? String(validParameterValue(document, param));
    }
  }
  for (const [key, value] of Object.entries(found)) if (key.startsWith("deployment_id:") && value) ids[key as IdName] = value;
  return ids;
}

/** The parameter's own example, if the document gives one. */
function parameterExample(param: Schema): string | undefined {
  const value = param.example ?? Object.values<Schema>(param.examples ?? {})[0]?.value ?? param.schema?.examples?.[0] ?? param.schema?.example;
  return typeof value === "string" ? value : undefined;
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
