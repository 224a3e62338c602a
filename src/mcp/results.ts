// What a tool call answers: its data as structuredContent and the same as JSON text, or an error
// result (isError) an agent can act on: the field and what was wrong with it, in the problem
// details' words. Nothing here throws: every failure becomes a result, so that no call can take the
// server down or leave a request unanswered.
import { isWorkspaceRequired, workspaceAdvice } from "../shared/problems.js";
import { NoRevisionCreatedError, PatchOutcomeUnknownError } from "../client/deploy-revision.js";
import { ApiError } from "../client/errors.js";
import { type ChangePlan, planLines } from "../client/plan.js";
import { isUnreadPatchSuccess, ResponseTooLargeError } from "../client/response-size.js";
import { RequestTimeoutError } from "../client/timeout.js";
import { checkNesting, Masker } from "../shared/mask.js";
import { jsonSafe, terminalSafe } from "../shared/terminal-text.js";
import { patchMayHaveBeenApplied } from "../shared/unknown-outcome.js";

/** How the MCP server says to check a change whose outcome is unknown. */
const CHECK_WITH = "list_revisions or get_deployment (a new latest_revision_id means it was)";
import { RevisionWaitTimeoutError } from "../client/wait-for-revision.js";
import { ArgumentError } from "./arguments.js";

export interface ToolResult {
  [key: string]: unknown;
  content: { type: "text"; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

/** Data as a result: structuredContent, and the same JSON as text for clients that read only text. */
export function dataResult(data: Record<string, unknown>, options: { isError?: boolean; summary?: string } = {}): ToolResult {
  // An answer nested deeper than any of the document: NestedTooDeepError, before JSON.stringify overflows the stack.
  checkNesting(data);
  const content: ToolResult["content"] = [];
  if (options.summary) content.push({ type: "text", text: options.summary });
  content.push({ type: "text", text: JSON.stringify(data) });
  return { content, structuredContent: data, ...(options.isError ? { isError: true } : {}) };
}

/** A dry run's answer: the plan (secret values are masked with the rest of the result), nothing sent. */
export function planResult(tool: string, plan: ChangePlan): ToolResult {
  return dataResult({ dry_run: true, plan: { ...plan } }, { summary: `${tool}: dry run, nothing was sent.` });
}

/** A change the person declined (or did not answer) when asked to confirm it: nothing was sent. */
export function declinedResult(tool: string, plan: ChangePlan): ToolResult {
  return errorResult(
    `${tool}: not confirmed, nothing was sent: the change was declined or not answered when the user was asked. ` +
      `Call ${tool} again only if the user asks for it; dry_run: true shows the plan without asking.\n` +
      // Secret values by structure: this text is not the result's data, which the server masks.
      planLines(new Masker().data(plan)).map(terminalSafe).join("\n"),
  );
}

/**
 * The most bytes one tool result may have as JSON, its structured data and its text together: 1 MiB,
 * the bound on a message coming in. The SDK's client closes the session past 10 MB; an upstream
 * answer of a few megabytes would otherwise be sent twice over (as data and as its JSON text).
 */
export const MAX_RESULT_BYTES = 1024 * 1024;

const byteSize = (value: unknown): number => new TextEncoder().encode(JSON.stringify(value)).byteLength;

/**
 * A result within `maxBytes`. A list (the data's first array member) is cut to the items that fit,
 * with a note saying how to read the rest (a paged list's `offset` then names the first item left
 * out); any other data keeps its structured form and drops its text copy, with a note; data too
 * large even alone is not sent, and the error says how to read it.
 */
export function boundedResult(tool: string, result: ToolResult, maxBytes = MAX_RESULT_BYTES): ToolResult {
  const total = byteSize(result);
  const data = result.structuredContent;
  if (total <= maxBytes || data === undefined) return result;
  const json = JSON.stringify(data);
  const words = result.content.filter((block) => block.text !== json).map((block) => block.text);
  const options = (summary: string) => ({ summary: [...words, summary].join("\n"), ...(result.isError ? { isError: true } : {}) });
  const cap = `to stay under ${maxBytes} bytes, the cap on a result`;
  const listKey = Object.keys(data).find((key) => Array.isArray(data[key]));
  const items = listKey === undefined ? undefined : data[listKey];
  if (listKey !== undefined && Array.isArray(items)) {
    const offset = data.offset;
    const paged = typeof offset === "number";
    const cut = (kept: number): ToolResult => {
      const next = paged ? { offset: offset - (items.length - kept) } : {};
      const how = paged
        ? `call ${tool} again with offset ${next.offset} (a smaller limit keeps each answer under the cap) to read the rest`
        : "the rest cannot be paged here: read it with dms or the API";
      return dataResult(
        { ...data, [listKey]: items.slice(0, kept), ...next },
        options(`${tool}: cut to the first ${kept} of ${items.length} items ${cap}; ${how}.`),
      );
    };
    // The most items that fit, found by halving.
    let low = 0;
    let high = items.length - 1;
    while (low < high) {
      const mid = Math.ceil((low + high) / 2);
      if (byteSize(cut(mid)) <= maxBytes) low = mid;
      else high = mid - 1;
    }
    const answer = cut(low);
    if (byteSize(answer) <= maxBytes) return answer;
  }
  const dataOnly: ToolResult = {
    content: [...words, `${tool}: the answer is ${json.length} characters of JSON; its text copy is left out ${cap}: read structuredContent.`].map((text) => ({
      type: "text" as const,
      text,
    })),
    structuredContent: data,
    ...(result.isError ? { isError: true } : {}),
  };
  if (byteSize(dataOnly) <= maxBytes) return dataOnly;
  return errorResult(
    `${tool}: the answer is ${total} bytes, over the ${maxBytes}-byte cap on a result, so it is not sent: read it with dms or the API (the same call), ` +
      "or narrow it with the tool's arguments.",
  );
}

/**
 * A result whose structured content does not match its tool's output schema (the service answered
 * off the document): the data as JSON text only, with a note saying so, as an error result, which
 * a client does not check against the schema. dms prints such an answer as it came; an agent reads it here.
 */
export function offSchemaResult(tool: string, result: ToolResult, problem: string): ToolResult {
  const json = JSON.stringify(result.structuredContent);
  const words = result.content.filter((block) => block.text !== json).map((block) => block.text);
  const hasJson = words.length < result.content.length;
  const shown = problem.length > 500 ? `${problem.slice(0, 500)}…` : problem;
  const note =
    `${tool}: the service's answer does not match the document (${terminalSafe(shown)}), so it is given as JSON text, not as structured content` +
    (hasJson ? ":" : "; it is too large to give as text here: read it with dms or the API (the same call).");
  // The JSON text with the controls a terminal or a dialog acts on (bidi, C1, separators) as \u escapes:
  // still the same JSON value, and shown by the rule of every other text of the server.
  return { content: [...words, note, ...(hasJson ? [jsonSafe(json)] : [])].map((text) => ({ type: "text" as const, text })), isError: true };
}

export function errorResult(text: string): ToolResult {
  return { content: [{ type: "text", text }], isError: true };
}

/** `/source_config/cpu` as the argument it came from: `source_config.cpu`. */
function fieldOfPointer(pointer: string): string {
  if (pointer === "") return "(body)";
  return pointer
    .slice(1)
    .split("/")
    .map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"))
    .reduce((out, segment) => (/^\d+$/.test(segment) ? `${out}[${segment}]` : out === "" ? segment : `${out}.${segment}`), "");
}

/** An error response of the service: status, title, detail, and each field with its detail. */
function apiErrorText(tool: string, error: ApiError): string {
  // The service's words, each kept on its line and shown as it is (escaped as dms escapes them), so
  // that a line break in a detail cannot forge a field error and an escape cannot drive a terminal.
  const lines = [`${tool}: the service answered ${error.status} ${terminalSafe(`${error.title}: ${error.detail}`)}`];
  for (const field of error.errors) {
    const where = field.parameter ?? fieldOfPointer(field.pointer ?? "");
    lines.push(`- ${terminalSafe(`${where}: ${field.detail}`)}`);
  }
  // An organisation key without a workspace: the server is started with the tenant (dms mcp reads DMS_TENANT_ID).
  if (isWorkspaceRequired(error.status, error.detail))
    lines.push(`${workspaceAdvice("DMS_TENANT_ID (or --tenant-id) where this MCP server is started")}: this cannot be fixed by changing the arguments.`);
  else if (error.status === 401 || error.status === 403)
    lines.push("The API key or tenant of this server is not accepted: this cannot be fixed by changing the arguments.");
  else if (error.status === 429 || error.status >= 500) lines.push("The service is busy or failing; trying again later may work.");
  return lines.join("\n");
}

/**
 * The PATCH created a revision, then reading it failed (the service failing or unreachable, a
 * request timing out): the answer must still name the revision, or an agent would deploy again.
 */
export class CreatedRevisionUnreadError extends Error {
  override readonly name = "CreatedRevisionUnreadError";
  constructor(
    readonly deploymentId: string,
    readonly revisionId: string,
    override readonly cause: unknown,
  ) {
    super(`revision ${revisionId} of deployment ${deploymentId} was created, but reading it failed`);
  }
}

/** Any error of a tool as a result. */
export function failureResult(tool: string, error: unknown): ToolResult {
  if (error instanceof CreatedRevisionUnreadError) {
    // What went wrong, without the advice to try again: trying the tool again would create another revision.
    const why = failureResult(tool, error.cause)
      .content[0]!.text.replace(`${tool}: `, "")
      .replace(/\nThe service is busy or failing; trying again later may work\.$/, "");
    return errorResult(
      `${tool}: ${error.message}: ${why}\nThe revision goes on without this call. Do not call ${tool} again for it: ` +
        `call wait_for_revision with deployment_id ${error.deploymentId} and revision_id ${error.revisionId} to follow it.`,
    );
  }
  if (error instanceof ArgumentError) {
    return errorResult([`${tool}: invalid arguments, nothing was sent:`, ...error.issues.map((i) => `- ${i.field}: ${i.detail}`)].join("\n"));
  }
  if (error instanceof ApiError) return errorResult(apiErrorText(tool, error));
  if (error instanceof NoRevisionCreatedError) return errorResult(`${tool}: ${error.message}`);
  if (
    (error instanceof RequestTimeoutError && error.method === "PATCH") ||
    error instanceof PatchOutcomeUnknownError ||
    (error instanceof ResponseTooLargeError && isUnreadPatchSuccess(error))
  ) {
    // Sent and not answered (or answered with success, too large to read): trying again could deploy twice.
    return errorResult(
      `${tool}: ${error.message}; ${patchMayHaveBeenApplied(CHECK_WITH)}. Do not call ${tool} again before checking: if it was applied, ` +
        "that would create another revision.",
    );
  }
  if (error instanceof RevisionWaitTimeoutError || error instanceof RequestTimeoutError) return errorResult(`${tool}: ${error.message}`);
  if (error instanceof Error && error.name === "AbortError") return errorResult(`${tool}: cancelled`);
  // fetch's own failures (refused connection, DNS) are TypeErrors whose cause says why.
  const cause = error instanceof Error && error.cause instanceof Error ? ` (${error.cause.message})` : "";
  const message = error instanceof Error ? `${error.message}${cause}` : String(error);
  return errorResult(`${tool}: ${message}`);
}
