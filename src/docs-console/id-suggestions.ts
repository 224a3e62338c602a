// The ids a reader can pick from: each id parameter's <datalist> starts with the seed's ids and
// gains every id an answer names (a new deployment's revisions, say), and a PATCH that creates a
// revision points every "get a revision" console at it.
import { h } from "./dom.js";
import type { ConsoleOperation } from "./requests.js";

const datalistIds = new Map<string, string>();
const datalistsByParam = new Map<string, Set<HTMLDataListElement>>();
// Every id an answer named, by parameter: a console built later (Redoc renders an operation when it
// is first shown) offers them too, not only the seed's.
const offeredIds = new Map<string, string[]>();
const MAX_OPTIONS = 100;

/** The id of a <datalist> offering these values for this parameter (one list per parameter and set of values). */
export function datalistFor(param: string, values: string[]): string {
  const key = `${param}\n${values.join("\n")}`;
  let id = datalistIds.get(key);
  if (!id) {
    id = `try-list-${datalistIds.size + 1}`;
    datalistIds.set(key, id);
    const offered = (offeredIds.get(param) ?? []).filter((value) => !values.includes(value));
    const list = h("datalist", { id }, ...[...values, ...offered].slice(0, MAX_OPTIONS).map((value) => h("option", { value })));
    document.body.append(list);
    if (!datalistsByParam.has(param)) datalistsByParam.set(param, new Set());
    datalistsByParam.get(param)!.add(list);
  }
  return id;
}

/** Offers an id an answer named (a new revision, say) in every list of that parameter, after the seed's own (at most 100). */
export function offer(param: string, value: string): void {
  const offered = offeredIds.get(param) ?? [];
  if (offered.length < MAX_OPTIONS && !offered.includes(value)) offeredIds.set(param, [...offered, value]);
  for (const list of datalistsByParam.get(param) ?? []) {
    if (list.options.length >= MAX_OPTIONS || [...list.options].some((o) => o.value === value)) continue;
    list.append(h("option", { value }));
  }
}

interface RevisionConsole {
  inputs: Map<string, HTMLInputElement>;
  refresh: () => void;
}
const revisionConsoles: RevisionConsole[] = [];
let newestRevision: { deploymentId: string; revisionId: string } | undefined;

function pointAt(target: RevisionConsole, deploymentId: string, revisionId: string): void {
  target.inputs.get("deployment_id")!.value = deploymentId;
  target.inputs.get("revision_id")!.value = revisionId;
  target.refresh();
}

/** A console that reads a revision by its deployment and id: it follows the newest revision made in the page, from now or from before it was built. */
export function followRevisions(target: RevisionConsole): void {
  revisionConsoles.push(target);
  if (newestRevision) pointAt(target, newestRevision.deploymentId, newestRevision.revisionId);
}

/**
 * A PATCH in the page created a revision: every console that reads a revision now asks for that
 * one (its deployment too), so "Get a revision" shows what was just deployed instead of the seed's.
 */
export function followNewRevision(deploymentId: string, revisionId: string): void {
  newestRevision = { deploymentId, revisionId };
  for (const target of revisionConsoles) pointAt(target, deploymentId, revisionId);
}

/** The path parameter an operation's answers hold ids of: /v2/deployments and /v2/deployments/{deployment_id} both give deployment_id. */
function idParameterOf(spec: ConsoleOperation, all: ConsoleOperation[]): string | undefined {
  const own = spec.path.match(/\/\{([^}]+)\}$/)?.[1];
  if (own) return own;
  for (const other of all) {
    const m = other.path.match(/\/\{([^}]+)\}$/);
    if (m && other.path === `${spec.path}/{${m[1]}}`) return m[1];
  }
  return undefined;
}

/** Offers the ids an answer holds: its resources' ids, and the revision ids a deployment names. */
export function harvest(spec: ConsoleOperation, all: ConsoleOperation[], body: unknown): void {
  const idParam = idParameterOf(spec, all);
  const visit = (value: unknown, depth: number) => {
    if (depth > 3 || !value || typeof value !== "object") return;
    if (Array.isArray(value)) {
      for (const item of value.slice(0, 100)) visit(item, depth + 1);
      return;
    }
    const record = value as Record<string, unknown>;
    if (idParam && typeof record.id === "string") offer(idParam, record.id);
    for (const key of ["latest_revision_id", "active_revision_id"]) if (typeof record[key] === "string") offer("revision_id", record[key] as string);
    for (const inner of Object.values(record)) if (inner && typeof inner === "object") visit(inner, depth + 1);
  };
  visit(body, 0);
}
