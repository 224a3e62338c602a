// The list endpoints' filters: what a deployment or revision must match to be listed. Every filter
// given must match (AND); a list of values matches any of them (OR).
import type { DeploymentRecord, DeploymentStatus, DeploymentType, RevisionRecord, RevisionStatus } from "../model.js";

export interface DeploymentFilter {
  name_contains?: string;
  status?: DeploymentStatus;
  remote_reconciled?: boolean;
  tag_value_ids?: string[];
  image_version?: string;
  deployment_type?: DeploymentType;
  deployment_ids?: string[];
}

export interface RevisionFilter {
  status?: RevisionStatus[];
  remote_reconciled?: boolean;
}

/** The test of a deployment filter; undefined when it filters nothing (a page then skips straight to its offset). */
export function deploymentMatcher(filter: DeploymentFilter): ((r: DeploymentRecord) => boolean) | undefined {
  const tests: ((r: DeploymentRecord) => boolean)[] = [];
  if (filter.name_contains !== undefined) {
    const needle = filter.name_contains.toLowerCase();
    tests.push((r) => r.deployment.name.toLowerCase().includes(needle));
  }
  if (filter.status !== undefined) tests.push((r) => r.deployment.status === filter.status);
  if (filter.remote_reconciled !== undefined) tests.push((r) => r.remote_reconciled === filter.remote_reconciled);
  if (filter.tag_value_ids !== undefined) {
    const wanted = filter.tag_value_ids;
    tests.push((r) => wanted.some((t) => r.tag_value_ids.includes(t)));
  }
  if (filter.image_version !== undefined) tests.push((r) => r.deployment.image_version === filter.image_version);
  if (filter.deployment_type !== undefined) tests.push((r) => r.deployment_type === filter.deployment_type);
  if (filter.deployment_ids !== undefined) {
    const ids = new Set(filter.deployment_ids);
    tests.push((r) => ids.has(r.deployment.id));
  }
  if (tests.length === 0) return undefined;
  return (r) => tests.every((t) => t(r));
}

export function revisionMatcher(filter: RevisionFilter): (r: RevisionRecord) => boolean {
  const statuses = filter.status && new Set(filter.status);
  return (r) => (!statuses || statuses.has(r.revision.status)) && (filter.remote_reconciled === undefined || r.remote_reconciled === filter.remote_reconciled);
}
