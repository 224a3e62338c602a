// The document's schemas as self-contained JSON Schema for MCP tools: every $ref inlined, the
// "Input" wrappers (allOf of one schema, `false` for fields that cannot be sent, unevaluatedProperties)
// flattened into plain objects, examples and x- extensions left out. Plain draft-07-compatible
// keywords only, because clients validate with whatever JSON Schema library they have.
// The Kubernetes-shaped resource spec is described in one sentence instead of field by field: the
// full schema still checks it (the compiled validators) before anything is sent.
import { openApiDocument } from "../shared/document.js";
import { type DocumentNode, deref, listOperations, type OperationEntry, viewSchema } from "../shared/walk.js";

export type JsonSchema = Record<string, unknown>;

/** Schemas sent as one object with a description, instead of their fields. */
const BRIEF: Readonly<Record<string, string>> = {
  ResourceSpec:
    "Compute resources and pod settings (replicas, cpu in cores, memory in MB, labels, volumes, sidecars), " +
    "as the document's ResourceSpec; null keeps the service defaults.",
  ResourceSpecInput:
    "Compute resources and pod settings, as the document's ResourceSpec: min_scale, max_scale, cpu (0.1-8 cores), cpu_limit, " +
    "memory_mb, memory_limit_mb, queue_*, redis_*, db_*, labels, annotations, volumes, sidecars …; null keeps the service defaults. " +
    "Checked against that schema before it is sent.",
};

/** Keywords kept; everything else (examples, x- extensions, readOnly, title) is left out. */
const KEPT = new Set([
  "type",
  "enum",
  "const",
  "format",
  "default",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "minLength",
  "maxLength",
  "pattern",
  "minItems",
  "maxItems",
  "required",
  "additionalProperties",
]);

export interface SchemaOptions {
  /**
   * Input schemas keep descriptions and formats; output schemas leave both out (an agent reads what
   * came back, not its schema), which keeps tools/list small.
   */
  descriptions: boolean;
}

/** A description on one line: the first paragraph, whitespace collapsed. */
function shortDescription(text: unknown): string | undefined {
  if (typeof text !== "string") return undefined;
  const first = text.split(/\n\s*\n/)[0] ?? text;
  return first.replace(/\s+/g, " ").trim() || undefined;
}

function refName(ref: string): string {
  return ref.slice(ref.lastIndexOf("/") + 1);
}

function briefSchema(name: string, target: DocumentNode, options: SchemaOptions): JsonSchema {
  const inner = target.allOf?.length === 1 ? deref(openApiDocument, target.allOf[0]) : target;
  const type = inner.type ?? target.type ?? "object";
  return options.descriptions ? { type, description: BRIEF[name] } : { type };
}

/** One schema of the document, inlined and simplified (`true` is `{}`, `false` a schema nothing passes). */
function toJsonSchema(node: DocumentNode, options: SchemaOptions): JsonSchema {
  if (node === true) return {};
  if (node === false) return { not: {} };
  if (node === null || typeof node !== "object") return {};
  if (typeof node.$ref === "string") {
    const name = refName(node.$ref);
    const target = deref(openApiDocument, node);
    const base = name in BRIEF ? briefSchema(name, target, options) : toJsonSchema(target, options);
    // A description beside the $ref says what this use of the schema means: it wins.
    const here = options.descriptions ? shortDescription(node.description) : undefined;
    return here ? { ...base, description: here } : base;
  }
  if (Array.isArray(node.allOf) && node.allOf.length === 1) return flattenInput(node, options);
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === "format" && !options.descriptions) continue;
    if (KEPT.has(key)) out[key] = key === "additionalProperties" && typeof value === "object" ? toJsonSchema(value, options) : value;
  }
  if (options.descriptions) {
    const description = shortDescription(node.description);
    if (description) out.description = description;
  }
  if (node.properties) {
    out.properties = Object.fromEntries(Object.entries(node.properties).map(([name, value]) => [name, toJsonSchema(value, options)]));
  }
  if (node.items) out.items = toJsonSchema(node.items, options);
  for (const key of ["anyOf", "oneOf"] as const) {
    if (Array.isArray(node[key])) out[key] = node[key].map((branch: DocumentNode) => toJsonSchema(branch, options));
  }
  return out;
}

/**
 * `allOf: [Base]` with properties of its own, `false` for fields that cannot be sent and
 * `unevaluatedProperties: false`, read by the package's one schema view: one object with the
 * properties every part allows, the forbidden ones removed, and `additionalProperties: false`.
 * Where a property is given by several parts, the last is written: by the document's convention it
 * is the request variant, which wraps the earlier one (allOf), so it alone states what both allow.
 */
function flattenInput(node: DocumentNode, options: SchemaOptions): JsonSchema {
  const view = viewSchema(openApiDocument, node);
  const base = toJsonSchema(node.allOf[0], options);
  const properties = Object.fromEntries([...view.properties].map(([name, parts]) => [name, toJsonSchema(parts[parts.length - 1], options)]));
  const out: JsonSchema = { ...base, properties };
  if (view.required.size > 0) out.required = [...view.required];
  if (view.closed) out.additionalProperties = false;
  const description = options.descriptions ? shortDescription(node.description) : undefined;
  if (description) out.description = description;
  else if (!options.descriptions) delete out.description;
  return out;
}

/** A schema of components/schemas by name, inlined. */
export function componentSchema(name: string, options: SchemaOptions): JsonSchema {
  return toJsonSchema({ $ref: `#/components/schemas/${name}` }, options);
}

const operations = new Map(listOperations(openApiDocument).map((entry) => [entry.operationId, entry]));

export function operationOf(operationId: string): OperationEntry {
  const entry = operations.get(operationId);
  if (!entry) throw new Error(`the document has no operation ${operationId}`);
  return entry;
}

/** Built once per key: the tools read these on every call. */
function memo<T>(build: (key: string) => T): (key: string) => T {
  const cache = new Map<string, T>();
  return (key) => {
    if (!cache.has(key)) cache.set(key, build(key));
    return cache.get(key)!;
  };
}

export interface ParameterSchema {
  in: "path" | "query";
  required: boolean;
  schema: JsonSchema;
}

/** Each operation's parameters by name, built once per operation. */
const parameters = memo((operationId): ReadonlyMap<string, ParameterSchema> => {
  const out = new Map<string, ParameterSchema>();
  for (const parameter of operationOf(operationId).parameters) {
    const schema = toJsonSchema(parameter.schema, { descriptions: true });
    const description = shortDescription(parameter.description);
    out.set(parameter.name, { in: parameter.in, required: parameter.required === true, schema: description ? { ...schema, description } : schema });
  }
  return out;
});

/** A parameter of an operation: where it goes, and its schema with the parameter's description. */
export function parameterOf(operationId: string, name: string): ParameterSchema {
  const parameter = parameters(operationId).get(name);
  if (!parameter) throw new Error(`${operationId} has no parameter ${name}`);
  return parameter;
}

/** The JSON request body's schema of an operation, as an object schema whose properties become arguments. */
export const requestBodyOf = memo((operationId): JsonSchema => {
  const body = deref(openApiDocument, operationOf(operationId).operation.requestBody);
  return toJsonSchema(body.content["application/json"].schema, { descriptions: true });
});
