// The ids a reader can pick from: each id parameter's <datalist> starts with the seed's ids and
// gains every id an answer names (a new deployment's revisions, say), and a PATCH that creates a
// revision points every "get a revision" console at it.
import { h } from "./dom.js";
import type { ConsoleOperation } from "./requests.js";

const datalistIds = new Map<string, string>();
const datalistsByParam = new Map<string, Set<HTMLDataListElement>>();

/** The id of a <datalist> offering these values for this parameter (one list per parameter and set of values). */
export function datalistFor(param: string, values: string[]): string {
  const key = `${param}\n${values.join("\n")}`;
  let id = datalistIds.get(key);
  if (!id) {
    id = `try-list-${datalistIds.size + 1}`;
    datalistIds.set(key, id);
    const list = h("datalist", { id }, ...values.map((value) => h("option", { value })));
    document.body.append(list);
    if (!datalistsByParam.has(param)) datalistsByParam.set(param, new Set());
    datalistsByParam.get(param)!.add(list);
  }
  return id;
}

/** Offers an id an answer named (a new revision, say) in every list of that parameter, after the seed's own (at most 100). */
export function offer(param: string, value: string): void {
  for (const list of datalistsByParam.get(param) ?? []) {
    if (list.options.length >= 100 || [...list.options].some((o) => o.value === value)) continue;
    list.append(h("option", { value }));
  }
}

/** The consoles that ask for a revision by its deployment and id: each follows the newest revision made in the page. */
export const revisionConsoles: { inputs: Map<string, HTMLInputElement>; refresh: () => void }[] = [];

/**
 * A PATCH in the page created a revision: every console that reads a revision now asks for that
 * one (its deployment too), so "Get a revision" shows what was just deployed instead of the seed's.
 */
export function followNewRevision(deploymentId: string, revisionId: string): void {
  for (const { inputs, refresh } of revisionConsoles) {
    inputs.get("deployment_id")!.value = deploymentId;
    inputs.get("revision_id")!.value = revisionId;
    refresh();
  }
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
