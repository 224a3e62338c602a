// Code samples for every operation of the docs page (Redoc's `x-codeSamples`): curl, the TypeScript
// client and, where one exists, the `dms` command. This module picks each operation's example
// request from the document: the base URL from `servers`, the credential header from the security
// schemes, path ids from the examples, the body from the first request body example; the samples
// are written by src/docs-console/code-samples.ts, which writes the "Try it" console's too. The
// build's docs step feeds Redoc a copy of the bundle with the samples added, so
// generated/openapi.json stays the hand-written document.
//
//   node tools/docs/code-samples.ts [--out FILE]   the bundle with samples (stdout without --out)
import { deref, type DocumentNode, listOperations, type OpenApiDocument, type OperationEntry } from "../../src/shared/walk.ts";
import {
  API_KEY_VARIABLE,
  clientCall,
  clientImport,
  clientSetup,
  curlCommand,
  dmsCommand,
  headerArgument,
  keyHeaderArgument,
  unwrapped,
} from "../../src/docs-console/code-samples.ts";

type Json = DocumentNode;

/** One entry of an operation's `x-codeSamples`. */
export interface CodeSample {
  lang: "Shell" | "TypeScript";
  label: "curl" | "TypeScript" | "dms";
  source: string;
}

/** The request a sample sends: path ids, query parameters, the first body example. */
interface ExampleRequest {
  path: Record<string, string>;
  query: Record<string, unknown>;
  body: unknown;
}

/** The `dms` subcommand that does what an operation does, and how its arguments are built. */
const DMS_COMMANDS: Record<string, (request: ExampleRequest) => string[] | undefined> = {
  listDeployments: () => ["deployments"],
  listRevisions: ({ path }) => ["revisions", path.deployment_id!],
  getRevision: ({ path }) => ["wait", path.deployment_id!, path.revision_id!],
  patchDeployment: ({ path, body }) => {
    const flags = deployFlags(body);
    return flags ? ["deploy", path.deployment_id!, ...flags] : undefined;
  },
};

// The fields of a deployment patch that `dms deploy` has a flag for.
const DEPLOY_FLAGS: Record<string, string> = {
  repo_ref: "--ref",
  graph_config_path: "--graph-config-path",
  image_uri: "--image-uri",
  source_tarball_path: "--source-tarball-path",
};

/** `dms deploy` flags for a patch body, or undefined when the patch holds a field no flag sends. */
function deployFlags(body: unknown): string[] | undefined {
  if (!body || typeof body !== "object") return undefined;
  const flags: string[] = [];
  for (const [key, value] of Object.entries(body)) {
    if (key === "source_revision_config" && value && typeof value === "object") {
      for (const [field, v] of Object.entries(value)) {
        if (!DEPLOY_FLAGS[field] || typeof v !== "string") return undefined;
        flags.push(DEPLOY_FLAGS[field]!, v);
      }
    } else if (key === "revision_source" && typeof value === "string") flags.push("--revision-source", value);
    else if (key === "secrets" && Array.isArray(value)) for (const secret of value) flags.push("--secret", `${secret.name}=${secret.value}`);
    else return undefined;
  }
  return flags.length > 0 ? flags : undefined;
}

/** The bundle (generated/openapi.json) with `x-codeSamples` on every operation; the input is not changed. */
export function withCodeSamples<T extends OpenApiDocument>(bundle: T): T {
  const document = structuredClone(bundle);
  const servers = document.servers as { url?: string }[] | undefined;
  const baseUrl = String(servers?.[0]?.url ?? "http://127.0.0.1:4010").replace(/\/+$/, "");
  const ids = exampleIds(document);
  const revisionFields = document.components?.schemas?.DeploymentPatch?.["x-revision-fields"] ?? [];
  for (const entry of listOperations(document)) {
    const request = exampleRequest(document, entry, ids);
    const samples: CodeSample[] = [
      { lang: "Shell", label: "curl", source: curlSample(document, entry, request, baseUrl) },
      { lang: "TypeScript", label: "TypeScript", source: typeScriptSample(entry, request, baseUrl, revisionFields) },
    ];
    const dms = DMS_COMMANDS[entry.operationId]?.(request);
    if (dms) samples.push({ lang: "Shell", label: "dms", source: dmsCommand(dms, baseUrl) });
    entry.operation["x-codeSamples"] = samples;
  }
  return document;
}

/**
 * The id each path parameter takes in the samples, from the document's own examples: the first
 * item of the example list of the collection the id belongs to (`/v2/deployments` for
 * `{deployment_id}`), preferring a field named like the parameter (`provider_id`) to `id`; else a
 * field of that name (or ending in `_<name>`) in the operation's own response example.
 */
export function exampleIds(document: OpenApiDocument): Map<string, string> {
  const byPath = new Map(listOperations(document).map((e) => [`${e.method} ${e.path}`, e]));
  const ids = new Map<string, string>();
  for (const entry of listOperations(document)) {
    for (const param of entry.parameters.filter((p: Json) => p.in === "path")) {
      const key = `${entry.path} ${param.name}`;
      const own = param.example ?? Object.values<Json>(param.examples ?? {})[0]?.value;
      if (own !== undefined) {
        ids.set(key, String(own));
        continue;
      }
      const collection = entry.path.slice(0, entry.path.indexOf(`/{${param.name}}`));
      const list = byPath.get(`get ${collection}`);
      const items = list ? asItems(successExample(document, list.operation)) : [];
      const item = items[0];
      const value = item?.[param.name] ?? item?.id ?? findField(successExample(document, entry.operation), param.name);
      if (value !== undefined) ids.set(key, String(value));
    }
  }
  return ids;
}

function asItems(example: unknown): Json[] {
  if (Array.isArray(example)) return example;
  if (example && typeof example === "object") {
    const list = Object.values(example).find(Array.isArray);
    if (list) return list;
  }
  return [];
}

function findField(value: unknown, name: string): string | undefined {
  if (Array.isArray(value)) {
    for (const item of value) {
      const hit = findField(item, name);
      if (hit !== undefined) return hit;
    }
  } else if (value && typeof value === "object") {
    for (const [key, inner] of Object.entries(value)) if ((key === name || key.endsWith(`_${name}`)) && typeof inner === "string") return inner;
    for (const inner of Object.values(value)) {
      const hit = findField(inner, name);
      if (hit !== undefined) return hit;
    }
  }
  return undefined;
}

/** The first example of the operation's success response (JSON). */
function successExample(document: OpenApiDocument, operation: Json): unknown {
  const status = Object.keys(operation.responses ?? {}).find((s) => /^2/.test(s));
  const media = status ? deref(document, operation.responses[status])?.content?.["application/json"] : undefined;
  return firstExample(document, media);
}

function firstExample(document: OpenApiDocument, media: Json): unknown {
  if (!media) return undefined;
  if (media.example !== undefined) return media.example;
  const first = Object.values<Json>(media.examples ?? {})[0];
  return first ? deref(document, first).value : undefined;
}

/** The request a sample sends: path ids, required query parameters, the first body example. */
function exampleRequest(document: OpenApiDocument, entry: OperationEntry, ids: Map<string, string>): ExampleRequest {
  const path: Record<string, string> = {};
  const query: Record<string, unknown> = {};
  for (const param of entry.parameters) {
    if (param.in === "path") path[param.name] = ids.get(`${entry.path} ${param.name}`) ?? `<${param.name}>`;
    else if (param.in === "query" && (param.required || param.example !== undefined))
      query[param.name] = param.example ?? param.schema?.default ?? param.schema?.examples?.[0];
  }
  const media = entry.operation.requestBody ? deref(document, entry.operation.requestBody)?.content?.["application/json"] : undefined;
  const body = firstExample(document, media);
  return { path, query, body };
}

/** The header (or query) that carries the key every security alternative of the operation needs. */
function keyCredential(document: OpenApiDocument, operation: Json): Json {
  const requirements: Record<string, unknown>[] = operation.security ?? document.security ?? [];
  if (requirements.length === 0 || requirements.some((r) => Object.keys(r).length === 0)) return undefined;
  const first = Object.keys(requirements[0]!).find((name) => requirements.every((r) => name in r));
  return first ? deref(document, document.components?.securitySchemes?.[first]) : undefined;
}

function urlOf(baseUrl: string, entry: OperationEntry, request: ExampleRequest): string {
  const path = entry.path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(request.path[name]!));
  const search = new URLSearchParams(Object.entries(request.query).map(([k, v]) => [k, Array.isArray(v) ? v.join(",") : String(v)])).toString();
  return `${baseUrl}${path}${search ? `?${search}` : ""}`;
}

function curlSample(document: OpenApiDocument, entry: OperationEntry, request: ExampleRequest, baseUrl: string): string {
  const key = keyCredential(document, entry.operation);
  const headers: string[] = [];
  if (key?.in === "header") headers.push(keyHeaderArgument(key.name));
  if (request.body !== undefined) headers.push(headerArgument("Content-Type", "application/json"));
  let url = urlOf(baseUrl, entry, request);
  if (key?.in === "query") url += `${url.includes("?") ? "&" : "?"}${key.name}=${API_KEY_VARIABLE}`;
  // In double quotes: a key sent in the query is read from the shell's variable.
  const body = request.body === undefined ? undefined : JSON.stringify(request.body);
  return curlCommand({ method: entry.method.toUpperCase(), headers, body, url: `"${url}"` });
}

/** A variable name for the result: the operationId without its verb (`listOAuthProviders` -> `oauthProviders`). */
function resultName(operationId: string): string {
  const noun = operationId.replace(/^(list|get|patch|put|post|delete|update|create)(?=[A-Z])/, "") || "result";
  return noun.replace(/^[A-Z]+(?=[A-Z][a-z]|$)|^[A-Z]/, (lead) => lead.toLowerCase());
}

function typeScriptSample(entry: OperationEntry, request: ExampleRequest, baseUrl: string, revisionFields: string[]): string {
  const call = clientCall(entry.method.toUpperCase(), entry.path, request);
  const name = resultName(entry.operationId);
  // A deployment patch that creates a revision goes on: follow the revision ("Get a revision") to its end.
  const follows = entry.operationId === "patchDeployment" && createsRevision(request.body, revisionFields);
  const lines = [
    clientImport(["createDeploymentsClient", "unwrap", ...(follows ? ["waitForRevision"] : [])]),
    ``,
    clientSetup({ baseUrl, apiKey: "my-api-key" }),
    ``,
    unwrapped(name, call),
  ];
  if (!follows) return [...lines, `console.log(${name});`].join("\n");
  return [
    ...lines,
    `// latest_revision_id names the revision this patch created; poll it until it ends.`,
    `if (${name}.latest_revision_id) {`,
    `  const revision = await waitForRevision(client, ${name}.id, ${name}.latest_revision_id);`,
    `  console.log(revision.status); // DEPLOYED, or the state it failed in`,
    `}`,
  ].join("\n");
}

// Whether a patch body creates a revision: one of the document's x-revision-fields present and not null.
function createsRevision(body: unknown, revisionFields: string[]): boolean {
  const fields = body as Record<string, unknown>;
  return Boolean(body && typeof body === "object" && revisionFields.some((field) => fields[field] !== undefined && fields[field] !== null));
}

// As a command: print (or write) the bundle with its samples.
if (import.meta.main) {
  const { readFile, writeFile } = await import("node:fs/promises");
  const bundle = JSON.parse(await readFile(new URL("../../generated/openapi.json", import.meta.url), "utf8"));
  const text = `${JSON.stringify(withCodeSamples(bundle), null, 2)}\n`;
  const out = process.argv.indexOf("--out");
  if (out > 0) await writeFile(process.argv[out + 1]!, text);
  else process.stdout.write(text);
}
