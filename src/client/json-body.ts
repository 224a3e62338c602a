// JSON bodies: a request body written as JSON that keeps its numbers (serializeJsonBody), and the
// data of a success response, read as the document promises it: every 200 of the API has a JSON
// object or array as its body. Anything else (no body, text that is not JSON, a bare `null`) is an
// ApiError with the status, method and path, instead of a SyntaxError without them or `undefined`
// passed off as data.
import { toPointer } from "../shared/walk.js";
import { invalidResponseBody } from "./errors.js";

export function readSuccessData(response: Response, text: unknown): unknown {
  const invalid = (detail: string, cause?: unknown) => invalidResponseBody(response, text, detail, cause);
  const said = `the ${response.status} response`;
  if (typeof text !== "string" || text.trim() === "") throw invalid(`${said} has an empty body where the API sends JSON`);
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw invalid(`${said} body is not JSON (${error instanceof Error ? error.message : String(error)})`, error);
  }
  if (typeof data !== "object" || data === null) throw invalid(`${said} body is ${text.trim().slice(0, 40)}, not a JSON object or array`);
  return data;
}

/**
 * The request body as JSON (openapi-fetch's bodySerializer), or a TypeError naming the first number
 * JSON cannot carry: JSON.stringify writes NaN and the infinities as null, and a null in a patch
 * clears the field on the service (a form's empty number field read with Number is NaN). Walked
 * with its own stack; nothing is sent when it throws.
 */
export function serializeJsonBody(body: unknown): string {
  const stack: [unknown, (string | number)[]][] = [[body, []]];
  // Each object once: a cycle is left to JSON.stringify, which throws its own TypeError for it.
  const seen = new WeakSet<object>();
  while (stack.length > 0) {
    const [value, path] = stack.pop()!;
    if (typeof value === "number" && !Number.isFinite(value)) {
      throw new TypeError(
        `request body: ${toPointer(path) || "(the body)"} is ${value}, which JSON cannot carry (JSON.stringify would send null, clearing the field); nothing was sent`,
      );
    }
    if (value === null || typeof value !== "object" || seen.has(value)) continue;
    seen.add(value);
    // What JSON.stringify writes: an object's own enumerable string keys, through toJSON when it has one.
    if (typeof (value as { toJSON?: unknown }).toJSON === "function") continue;
    const entries: [string | number, unknown][] = Array.isArray(value) ? value.map((item, i) => [i, item]) : Object.entries(value);
    for (const [key, item] of entries) stack.push([item, [...path, key]]);
  }
  return JSON.stringify(body);
}
