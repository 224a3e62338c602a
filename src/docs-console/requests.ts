// What a "Try it" console knows of an operation, read from the bundled document (the one the
// simulator core carries), and the request a reader filled in written as curl and as a client call
// (by code-samples.ts, which writes the docs page's own samples too).
import { SEED_IDS } from "../simulator/core/index.js";
import { deref, listOperations, type OpenApiDocument } from "../shared/walk.js";
import { clientCall, clientImport, clientSetup, curlCommand, headerArgument, keyHeaderArgument, shellQuote, unwrapped } from "./code-samples.js";

// The document is JSON read by its shape; one alias keeps that in one place.
// biome-ignore lint/suspicious/noExplicitAny: JSON from the document, read by shape
type Json = any;

export interface ParameterSpec {
  name: string;
  in: "path" | "query" | "header";
  required: boolean;
  description: string;
  /** The value the input starts with. */
  initial: string;
  /** Values offered in the input's list (enum values, the seed's ids). */
  suggestions: string[];
  placeholder: string;
}

/** An operation as the console shows it: its form's inputs, an example body, the statuses it may answer. */
export interface ConsoleOperation {
  operationId: string;
  method: string;
  path: string;
  summary: string;
  tag: string;
  parameters: ParameterSpec[];
  /** The first request body example, as the editor shows it; undefined when the operation has no body. */
  body: string | undefined;
  statuses: string[];
}

export interface FilledRequest {
  spec: ConsoleOperation;
  values: Record<string, string>;
  body: string | undefined;
}

/** The headers of the security schemes: the key is required, the tenant optional. */
function securityHeaders(document: OpenApiDocument): ParameterSpec[] {
  const schemes = Object.values<Json>(document.components.securitySchemes ?? {}).filter((s) => s.type === "apiKey" && s.in === "header");
  return schemes.map((scheme, index) => ({
    name: scheme.name,
    in: "header" as const,
    required: index === 0,
    description: String(scheme.description ?? "").trim(),
    initial: index === 0 ? "my-api-key" : "",
    suggestions: /tenant/i.test(scheme.name) ? [SEED_IDS.tenant_id, SEED_IDS.other_tenant_id] : [],
    placeholder: index === 0 ? "your API key" : "optional",
  }));
}

/** The seed's ids a path parameter may take, the first being the one the document's examples use. */
function seedIdsFor(name: string, path: string): string[] {
  switch (name) {
    case "deployment_id":
      return [SEED_IDS.deployment_id, SEED_IDS.other_tenant_deployment_id];
    case "revision_id":
      return [SEED_IDS.revision_id];
    case "listener_id":
      return [SEED_IDS.listener_id];
    case "provider_id":
      return [SEED_IDS.provider_id, SEED_IDS.pkce_provider_id];
    case "agent_id":
      return [SEED_IDS.agent_id, SEED_IDS.agent_without_connections_id];
    case "integration_id":
      return path.includes("/forge/")
        ? [SEED_IDS.forge_integration_id, SEED_IDS.scm_integration_id]
        : [SEED_IDS.scm_integration_id, SEED_IDS.forge_integration_id];
    default:
      return [];
  }
}

function enumValues(document: OpenApiDocument, schema: Json): string[] {
  const s = deref(document, schema) ?? {};
  const items = s.type === "array" ? deref(document, s.items) : s;
  const values = items?.enum ?? (items?.type === "boolean" ? [true, false] : []);
  return values.filter((v: unknown) => v !== null).map(String);
}

function firstExample(document: OpenApiDocument, media: Json): unknown {
  if (!media) return undefined;
  if (media.example !== undefined) return media.example;
  const first = Object.values<Json>(media.examples ?? {})[0];
  return first ? deref(document, first).value : undefined;
}

export function operationSpecs(document: OpenApiDocument): ConsoleOperation[] {
  const headers = securityHeaders(document);
  return listOperations(document).map((entry) => {
    const parameters: ParameterSpec[] = entry.parameters
      .filter((p: Json) => p.in === "path" || p.in === "query" || p.in === "header")
      .map((p: Json) => {
        const schema = deref(document, p.schema) ?? {};
        const ids = p.in === "path" ? seedIdsFor(p.name, entry.path) : [];
        const example = p.example ?? Object.values<Json>(p.examples ?? {})[0]?.value;
        const initial = p.in === "path" ? String(example ?? ids[0] ?? "") : example !== undefined && p.required ? String(example) : "";
        const hint = schema.default !== undefined ? `default ${schema.default}` : schema.type === "array" ? "comma-separated" : "optional";
        return {
          name: p.name,
          in: p.in,
          required: Boolean(p.required),
          description: String(p.description ?? "").trim(),
          initial,
          suggestions: [...new Set([...ids, ...enumValues(document, p.schema)])],
          placeholder: p.required ? "" : hint,
        };
      });
    const media = entry.operation.requestBody ? deref(document, entry.operation.requestBody)?.content?.["application/json"] : undefined;
    const example = firstExample(document, media);
    return {
      operationId: entry.operationId,
      method: entry.method.toUpperCase(),
      path: entry.path,
      summary: String(entry.operation.summary ?? entry.operationId),
      tag: String(entry.operation.tags?.[0] ?? ""),
      parameters: [...parameters, ...headers],
      body: media ? JSON.stringify(example ?? {}, null, 2) : undefined,
      statuses: Object.keys(entry.operation.responses ?? {}),
    };
  });
}

/** The path with its parameters filled in (each value percent-encoded inside its segment) and the query. */
export function targetOf({ spec, values }: FilledRequest): string {
  const path = spec.path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(values[name] ?? ""));
  const query = new URLSearchParams();
  for (const p of spec.parameters) if (p.in === "query" && (values[p.name] ?? "") !== "") query.append(p.name, values[p.name]!);
  const search = query.toString();
  return search ? `${path}?${search}` : path;
}

export function headersOf({ spec, values, body }: FilledRequest): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const p of spec.parameters) if (p.in === "header" && (values[p.name] ?? "") !== "") headers[p.name] = values[p.name]!;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  return headers;
}

/** The body as one line when it is JSON, else as typed. */
function compactBody(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body));
  } catch {
    return body;
  }
}

/** The same request as a curl command against `baseUrl` (the key header reads $DMS_API_KEY when it is the placeholder). */
export function asCurl(request: FilledRequest, baseUrl: string): string {
  const headers = Object.entries(headersOf(request)).map(([name, value]) =>
    /api-key/i.test(name) && value === "my-api-key" ? keyHeaderArgument(name) : headerArgument(name, value),
  );
  const body = request.body === undefined ? undefined : compactBody(request.body);
  return curlCommand({ method: request.spec.method, headers, body, url: shellQuote(`${baseUrl}${targetOf(request)}`) });
}

/** The same request as a call of the package's typed client. */
export function asClientCall(request: FilledRequest, baseUrl: string): string {
  const { spec, values } = request;
  const group = (where: ParameterSpec["in"]) =>
    Object.fromEntries(spec.parameters.filter((p) => p.in === where && (values[p.name] ?? "") !== "").map((p) => [p.name, values[p.name]]));
  let body: unknown;
  if (request.body !== undefined) {
    try {
      body = JSON.parse(request.body);
    } catch {
      body = request.body;
    }
  }
  const tenant = spec.parameters.find((p) => p.in === "header" && /tenant/i.test(p.name) && (values[p.name] ?? "") !== "");
  const call = clientCall(spec.method, spec.path, { path: group("path"), query: group("query"), body });
  return [
    clientImport(["createDeploymentsClient", "unwrap"]),
    "",
    clientSetup({ baseUrl, apiKey: values["X-Api-Key"] || "my-api-key", tenantId: tenant ? values[tenant.name] : undefined }),
    unwrapped("result", call),
  ].join("\n");
}
