// A parameter's text as every server reads and checks it: coerced the way Prism does (numbers by
// Number(), booleans from "true"/"false", a list split on commas) and checked by the validator
// compiled for it at build time, its errors in the servers' words. The simulator checks every
// parameter this way; the mock's front checks the empty query values with it, which Prism reads as
// absent (`deployment_type=`), so both refuse an empty value exactly when the schema does. No Node imports.
import { compiledValidator } from "../../generated/validators.js";
import { fieldErrorCode } from "../shared/problems.js";
import { primaryType } from "../shared/walk.js";
import { ajvFieldErrors } from "../shared/field-details.js";
import type { ParameterError } from "./gate.js";

/** What the coercion and the validator need to know of a parameter. */
export interface ParameterShape {
  name: string;
  in: "path" | "query" | "header";
  /** A comma-separated list (`style: form, explode: false`). */
  array: boolean;
  /** The JSON type the text (or, for a list, each item) is read as. */
  coerceTo: string | undefined;
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
 * The field errors of the query parameters given an empty (or blank) value, checked as any value
 * is. For a server whose engine reads `name=` as absent (Prism): the simulator reads it as the empty
 * text it is, which an enum, a format, a number or a list of them refuses.
 */
export function emptyQueryValueErrors(operationId: string, shapes: readonly ParameterShape[], query: URLSearchParams): ParameterError[] {
  const errors: ParameterError[] = [];
  for (const shape of shapes) {
    if (shape.in !== "query" || !query.getAll(shape.name).some((v) => v.trim() === "")) continue;
    errors.push(...parameterErrors(operationId, shape, coerceParameterText(queryText(query, shape)!, shape)));
  }
  return errors;
}
