// Turning Prism's answers into the problem details the simulator sends for the same mistake. Prism
// validates requests with ajv, like the simulator, but words the violations its own way (the body
// of its 422 is only the document's example) and answers its own errors with
// `https://stoplight.io/prism/errors#...` types, some carrying a stack trace. Pure functions: the
// front (front.ts) applies them.
import { STATUS_CODES } from "node:http";
import { BODY_REQUIRED_DETAIL, fieldDetail, withoutEchoes } from "../shared/field-details.js";
import type { GateProblem } from "../gate/gate.js";
import { fieldErrorCode, invalidFieldsDetail, PROBLEM_TYPES, problemDetails } from "../shared/problems.js";
import type { Problem, ProblemFieldError } from "../shared/types.js";
import { toPointer } from "../shared/walk.js";
import type { PrismViolation } from "./prism.js";

export type { PrismViolation };

const PRISM_ERROR = "https://stoplight.io/prism/errors#";

/** How many violations one answer lists; a request with more is refused all the same, and says so. */
export const MAX_LISTED_VIOLATIONS = 100;
/** The most characters of the `sl-violations` header the front sends (Prism's own bound, 8 KB less a margin). */
const MAX_VIOLATIONS_HEADER = 8 * 1024 - 100;
const TRUNCATED = "Too many violations! ";

export interface PrismViolations {
  /** The request's errors, at most MAX_LISTED_VIOLATIONS. */
  list: PrismViolation[];
  /** There were more than `list` holds. */
  truncated: boolean;
}

export interface PrismAnswer {
  status: number;
  problem?: { type?: string; title?: string; detail?: string; [key: string]: unknown };
  /** Undefined when Prism found nothing to say about the request. */
  violations?: PrismViolations;
}

export type BodyWas = "empty" | "null" | "value";

export interface MockRequest {
  method: string;
  path: string;
  contentType?: string;
  bodyWas: BodyWas;
}

/** The request's errors among Prism's violations (not warnings, not response violations), bounded. */
export function requestViolations(violations: readonly PrismViolation[] | undefined): PrismViolations | undefined {
  if (!violations || violations.length === 0) return undefined;
  const errors = violations.filter((v) => v?.severity === "Error" && Array.isArray(v.location) && v.location[0] === "request");
  return { list: errors.slice(0, MAX_LISTED_VIOLATIONS), truncated: errors.length > MAX_LISTED_VIOLATIONS };
}

/**
 * The `sl-violations` header the front sends for debugging, as Prism words it: a JSON array, cut
 * after the last whole violation (and prefixed "Too many violations! ") past MAX_VIOLATIONS_HEADER.
 * Every character outside printable ASCII is a \u escape, so a field name in any script is a
 * valid header value (Prism wrote it raw, and a name outside Latin-1 made Node throw).
 */
export function violationsHeader(violations: readonly PrismViolation[]): string | undefined {
  if (violations.length === 0) return undefined;
  const text = JSON.stringify(violations).replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
  if (text.length <= MAX_VIOLATIONS_HEADER) return text;
  const cut = text.slice(0, MAX_VIOLATIONS_HEADER);
  const last = cut.lastIndexOf(',{"location"');
  return `${TRUNCATED}${last < 0 ? "[]" : `${cut.slice(0, last)}]`}`;
}

/**
 * The field errors of Prism's violations, the simulator's way: a JSON Pointer for a body field,
 * the name for a parameter, the `code` of the JSON Schema keyword, and the simulator's words.
 * `bodyWas` says what the request body was ("empty", "null" or "value"): Prism reads both an
 * empty body and `null` as "no body" and says only "Body parameter is required".
 */
export function fieldErrorsOf(violations: readonly PrismViolation[], bodyWas: BodyWas): ProblemFieldError[] {
  const errors: ProblemFieldError[] = [];
  for (const violation of withoutPrismEchoes(violations)) {
    const error = fieldErrorOf(violation, bodyWas);
    if (error) errors.push(error);
  }
  return errors;
}

function fieldErrorOf(violation: PrismViolation, bodyWas: BodyWas): ProblemFieldError | undefined {
  const [, where, ...rest] = violation.location.map(String);
  const keyword = String(violation.code ?? "");
  if (where === undefined && keyword === "required") {
    // Every request body in the document is an object: `null` breaks its `type`, as ajv says in the simulator.
    return bodyWas === "null" ? { pointer: "", code: "type", detail: "must be object" } : { pointer: "", code: "required", detail: BODY_REQUIRED_DETAIL };
  }
  const ajvMessage = ajvMessageOf(violation, where ?? "", rest);
  const detail = fieldDetail(keyword, ajvMessage.text, ajvMessage.allowedValues);
  const code = fieldErrorCode(keyword);
  if (where === "body") {
    const named = propertyNamedBy(violation);
    const segments = named === undefined ? rest : [...rest, named];
    return { pointer: toPointer(segments), code, detail };
  }
  if ((where === "query" || where === "path" || where === "header") && rest[0] !== undefined) {
    // An item of an array parameter (status=READY,NOPE) is located at its index.
    const item = rest.length > 1 ? `item ${rest.slice(1).join("/")} ` : "";
    return { parameter: rest[0], code, detail: item + detail };
  }
  return undefined;
}

/**
 * ajv's own message inside Prism's, which reads "Request <where> [property|parameter <a.b.c> ]<ajv
 * message>[: <allowed values>][; found '<name>'][: '<name>']". The allowed values of an enum come
 * back as a list, so the detail can show them as the simulator does.
 */
function ajvMessageOf(violation: PrismViolation, where: string, rest: string[]): { text: string; allowedValues: string[] | undefined } {
  let text = String(violation.message ?? "");
  const kind = where === "body" ? "property " : "parameter ";
  const prefix = `Request ${where} ${rest.length > 0 ? `${kind}${rest.join(".")} ` : ""}`;
  if (text.startsWith(prefix)) text = text.slice(prefix.length);
  let allowedValues: string[] | undefined;
  const enumList = /^(must be equal to one of the allowed values): (.*)$/.exec(text);
  if (violation.code === "enum" && enumList) {
    text = enumList[1]!;
    allowedValues = enumList[2]!.split(", ");
  }
  return { text: text.replace(/(; found '[^']*'|: '[^']*')$/, ""), allowedValues };
}

/** Prism locates unknown and missing properties at their parent and names them only in the message. */
function propertyNamedBy(violation: PrismViolation): string | undefined {
  if (!["additionalProperties", "unevaluatedProperties", "required"].includes(String(violation.code))) return undefined;
  const match = /'([^']*)'\s*$/.exec(String(violation.message ?? ""));
  return match?.[1];
}

/** Prism's violations that say something, filtered by the rule the simulator uses (src/shared/field-details.ts). */
function withoutPrismEchoes(violations: readonly PrismViolation[]): PrismViolation[] {
  return withoutEchoes(violations, (v) => ({
    keyword: String(v.code),
    path: v.location.slice(1).join("/"),
    expectedNull: v.code === "type" && / must be null$/.test(String(v.message)),
  }));
}

/** Whether an answer is one of Prism's own errors (not an example from the document). */
function isPrismError(answer: Pick<PrismAnswer, "problem">): boolean {
  return typeof answer.problem?.type === "string" && answer.problem.type.startsWith(PRISM_ERROR);
}

/**
 * The problem details to send instead of one of Prism's own errors, or of an answer that only
 * Prism's checks produced (401, 422 with violations). Undefined: send Prism's answer as it is.
 * Prism's own detail is never passed on whole: for an unexpected error it is a stack trace.
 */
export function problemFor(answer: PrismAnswer, request: MockRequest): (Problem & { status: number }) | undefined {
  const { method, path } = request;
  const violations = answer.violations?.list ?? [];
  const prismCode = (code: number) => violations.some((v) => v.location.length === 1 && v.code === code);
  if (answer.status === 401 && prismCode(401)) return problemDetails("unauthorized", "Send your API key in the X-Api-Key header.", path);
  // A 422 of Prism's checks (not `Prefer: code=422`) carries violations; its body is only the document's example.
  if (answer.status === 422 && (violations.length > 0 || answer.violations?.truncated) && !isPrismError(answer)) {
    const errors = fieldErrorsOf(violations, request.bodyWas);
    if (answer.violations?.truncated || errors.length === 0) {
      const listed = errors.length > 0 ? `; the first ${errors.length} are listed` : "";
      return problemDetails(
        "validation",
        `The request has more invalid fields than the mock can list${listed}.`,
        path,
        errors.length > 0 ? errors : [{ pointer: "", code: "invalid", detail: "does not match the API document" }],
      );
    }
    return problemDetails("validation", invalidFieldsDetail(errors.length), path, errors);
  }
  if (!isPrismError(answer)) return undefined;
  const name = String(answer.problem!.type).slice(PRISM_ERROR.length);
  switch (name) {
    case "NO_PATH_MATCHED_ERROR":
    case "NO_SERVER_MATCHED_ERROR":
    case "NO_RESOURCE_PROVIDED_ERROR":
      return problemDetails("not-found", `There is no operation at ${path}.`, path);
    case "NO_METHOD_MATCHED_ERROR":
      return problemDetails("method-not-allowed", `${method} is not allowed on ${path}.`, path);
    case "UNPROCESSABLE_ENTITY":
      // Prism checks its own Prefer header before anything else.
      return problemDetails("validation", "The Prefer header is not one the mock understands.", path, [
        { parameter: "Prefer", code: "invalid", detail: firstLine(answer.problem!.detail) ?? "is not valid" },
      ]);
    case "NOT_FOUND":
      // `Prefer: code=NNN` or `example=NAME` that the document does not have.
      return problemDetails("not-found", `${firstLine(answer.problem!.detail) ?? "The document has no such answer."} (see the Prefer header)`, path);
    default:
      if (answer.status >= 500) return problemDetails("internal", "The mock could not produce an answer for this request.", path);
      // A status no problem kind covers (406 for an Accept header the document cannot satisfy).
      return {
        type: "about:blank",
        title: STATUS_CODES[answer.status] ?? "Error",
        status: answer.status,
        detail: firstLine(answer.problem!.detail) ?? "",
        instance: path,
      };
  }
}

/** The first line of Prism's text, when it is short and shows nothing of the machine (no file path, no stack frame). */
function firstLine(text: unknown): string | undefined {
  if (typeof text !== "string") return undefined;
  const line = text.split("\n")[0]!.trim();
  if (line === "" || line.length > 300 || /(^|[\s(])\/[\w.-]+\/|\bat [\w.<>]+ \(|node_modules|[A-Za-z]:\\/.test(line)) return undefined;
  return line;
}

/**
 * Puts the field errors the front found itself where the simulator puts them: the parameters'
 * (`parameterErrors`: a single-valued query parameter given twice, then every path and query value
 * by the shared rule, in the document's order; Prism's own errors on the parameters in `checked`
 * are dropped), then an X-Tenant-Id that is not a tenant id, then the body fields. The document
 * declares the tenant header as a security scheme, so Prism only checks that an API key is there.
 * An answer that would succeed becomes a 422.
 */
export function withFieldErrors(
  problem: GateProblem | undefined,
  status: number,
  parameterErrors: ProblemFieldError[],
  checked: ReadonlySet<string>,
  tenantError: ProblemFieldError | undefined,
  path: string,
): GateProblem | undefined {
  const extra = [...parameterErrors, ...(tenantError ? [tenantError] : [])];
  if (problem?.type === PROBLEM_TYPES.validation.type) {
    const errors = problem.errors ?? [];
    // Prism's words on a parameter the front checked itself give way to the front's.
    const others = errors.filter((e) => e.parameter === undefined || !checked.has(e.parameter));
    const parameters = others.filter((e) => e.parameter !== undefined);
    const fields = others.filter((e) => e.parameter === undefined);
    const all = [...parameterErrors, ...parameters, ...(tenantError ? [tenantError] : []), ...fields];
    // Nothing of the front's to add, or Prism refused only a value the shared rule takes: as it was.
    if (all.length === 0 || (extra.length === 0 && others.length === errors.length)) return problem;
    // A count is counted again; "more than the mock can list" stays.
    const detail = problem.detail === invalidFieldsDetail(errors.length) ? invalidFieldsDetail(all.length) : problem.detail;
    return { ...problem, ...(detail !== undefined ? { detail } : {}), errors: all };
  }
  if (extra.length === 0 || problem || status >= 400) return problem;
  return problemDetails("validation", invalidFieldsDetail(extra.length), path, extra);
}
