// The one way to walk the bundled OpenAPI document: JSON Pointers, local $refs, operations and the
// nullable-branch convention. The simulator, the tools (tools/, from this file) and the tests all use
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
