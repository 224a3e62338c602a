// The data of a success response, read as the document promises it: every 200 of the API has a JSON
// object or array as its body. Anything else (no body, text that is not JSON, a bare `null`) is an
// ApiError with the status, method and path, instead of a SyntaxError without them or `undefined`
// passed off as data.
import { ApiError } from "./errors.js";

const TITLE = "Invalid response body";

export function readSuccessData(response: Response, text: unknown): unknown {
  const invalid = (detail: string, cause?: unknown) => new ApiError(response, text, { title: TITLE, detail, cause });
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
