// A validator compiled at build time (generated/schemas/<Name>.js, ajv standalone code) as a
// Standard Schema v1 (https://standardschema.dev): the `~standard` property that form libraries
// (TanStack Form, react-hook-form's standardSchemaResolver, …) and others call. The issues carry a
// `path` of segments a form library can put next to its field, and the words the package's servers
// use for the same mistake.
import type { CompiledValidator, ValidationError } from "../../generated/validators.js";
import { ajvFieldErrors } from "../shared/field-details.js";
import { unescapePointerSegment } from "../shared/walk.js";

/** One problem with a value: what is wrong, and where (`["source_config", "listener_id"]`; empty or absent for the value itself). */
export interface StandardIssue {
  readonly message: string;
  readonly path?: ReadonlyArray<PropertyKey | { readonly key: PropertyKey }> | undefined;
}

/**
 * The outcome of `~standard.validate`: the value (typed as the schema's type), or the issues. A
 * failure also declares `value?: undefined`: with strictNullChecks off (`"strict": false`),
 * `if (!result.issues)` cannot narrow the union, and `result.value` must still be readable, and
 * typed, on the union as a whole. It stays assignable to Standard Schema's own result type.
 */
export type StandardResult<Output> =
  | { readonly value: Output; readonly issues?: undefined }
  | { readonly issues: ReadonlyArray<StandardIssue>; readonly value?: undefined };

/** The Standard Schema v1 interface. */
export interface StandardSchemaV1<Input = unknown, Output = Input> {
  readonly "~standard": {
    readonly version: 1;
    readonly vendor: string;
    readonly validate: (value: unknown) => StandardResult<Output> | Promise<StandardResult<Output>>;
    readonly types?: { readonly input: Input; readonly output: Output } | undefined;
  };
}

/** A schema of the document as a Standard Schema: validates synchronously; input and output are the schema's type. */
export interface DmsSchema<T> extends StandardSchemaV1<T, T> {
  readonly "~standard": {
    readonly version: 1;
    readonly vendor: string;
    readonly validate: (value: unknown) => StandardResult<T>;
    readonly types?: { readonly input: T; readonly output: T } | undefined;
  };
}

const VENDOR = "deployment-management-api";

/** The path segments of a JSON Pointer into `value`: an index into an array is a number, a key of an object a string. */
function pathOf(pointer: string, value: unknown): PropertyKey[] {
  const path: PropertyKey[] = [];
  let node: unknown = value;
  for (const raw of pointer === "" ? [] : pointer.slice(1).split("/")) {
    const segment = unescapePointerSegment(raw);
    const index = Array.isArray(node) && /^(?:0|[1-9]\d*)$/.test(segment) ? Number(segment) : undefined;
    path.push(index ?? segment);
    node = node !== null && typeof node === "object" ? (node as Record<string, unknown>)[segment] : undefined;
  }
  return path;
}

/** ajv's errors as issues, in the servers' words (a nullable wrapper's echoes and repeats dropped). */
export function issuesOf(errors: readonly ValidationError[] | null | undefined, value: unknown): StandardIssue[] {
  const issues = ajvFieldErrors(errors).map((e): StandardIssue => ({ message: e.detail, path: pathOf(e.pointer, value) }));
  // A verdict of false always comes with at least one issue.
  return issues.length > 0 ? issues : [{ message: "is not valid", path: [] }];
}

/** The compiled validator as a Standard Schema whose output is typed T. */
export function standardSchema<T>(validate: CompiledValidator): DmsSchema<T> {
  return {
    "~standard": {
      version: 1,
      vendor: VENDOR,
      validate: (value: unknown): StandardResult<T> => (validate(value) ? { value: value as T } : { issues: issuesOf(validate.errors, value) }),
    },
  };
}
