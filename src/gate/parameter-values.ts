// A parameter's text as every server reads and checks it: coerced the way Prism does (numbers by
// Number(), booleans from "true"/"false", a list split on commas) and checked by the validator
// compiled for it at build time, its errors in the servers' words. The simulator and the mock's
// front both check every path and query parameter this way (Prism reads an empty value as absent
// and a repeated list as its first item), so both name the same fields, in the same order. No Node imports.
import { compiledValidator } from "../../generated/validators.js";
import { fieldErrorCode } from "../shared/problems.js";
import { primaryType } from "../shared/walk.js";
import { ajvFieldErrors, REQUIRED_DETAIL } from "../shared/field-details.js";
import type { ParameterError } from "./gate.js";

/** What the coercion and the validator need to know of a parameter. */
export interface ParameterShape {
  name: string;
  in: "path" | "query" | "header";
  /** A comma-separated list (`style: form, explode: false`). */
  array: boolean;
  /** The JSON type the text (or, for a list, each item) is read as. */
  coerceTo: string | undefined;
  /** An absent value is an error (a path parameter is always required). */
  required?: boolean;
}

/** The JSON type of a (dereferenced) schema as a parameter's text is read: its type besides null, else "string" for an enum. */
export function textType(schema: { type?: unknown; enum?: unknown } | undefined): string | undefined {
  return primaryType(schema) ?? (Array.isArray(schema?.enum) ? "string" : undefined);
}

/** The value a parameter's text stands for: a number, a boolean, the text itself, or a list of them. */
export function coerceParameterText(raw: string, shape: ParameterShape): unknown {
  return shape.array ? raw.split(",").map((item) => coerce(item, shape.coerceTo)) : coerce(raw, shape.coerceTo);
}

function coerce(raw: string, to: string | undefined): unknown {
  if ((to === "integer" || to === "number") && raw.trim() !== "") {
    const n = Number(raw);
    return Number.isNaN(n) ? raw : n;
  }
  if (to === "boolean") return raw === "true" ? true : raw === "false" ? false : raw;
  return raw;
}

/** The field errors of a parameter's value by the validator compiled for it; an item of a list is named by its index. */
export function parameterErrors(operationId: string, shape: ParameterShape, value: unknown): ParameterError[] {
  const validate = compiledValidator(`parameter:${operationId}:${shape.in}:${shape.name}`);
  if (validate(value)) return [];
  return ajvFieldErrors(validate.errors).map((e) => ({
    parameter: shape.name,
    code: fieldErrorCode(e.keyword),
    detail: `${e.pointer ? `item ${e.pointer.slice(1)} ` : ""}${e.detail}`,
  }));
}

/** The text of a query parameter as one value: the first of a single one, a repeated list joined (status=A&status=B is A,B). */
export function queryText(query: URLSearchParams, shape: ParameterShape): string | undefined {
  const all = query.getAll(shape.name);
  if (all.length === 0) return undefined;
  return shape.array ? all.join(",") : all[0];
}

/**
 * A parameter's text checked: absent, it is an error only when required; present, it is coerced
 * and checked by its validator. The one rule every server reads a parameter by.
 */
export function checkParameterText(operationId: string, shape: ParameterShape, raw: string | undefined): { value: unknown; errors: ParameterError[] } {
  if (raw === undefined) return { value: undefined, errors: shape.required ? [{ parameter: shape.name, code: "required", detail: REQUIRED_DETAIL }] : [] };
  const value = coerceParameterText(raw, shape);
  return { value, errors: parameterErrors(operationId, shape, value) };
}

/**
 * The field errors of an operation's parameters, in the order of `shapes` (the document's), each
 * text read by `textOf`. For a server whose engine reads parameters its own way (Prism reads
 * `name=` as absent, and a repeated list as only its first item), so that it names the same fields
 * as the simulator. A parameter in `skip` (given twice, refused already) is not read.
 */
export function parameterValueErrors(
  operationId: string,
  shapes: readonly ParameterShape[],
  textOf: (shape: ParameterShape) => string | undefined,
  skip: ReadonlySet<string> = new Set(),
): ParameterError[] {
  return shapes.flatMap((shape) => (skip.has(shape.name) ? [] : checkParameterText(operationId, shape, textOf(shape)).errors));
}
