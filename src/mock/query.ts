// The parameters of a request to the mock, read two ways: as the shared parameter rule reads each
// path and query parameter (src/gate/parameter-values.ts, so an empty or malformed value is refused as the
// simulator refuses it), and as Prism reads the query (a repeated name is a list).
import { type ParameterShape, textType } from "../gate/parameter-values.js";
import type { PrismParameter } from "./prism.js";

/** A path or query parameter as the shared parameter rule (src/gate/parameter-values.ts) reads it. */
export function parameterShape(p: PrismParameter, where: "path" | "query"): ParameterShape {
  const schema = p.schema ?? {};
  const array = textType(schema) === "array";
  return { name: p.name, in: where, array, coerceTo: textType(array ? schema.items : schema), required: where === "path" || p.required === true };
}

/** The query as Prism reads it (a repeated name is a list); a repeated single-valued one keeps its first value. */
export function queryOf(search: URLSearchParams, firstOnly: Set<string>): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {};
  for (const name of new Set(search.keys())) {
    const values = search.getAll(name);
    query[name] = values.length === 1 || firstOnly.has(name) ? values[0]! : values;
  }
  return query;
}
