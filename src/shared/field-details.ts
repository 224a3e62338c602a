// The `detail` of a field error, by JSON Schema keyword, in the words both local servers use: the
// simulator (from ajv's errors) and the mock's front (from the violations Prism reports, which are
// ajv's errors too). Keeping the wording here is what makes the two answer one mistake alike.
// No Node imports.
import type { ValidationError } from "../../generated/validators.js";
import { escapePointerSegment } from "./walk.js";

/** An unknown field, or one the document marks read-only or unchangeable in a patch body. */
export const UNKNOWN_FIELD_DETAIL = "is not a field that can be sent here (unknown, read-only or unchangeable)";
export const READ_ONLY_DETAIL = "is read-only and cannot be sent";
export const REQUIRED_DETAIL = "is required";
/** A required body that is missing or empty. */
export const BODY_REQUIRED_DETAIL = "the request body is required";

/** `must be one of "A", "B"`: the allowed values as JSON, so a string and a number look different. */
export function enumDetail(allowedValues: readonly unknown[]): string {
  return `must be one of ${allowedValues.map((v) => JSON.stringify(v)).join(", ")}`;
}

/**
 * The detail for one schema violation: fixed words for the keywords whose ajv message names
 * internals (`must NOT have additional properties`, `boolean schema is false`), ajv's own message
 * (`must be <= 100`, `must be integer`) for the rest.
 */
export function fieldDetail(keyword: string, ajvMessage: string | undefined, allowedValues?: readonly unknown[]): string {
  switch (keyword) {
    case "additionalProperties":
    case "unevaluatedProperties":
      return UNKNOWN_FIELD_DETAIL;
    case "false schema":
      return READ_ONLY_DETAIL;
    case "required":
      return REQUIRED_DETAIL;
    case "enum":
      if (allowedValues) return enumDetail(allowedValues);
      break;
  }
  return ajvMessage || keyword;
}

/** What withoutEchoes needs to know of one violation, whatever shape the validator reports it in. */
export interface ViolationView {
  keyword: string;
  /** Where the violation is, as a path both servers spell alike (a JSON Pointer). */
  path: string;
  /** True for a `type` violation whose expected type was null (the nullable wrapper's null branch). */
  expectedNull: boolean;
}

/**
 * Drops the echoes of one violation: a bad field inside a nullable object (`anyOf: [X, {type:
 * "null"}]`) also fails the null branch, so the validator reports the object itself as "must be
 * null" and "must match a schema in anyOf" next to the real reason; and a number that is not an
 * integer also fails `format: int32`, which the type error already says; and a violation
 * reported twice, word for word. The simulator (ajv's errors) and the mock's front (Prism's
 * violations) both filter with this.
 */
export function withoutEchoes<T>(violations: readonly T[], view: (violation: T) => ViolationView): T[] {
  // A validator that reaches one schema by two ways (an allOf inside an anyOf branch, with
  // unevaluatedProperties) reports the same violation twice, word for word: say it once.
  const distinct = new Map(violations.map((v) => [JSON.stringify(v), v]));
  const seen = [...distinct.values()].map((v) => ({ v, ...view(v) }));
  const isEcho = (x: ViolationView) => x.keyword === "anyOf" || x.keyword === "oneOf" || (x.keyword === "type" && x.expectedNull);
  const specific = seen.filter((x) => !isEcho(x)).map((x) => x.path);
  const wrongType = new Set(seen.filter((x) => x.keyword === "type" && !isEcho(x)).map((x) => x.path));
  return seen
    .filter((x) => {
      if (isEcho(x) && specific.some((p) => p === x.path || p.startsWith(`${x.path}/`))) return false;
      return !(x.keyword === "format" && wrongType.has(x.path));
    })
    .map((x) => x.v);
}

/** One of ajv's errors as the field it names, in the servers' words. */
export interface AjvFieldError {
  /** The offending field itself (for an unknown or missing property, the property, not its parent). */
  pointer: string;
  keyword: string;
  detail: string;
}

/**
 * ajv's errors as field errors: the echoes of a nullable wrapper and repeats dropped, each
 * pointing at the field it is about. The simulator's request checks and the package's Standard
 * Schemas both read ajv's errors through this, so they name a mistake alike.
 */
export function ajvFieldErrors(errors: readonly ValidationError[] | null | undefined): AjvFieldError[] {
  const tidy = withoutEchoes(errors ?? [], (e) => ({
    keyword: e.keyword,
    path: e.instancePath,
    expectedNull: e.keyword === "type" && e.params.type === "null",
  }));
  const seen = new Set<string>();
  const out: AjvFieldError[] = [];
  for (const e of tidy) {
    const error = { pointer: pointerOf(e), keyword: e.keyword, detail: fieldDetail(e.keyword, e.message, allowedValuesOf(e)) };
    const key = `${error.pointer}\u0000${error.detail}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(error);
  }
  return out;
}

/** Points at the offending field itself, also for unknown and missing properties. */
function pointerOf(e: ValidationError): string {
  const child = e.params.additionalProperty ?? e.params.unevaluatedProperty ?? e.params.missingProperty;
  return typeof child === "string" ? `${e.instancePath}/${escapePointerSegment(child)}` : e.instancePath;
}

function allowedValuesOf(e: ValidationError): readonly unknown[] | undefined {
  return Array.isArray(e.params.allowedValues) ? e.params.allowedValues : undefined;
}
