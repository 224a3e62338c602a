// The simulator's state: plain JSON (so persistence can write it as it is), with the
// resource shapes taken from the generated types. Fields the documents do not carry (deployment
// tier, tags, remote reconciliation, lifecycle bookkeeping) live beside the resource, not in it.
import type { components } from "../../../generated/schema.js";
import type { FailureStatus } from "../../shared/revision-rules.js";

// The generated types mark read-only fields `readonly`; the simulator is the service that sets them.
type Writable<T> = T extends readonly (infer U)[] ? Writable<U>[] : T extends object ? { -readonly [K in keyof T]: Writable<T[K]> } : T;
type Schemas = { [K in keyof components["schemas"]]: Writable<components["schemas"][K]> };
export type Deployment = Schemas["Deployment"];
export type DeploymentPatch = Schemas["DeploymentPatch"];
export type DeploymentStatus = Schemas["DeploymentStatus"];
export type DeploymentType = Schemas["DeploymentType"];
export type RevisionStatus = Schemas["RevisionStatus"];
export type Revision = Schemas["Revision"] &
  Required<Pick<Schemas["Revision"], "id" | "created_at" | "updated_at" | "status" | "source" | "source_revision_config">>;
export type Listener = Schemas["Listener"] & Required<Pick<Schemas["Listener"], "id">>;
export type ListenerPatch = Schemas["ListenerPatch"];
export type OAuthProvider = Schemas["OAuthProvider"];
export type AgentConnection = Schemas["AgentConnection"];
export type Repository = Schemas["Repository"];
export type { FailureStatus };

export interface RevisionRecord {
  revision: Revision;
  remote_reconciled: boolean;
  /** Simulated time (ms) at which the revision entered its current status. */
  step_at_ms: number;
  /** The failure this revision ends in instead of DEPLOYED (from POST /_simulator/fail-next). */
  fail_with: FailureStatus | null;
}

export interface DeploymentRecord {
  deployment: Deployment;
  deployment_type: DeploymentType;
  remote_reconciled: boolean;
  tag_value_ids: string[];
  /** Oldest first; lists read it backwards. */
  revisions: RevisionRecord[];
  fail_next: FailureStatus | null;
}

export interface State {
  format: "dms-simulator-state";
  version: 1;
  /** How far POST /_simulator/advance has moved the simulated clock ahead of real time. */
  clock_offset_ms: number;
  /** Keeps created_at strictly increasing. */
  last_created_ms: number;
  /** Oldest first. */
  deployments: DeploymentRecord[];
  listeners: Listener[];
  providers: OAuthProvider[];
  /** Agent id -> its connections; an agent with an empty list exists but has none. */
  connections: Record<string, AgentConnection[]>;
  /** Integration id -> repositories, per kind of integration. */
  repositories: { scm: Record<string, Repository[]>; forge: Record<string, Repository[]> };
}
