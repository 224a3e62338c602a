// Writing: the statements that save each kind of StateChange, as data (SQL and parameters) that the
// worker runs. A change is turned into statements on the main thread, so a value JSON cannot hold
// fails its own write before anything reaches the file.
import type { StateChange } from "../../core/changes.js";
import type { RevisionRecord } from "../../core/model.js";
import type { Write } from "./protocol.js";

/** The statements a write runs, by name; the worker prepares each once. */
const SQL = {
  putDeployment: `INSERT INTO deployments (id, deployment, deployment_type, remote_reconciled, tag_value_ids, fail_next) VALUES (?, ?, ?, ?, ?, ?)
    ON CONFLICT (id) DO UPDATE SET deployment = excluded.deployment, deployment_type = excluded.deployment_type,
      remote_reconciled = excluded.remote_reconciled, tag_value_ids = excluded.tag_value_ids, fail_next = excluded.fail_next`,
  putRevision: `INSERT INTO revisions (id, deployment_id, revision, remote_reconciled, step_at_ms, fail_with) VALUES (?, ?, ?, ?, ?, ?)
    ON CONFLICT (id) DO UPDATE SET deployment_id = excluded.deployment_id, revision = excluded.revision,
      remote_reconciled = excluded.remote_reconciled, step_at_ms = excluded.step_at_ms, fail_with = excluded.fail_with`,
  deleteRevision: "DELETE FROM revisions WHERE id = ? AND deployment_id = ?",
  putListener: "INSERT INTO listeners (id, listener) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET listener = excluded.listener",
  setClock: "UPDATE simulator SET clock_offset_ms = ?, last_created_ms = ? WHERE id = 1",
  putSimulator: "INSERT OR REPLACE INTO simulator (id, clock_offset_ms, last_created_ms, providers, connections, repositories) VALUES (1, ?, ?, ?, ?, ?)",
  clearRevisions: "DELETE FROM revisions",
  clearDeployments: "DELETE FROM deployments",
  clearListeners: "DELETE FROM listeners",
} as const;

/** JSON would write Infinity and NaN as null, so what a restart reads back would differ from memory. */
function json(value: unknown): string {
  return JSON.stringify(value, (key, v) => {
    if (typeof v === "number" && !Number.isFinite(v)) throw new RangeError(`"${key}" is ${v}, which JSON cannot hold`);
    return v;
  });
}

/** The statements that save one change, appended to `out`. Throws a RangeError for a number JSON cannot hold. */
export function writes(change: StateChange, out: Write[]): Write[] {
  switch (change.op) {
    case "put_deployment": {
      const r = change.row;
      out.push([SQL.putDeployment, [r.deployment.id, json(r.deployment), r.deployment_type, r.remote_reconciled ? 1 : 0, json(r.tag_value_ids), r.fail_next]]);
      return out;
    }
    case "put_revision":
      return putRevision(change.deployment_id, change.record, out);
    case "delete_revision":
      out.push([SQL.deleteRevision, [change.revision_id, change.deployment_id]]);
      return out;
    case "put_listener":
      out.push([SQL.putListener, [change.listener.id, json(change.listener)]]);
      return out;
    case "set_clock":
      out.push([SQL.setClock, [change.clock_offset_ms, change.last_created_ms]]);
      return out;
    case "replace_state": {
      const state = change.state;
      out.push([SQL.clearRevisions, []], [SQL.clearDeployments, []], [SQL.clearListeners, []]);
      out.push([SQL.putSimulator, [state.clock_offset_ms, state.last_created_ms, json(state.providers), json(state.connections), json(state.repositories)]]);
      for (const record of state.deployments) {
        writes({ op: "put_deployment", row: record }, out);
        for (const revision of record.revisions) putRevision(record.deployment.id, revision, out);
      }
      for (const listener of state.listeners) out.push([SQL.putListener, [listener.id, json(listener)]]);
      return out;
    }
  }
}

function putRevision(deploymentId: string, r: RevisionRecord, out: Write[]): Write[] {
  out.push([SQL.putRevision, [r.revision.id, deploymentId, json(r.revision), r.remote_reconciled ? 1 : 0, r.step_at_ms, r.fail_with]]);
  return out;
}
