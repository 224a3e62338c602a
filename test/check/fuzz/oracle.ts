// What every answer must be, read from the document: a status the operation lists, a media type the
// document gives for that status, a body its schema accepts (ajv 2020 with formats, compiled from
// generated/openapi.json), and for problem details a `type` of the document's table whose status
// is the answer's. Returns the broken invariants as sentences (empty: the answer is fine).
import { createOpenApiValidator, describeErrors } from "../../support/openapi-validator.js";
import { deref, listOperations } from "../../../src/shared/walk.js";
import { document } from "../../support/document.js";
import type { Answer } from "./targets.js";

const validator = createOpenApiValidator(document);
const operationsById = new Map(listOperations(document).map((op) => [op.operationId, op]));
const PROBLEM_KINDS: { kind: string; status: number }[] = document.components.schemas.Problem["x-problem-types"];
export const PROBLEM_TYPE_PREFIX = "urn:deployment-management-api:problem:";

/** The statuses the document lists for an operation. */
export function documentedStatuses(operationId: string): string[] {
  return Object.keys(operationsById.get(operationId)!.operation.responses);
}

/** The problem `type` of an answer, when it is problem details. */
export function problemType(answer: Answer): string | undefined {
  if (!answer.contentType.startsWith("application/problem+json")) return undefined;
  try {
    const body = JSON.parse(answer.text);
    return typeof body?.type === "string" ? body.type : undefined;
  } catch {
    return undefined;
  }
}

export function checkAnswer(operationId: string, method: string, answer: Answer): string[] {
  const broken: string[] = [];
  const op = operationsById.get(operationId)!;
  if (answer.status >= 500) broken.push(`5xx: ${answer.status}`);
  const status = String(answer.status);
  const response = op.operation.responses[status];
  if (!response) {
    broken.push(`status ${status} is not documented for ${operationId} (documented: ${documentedStatuses(operationId).join(", ")})`);
    return broken;
  }
  const content = deref<any>(document, response).content ?? {};
  if (method === "HEAD" || answer.status === 204) return broken;
  const mediaType = answer.contentType.split(";")[0]!.trim().toLowerCase();
  if (!(mediaType in content)) {
    broken.push(`content-type "${answer.contentType}" is not documented for ${status} (documented: ${Object.keys(content).join(", ") || "no body"})`);
    return broken;
  }
  let body: any;
  try {
    body = JSON.parse(answer.text);
  } catch {
    broken.push(`the body is not JSON: ${answer.text.slice(0, 200)}`);
    return broken;
  }
  const validate = validator.validatorFor(content[mediaType].schema, `response:${operationId}:${status}:${mediaType}`);
  if (!validate(body)) broken.push(`the body breaks the schema of ${status}: ${describeErrors(validate.errors).slice(0, 500)}`);
  if (mediaType === "application/problem+json") {
    if (body.status !== answer.status) broken.push(`problem status ${body.status} is not the answer's ${answer.status}`);
    const kind = typeof body.type === "string" && body.type.startsWith(PROBLEM_TYPE_PREFIX) ? body.type.slice(PROBLEM_TYPE_PREFIX.length) : undefined;
    const entry = PROBLEM_KINDS.find((k) => k.kind === kind);
    if (body.type !== "about:blank" && !entry) broken.push(`problem type ${body.type} is not in the document's table`);
    if (entry && entry.status !== answer.status) broken.push(`problem type ${body.type} is for ${entry.status}, answered with ${answer.status}`);
  }
  return broken;
}
