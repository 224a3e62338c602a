// The one way to walk the bundled OpenAPI document: JSON Pointers, local $refs, operations, the
// nullable-branch convention and the one reading of a schema (viewSchema, at the end). The simulator, the tools (tools/, from this file) and the tests all use
// it, so a rule about the document's shape lives here once. It imports nothing from Node.
// The document is JSON read at run time; its nodes are walked by key and by $ref, so they are typed as
// this one alias, not as the generated types (which describe the API, not the document itself).
// biome-ignore lint/suspicious/noExplicitAny: an OpenAPI document's nodes are untyped JSON
export type DocumentNode = any;

/** The parts of an OpenAPI 3.1 document this package reads. */
export interface OpenApiDocument {
  paths: Record<string, Record<string, DocumentNode>>;
  components: Record<string, Record<string, DocumentNode>>;
  [key: string]: unknown;
}

/** The HTTP methods an OpenAPI path item can hold, in the order operations are listed. */
const HTTP_METHODS = ["get", "put", "post", "patch", "delete", "options", "head", "trace"] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

/** Escapes one segment for a JSON Pointer (RFC 6901): `~` is `~0`, `/` is `~1`. */
export function escapePointerSegment(segment: string | number): string {
  return String(segment).replace(/~/g, "~0").replace(/\//g, "~1");
}

/** Reverses escapePointerSegment. */
export function unescapePointerSegment(segment: string): string {
  return segment.replace(/~1/g, "/").replace(/~0/g, "~");
}

/** A JSON Pointer from its segments: `["a", "b/c"]` is `/a/b~1c`; no segments is `""`, the whole value. */
export function toPointer(segments: readonly (string | number)[]): string {
  return segments.map((s) => `/${escapePointerSegment(s)}`).join("");
}

/** The value at a JSON Pointer (with or without the leading `#`), or undefined when there is none. */
function resolvePointer(root: unknown, pointer: string): unknown {
  const path = pointer.startsWith("#") ? pointer.slice(1) : pointer;
  if (path === "") return root;
  let node: DocumentNode = root;
  for (const raw of path.slice(1).split("/")) {
    if (node === null || typeof node !== "object") return undefined;
    node = node[unescapePointerSegment(raw)];
  }
  return node;
}

/** Follows local `#/...` references until it reaches a value that is not one. Throws on a loop or a dangling reference. */
export function deref<T = DocumentNode>(document: unknown, value: unknown): T {
  let node: DocumentNode = value;
  const seen = new Set<string>();
  while (node && typeof node === "object" && typeof node.$ref === "string" && node.$ref.startsWith("#/")) {
    const ref: string = node.$ref;
    if (seen.has(ref)) throw new Error(`circular $ref ${ref}`);
    seen.add(ref);
    const target = resolvePointer(document, ref);
    if (target === undefined) throw new Error(`unresolved $ref ${ref}`);
    node = target;
  }
  return node as T;
}

/** One operation of the document, with its path-level and operation-level parameters merged and resolved. */
export interface OperationEntry {
  path: string;
  method: HttpMethod;
  operationId: string;
  operation: DocumentNode;
  pathItem: DocumentNode;
  /** Path-level parameters first, overridden by operation-level ones of the same name and location. */
  parameters: DocumentNode[];
}

/** Every operation of the document, in path order and then method order. */
export function listOperations(document: OpenApiDocument): OperationEntry[] {
  const out: OperationEntry[] = [];
  for (const [path, pathItem] of Object.entries(document.paths ?? {})) {
    for (const method of HTTP_METHODS) {
      const operation = pathItem[method];
      if (!operation) continue;
      const byKey = new Map<string, DocumentNode>();
      for (const raw of [...(pathItem.parameters ?? []), ...(operation.parameters ?? [])]) {
        const p = deref(document, raw);
        byKey.set(`${p.in}:${p.name}`, p);
      }
      out.push({ path, method, operationId: operation.operationId, operation, pathItem, parameters: [...byKey.values()] });
    }
  }
  return out;
}

/** True for the `{type: "null"}` branch that the document uses to make a referenced object nullable. */
export function isNullBranch(document: unknown, schema: unknown): boolean {
  const s = deref<DocumentNode>(document, schema);
  return s !== null && typeof s === "object" && s.type === "null";
}

/**
 * Sees through the nullable wrapper `anyOf: [X, {type: "null"}]`: returns X and whether null was allowed.
 * Any other schema comes back as it is, with `nullable` from a `type` array that holds "null".
 */
export function unwrapNullable(document: unknown, schema: unknown): { schema: DocumentNode; nullable: boolean } {
  const s = deref<DocumentNode>(document, schema);
  const branches: unknown[] | undefined = s?.anyOf ?? s?.oneOf;
  if (Array.isArray(branches)) {
    const rest = branches.filter((b) => !isNullBranch(document, b));
    if (rest.length === 1 && rest.length < branches.length) return { schema: deref(document, rest[0]), nullable: true };
  }
  return { schema: s, nullable: Array.isArray(s?.type) && s.type.includes("null") };
}

/** The non-null JSON type a schema declares (`["string", "null"]` is "string"), or undefined. */
export function primaryType(schema: DocumentNode): string | undefined {
  const t = schema?.type;
  if (Array.isArray(t)) return t.find((x: string) => x !== "null");
  return t;
}

// ---------------------------------------------------------------------------------------------
// One reading of a JSON Schema of the document: what it allows, with local `$ref`s followed (and the
// keywords OpenAPI 3.1 lets sit beside one), `allOf` parts intersected, and the nullable wrapper
// `anyOf: [X, {type: "null"}]` seen through. The MCP tool schemas, the breaking-change rules, the
// contract suite and the fuzz arbitraries all read schemas through viewSchema, so they cannot
// disagree on what a schema means:
// - `allOf` is an intersection: the types and enum values both parts allow, the tighter of two bounds;
// - `integer` is a kind of `number` (a part that says number and one that says integer leave integer);
// - a property whose schema is `false` can never be sent: it is forbidden, not listed.
// It lives in this file because the tools run it as TypeScript straight from src/ (Node strips the
// types), and a module they import can import nothing of its own at run time.

/** The bounds a value must not fall below, and those it must not rise above. */
export const LOWER_BOUNDS = ["minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties"] as const;
export const UPPER_BOUNDS = ["maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties"] as const;

/** The numeric bounds a schema sets; in a view, the tightest of every part's. */
export type SchemaBounds = { [B in (typeof LOWER_BOUNDS)[number] | (typeof UPPER_BOUNDS)[number]]?: number };

export interface SchemaView extends SchemaBounds {
  /** The JSON types allowed ("null" among them when nullable); undefined when the schema does not say. */
  types: Set<string> | undefined;
  /** The values allowed (const is an enum of one); undefined when any value of the types is. */
  enum: unknown[] | undefined;
  format?: string;
  /** Every pattern a value must match (one per part that gives one). */
  patterns: string[];
  readOnly: boolean;
  /** Each property's schemas, one per part that names it (all must hold). */
  properties: Map<string, DocumentNode[]>;
  /** Properties a part forbids with `false`: they can never be sent or received. */
  forbidden: Set<string>;
  required: Set<string>;
  /** `additionalProperties: false` or `unevaluatedProperties: false` in some part. */
  closed: boolean;
  /** The schemas of properties not named, where given as schemas. */
  additional: DocumentNode[];
  /** The schemas each array item must satisfy. */
  items: DocumentNode[];
  /** anyOf/oneOf with several non-null branches: a choice, left to the reader. */
  branches: DocumentNode[] | undefined;
  /** The component's name when the schema is (or an allOf of) `#/components/schemas/<name>`. */
  name: string | undefined;
  /** Null is allowed by a wrapper around the schema (anyOf with a null branch), not by the schema itself. */
  wrapped: boolean;
  /** A value the document shows for it: const, default, example or examples[0]. */
  sample: unknown;
}

const MAX_DEPTH = 40;

function emptyView(): SchemaView {
  return {
    types: undefined,
    enum: undefined,
    patterns: [],
    readOnly: false,
    properties: new Map(),
    forbidden: new Set(),
    required: new Set(),
    closed: false,
    additional: [],
    items: [],
    branches: undefined,
    name: undefined,
    wrapped: false,
    sample: undefined,
  };
}

const sameValue = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/** The types both sides allow; integer is a kind of number, so number ∩ integer is integer. */
function intersectTypes(a: Set<string>, b: Set<string>): Set<string> {
  const out = new Set<string>();
  for (const t of a) {
    if (b.has(t)) out.add(t);
    else if (t === "integer" && b.has("number")) out.add("integer");
    else if (t === "number" && b.has("integer")) out.add("integer");
  }
  return out;
}

/** Adds what `part` requires to `out`: both must hold. */
function intersect(out: SchemaView, part: SchemaView): void {
  if (part.types) out.types = out.types ? intersectTypes(out.types, part.types) : new Set(part.types);
  if (part.enum) {
    const allowed = part.enum;
    out.enum = out.enum ? out.enum.filter((v) => allowed.some((w) => sameValue(v, w))) : [...allowed];
  }
  if (part.format !== undefined) out.format = part.format;
  for (const bound of LOWER_BOUNDS) {
    const value = part[bound];
    if (value !== undefined) out[bound] = out[bound] === undefined ? value : Math.max(out[bound], value);
  }
  for (const bound of UPPER_BOUNDS) {
    const value = part[bound];
    if (value !== undefined) out[bound] = out[bound] === undefined ? value : Math.min(out[bound], value);
  }
  for (const pattern of part.patterns) if (!out.patterns.includes(pattern)) out.patterns.push(pattern);
  out.readOnly ||= part.readOnly;
  for (const [name, list] of part.properties) out.properties.set(name, [...(out.properties.get(name) ?? []), ...list]);
  for (const name of part.forbidden) out.forbidden.add(name);
  for (const name of part.required) out.required.add(name);
  out.closed ||= part.closed;
  out.additional.push(...part.additional);
  out.items.push(...part.items);
  if (part.branches) out.branches = part.branches;
  if (part.sample !== undefined) out.sample = part.sample;
}

/** What one schema object says by its own keywords (not its allOf, anyOf or $ref). */
function ownKeywords(schema: DocumentNode): SchemaView {
  const own = emptyView();
  if (schema.type !== undefined) own.types = new Set<string>(Array.isArray(schema.type) ? schema.type : [schema.type]);
  if (schema.const !== undefined) own.enum = [schema.const];
  else if (Array.isArray(schema.enum)) own.enum = schema.enum;
  if (typeof schema.format === "string") own.format = schema.format;
  for (const bound of [...LOWER_BOUNDS, ...UPPER_BOUNDS]) if (typeof schema[bound] === "number") own[bound] = schema[bound];
  if (typeof schema.pattern === "string") own.patterns.push(schema.pattern);
  own.readOnly = schema.readOnly === true;
  for (const [name, sub] of Object.entries<DocumentNode>(schema.properties ?? {})) {
    if (sub === false) own.forbidden.add(name);
    else own.properties.set(name, [sub]);
  }
  for (const name of schema.required ?? []) own.required.add(name);
  own.closed = schema.additionalProperties === false || schema.unevaluatedProperties === false;
  if (schema.additionalProperties !== undefined && typeof schema.additionalProperties === "object") own.additional.push(schema.additionalProperties);
  if (schema.items !== undefined && typeof schema.items === "object") own.items.push(schema.items);
  own.sample = schema.const ?? schema.default ?? schema.example ?? (Array.isArray(schema.examples) ? schema.examples[0] : undefined);
  if (own.sample === null) own.sample = undefined;
  return own;
}

function componentName(raw: DocumentNode): string | undefined {
  if (!raw || typeof raw.$ref !== "string") return undefined;
  const match = /^#\/components\/schemas\/([^/]+)$/.exec(raw.$ref);
  return match ? unescapePointerSegment(match[1]!) : undefined;
}

function merge(document: unknown, out: SchemaView, raw: DocumentNode, depth: number): void {
  if (depth > MAX_DEPTH) throw new Error("schema nesting too deep");
  if (raw === true || raw === undefined) return;
  if (raw === false) {
    // Nothing is allowed: no type survives the intersection.
    out.types = new Set();
    return;
  }
  const schema: DocumentNode = deref(document, raw) ?? {};
  const parts: DocumentNode[] = [schema];
  // OpenAPI 3.1 lets keywords sit beside a $ref; they apply too.
  if (raw && typeof raw.$ref === "string") {
    const siblings = Object.fromEntries(Object.entries(raw).filter(([key]) => key !== "$ref"));
    if (Object.keys(siblings).length > 0) parts.push(siblings);
  }
  for (const part of parts) {
    let partName: string | undefined;
    for (const member of part.allOf ?? []) {
      const inner = viewSchema(document, member, depth + 1);
      intersect(out, inner);
      partName = inner.name ?? partName;
    }
    // An unnamed allOf is known by its last named part (a request variant comes after the schema it extends).
    out.name ??= partName;
    const branches: DocumentNode[] | undefined = part.anyOf ?? part.oneOf;
    if (Array.isArray(branches)) {
      const rest = branches.filter((branch) => !isNullBranch(document, branch));
      if (rest.length === 1) {
        const inner = viewSchema(document, rest[0], depth + 1);
        const nullable = rest.length < branches.length;
        // A schema that names no type allows null already; one that names its types gains null.
        if (nullable && inner.types) inner.types = new Set([...inner.types, "null"]);
        intersect(out, inner);
        out.name ??= inner.name;
        // Nullability added by a wrapper belongs to the place that wraps, not to the named schema inside.
        if (nullable) out.wrapped = true;
      } else {
        out.branches = branches;
      }
    }
    intersect(out, ownKeywords(part));
  }
}

/** What `raw` allows, read once: see the top of this file for the rules. */
export function viewSchema(document: unknown, raw: DocumentNode, depth = 0): SchemaView {
  const out = emptyView();
  out.name = componentName(raw);
  merge(document, out, raw, depth);
  for (const name of out.forbidden) out.properties.delete(name);
  return out;
}

/** One schema for a list of schemas that must all hold: the schema itself when there is one. */
export function allOfSchemas(list: readonly DocumentNode[]): DocumentNode {
  return list.length === 1 ? list[0] : { allOf: [...list] };
}

/** The bounds a view sets, and only those: for readers that keep their own shape of a view. */
export function boundsOf(view: SchemaView): SchemaBounds {
  const out: SchemaBounds = {};
  for (const bound of [...LOWER_BOUNDS, ...UPPER_BOUNDS]) if (view[bound] !== undefined) out[bound] = view[bound];
  return out;
}
