// Reads a 1.0 state file, once, for `--import-state`: FILE held the whole state as JSON (the
// snapshot) and FILE.journal the changes made since, one record per line:
// `<byte length of json> <crc32 of json, 8 hex digits> <json>\n`, json being an array of changes in
// the 1.0 vocabulary (put_deployment carried a deployment with all its revisions). A last line cut
// short (a crash while it was written) is ignored, as 1.0 did. Neither file is changed.
import { closeSync, constants, existsSync, readFileSync } from "node:fs";
import { crc32 } from "node:zlib";
import type { DeploymentRecord, Listener, State } from "../core/model.js";
import { checkUserFile, openUserFile, UnusableFileError } from "../../local-server/user-file.js";

/** The journal beside a 1.0 state file. */
function v1JournalPath(file: string): string {
  return `${file}.journal`;
}

/** Whether `file` (of which `head` are the first bytes; undefined when it does not exist) looks like a 1.0 state file. */
export function isV1StateFile(file: string, head: Buffer | undefined): boolean {
  if (head === undefined || head.length === 0) return existsSync(v1JournalPath(file));
  // 1.0 wrote the snapshot as JSON.stringify(state), "format" first.
  return /^\s*\{\s*"format"\s*:\s*"dms-simulator-state"/.test(head.toString("latin1"));
}

type V1Change =
  | { op: "put_deployment"; record: DeploymentRecord }
  | { op: "put_listener"; listener: Listener }
  | { op: "set_clock"; clock_offset_ms: number; last_created_ms: number }
  | { op: "replace_state"; state: State };

/** The state a 1.0 state file holds, snapshot and journal replayed. Throws `fail(reason)` when it is not one. */
export function readV1StateFile(file: string, fail: (reason: string) => Error): State {
  let state: State | undefined;
  // Looked at before it is opened: readFileSync of a FIFO would wait for a writer forever.
  const read = (path: string): Buffer | undefined => {
    try {
      if (checkUserFile(path) === "missing") return undefined;
      const fd = openUserFile(path, constants.O_RDONLY);
      try {
        return readFileSync(fd);
      } finally {
        closeSync(fd);
      }
    } catch (error) {
      if (error instanceof UnusableFileError) throw fail(`${path} cannot be read: ${error.reason}`);
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      throw fail(`${path} cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
    }
  };
  const snapshot = read(file);
  if (snapshot && snapshot.length > 0) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(snapshot.toString("utf8"));
    } catch {
      throw fail("it is not JSON");
    }
    state = checkState(parsed, fail);
  }
  const journal = read(v1JournalPath(file));
  for (let offset = 0; journal && offset < journal.length; ) {
    const end = journal.indexOf(0x0a, offset);
    if (end === -1) break; // cut short by a crash: 1.0 ignored it too
    const line = journal.subarray(offset, end);
    const header = /^(\d{1,15}) ([0-9a-f]{8}) /.exec(line.subarray(0, 32).toString("latin1"));
    const body = header ? line.subarray(header[0].length) : undefined;
    if (!header || !body || body.length !== Number(header[1]) || crc32(body) !== Number.parseInt(header[2]!, 16)) {
      if (end === journal.length - 1) break; // the last record, torn
      throw fail(`its journal record at byte ${offset} is damaged`);
    }
    let changes: unknown;
    try {
      changes = JSON.parse(body.toString("utf8"));
    } catch {
      throw fail(`its journal record at byte ${offset} is not JSON`);
    }
    if (!Array.isArray(changes)) throw fail(`its journal record at byte ${offset} is not a list of changes`);
    for (const change of changes as V1Change[]) state = replay(state, change, offset, fail);
    offset = end + 1;
  }
  if (!state) throw fail("it holds no state (no snapshot, and no journal)");
  return state;
}

function replay(state: State | undefined, change: V1Change, offset: number, fail: (reason: string) => Error): State {
  const unknown = () => fail(`its journal record at byte ${offset} holds a change the simulator does not know`);
  if (!change || typeof change !== "object") throw unknown();
  if (change.op === "replace_state") return checkState(change.state, fail);
  if (!state) throw fail(`its journal record at byte ${offset} changes a state that was never saved`);
  switch (change.op) {
    case "put_deployment": {
      const record = change.record;
      if (!record?.deployment || typeof record.deployment.id !== "string" || !Array.isArray(record.revisions)) throw unknown();
      const i = state.deployments.findIndex((d) => d.deployment.id === record.deployment.id);
      if (i >= 0) state.deployments[i] = record;
      else state.deployments.push(record);
      return state;
    }
    case "put_listener": {
      if (typeof change.listener?.id !== "string") throw unknown();
      const i = state.listeners.findIndex((l) => l.id === change.listener.id);
      if (i >= 0) state.listeners[i] = change.listener;
      else state.listeners.push(change.listener);
      return state;
    }
    case "set_clock":
      if (typeof change.clock_offset_ms !== "number" || typeof change.last_created_ms !== "number") throw unknown();
      state.clock_offset_ms = change.clock_offset_ms;
      state.last_created_ms = change.last_created_ms;
      return state;
    default:
      throw unknown();
  }
}

type FieldRule = [name: string, what: string, ok: (value: unknown) => boolean];
const isNullableText = (v: unknown) => v === null || v === undefined || typeof v === "string";
// Only what a row cannot be written without (remote_reconciled is written as true or false, and a
// missing failure as null, whatever the file holds).
const DEPLOYMENT_FIELDS: FieldRule[] = [
  ["deployment_type", "a string", (v) => typeof v === "string"],
  ["tag_value_ids", "a list", Array.isArray],
  ["fail_next", "a string or null", isNullableText],
];
const REVISION_FIELDS: FieldRule[] = [
  ["step_at_ms", "a number", (v) => typeof v === "number" && Number.isFinite(v)],
  ["fail_with", "a string or null", isNullableText],
];

/** What is wrong with a record's fields, or undefined. */
function recordProblem(record: Record<string, unknown>, rules: FieldRule[]): string | undefined {
  const broken = rules.find(([name, , ok]) => !ok(record[name]));
  return broken && `has ${JSON.stringify(broken[0])} that is not ${broken[1]}`;
}

/** The shape of a 1.0 state; the rows are checked again once written to SQLite, as at every start. */
function checkState(value: unknown, fail: (reason: string) => Error): State {
  const s = value as Partial<State> | null;
  if (!s || typeof s !== "object" || s.format !== "dms-simulator-state" || s.version !== 1) {
    throw fail('it is not a 1.0 simulator state (no "format": "dms-simulator-state", "version": 1)');
  }
  for (const key of ["deployments", "listeners", "providers"] as const) if (!Array.isArray(s[key])) throw fail(`its "${key}" is not an array`);
  for (const d of s.deployments!) {
    if (!d || typeof d !== "object" || typeof d.deployment?.id !== "string" || !Array.isArray(d.revisions)) throw fail("it holds a malformed deployment");
    const id = JSON.stringify(d.deployment.id);
    if (d.revisions.some((r) => !r || typeof r !== "object" || !r.revision || typeof r.revision !== "object")) {
      throw fail(`deployment ${id} holds a malformed revision`);
    }
    // The fields every row of the state file is written with: without one, SQLite's own words
    // ("Provided value cannot be bound to SQLite parameter 3") would be all a person got.
    const own = recordProblem(d as unknown as Record<string, unknown>, DEPLOYMENT_FIELDS);
    if (own) throw fail(`deployment ${id} ${own}`);
    for (const r of d.revisions) {
      const problem = recordProblem(r as unknown as Record<string, unknown>, REVISION_FIELDS);
      if (problem) throw fail(`revision ${JSON.stringify(r.revision.id) ?? "(no id)"} of deployment ${id} ${problem}`);
    }
    d.fail_next ??= null;
    for (const r of d.revisions) r.fail_with ??= null;
  }
  if (s.listeners!.some((l) => !l || typeof l !== "object")) throw fail("it holds a malformed listener");
  if (!s.connections || typeof s.connections !== "object") throw fail('its "connections" is missing');
  if (!s.repositories || typeof s.repositories !== "object") throw fail('its "repositories" is missing');
  if (typeof s.clock_offset_ms !== "number" || typeof s.last_created_ms !== "number") throw fail("its clock fields are missing");
  return s as State;
}
