// Which fields of a deployment patch apply to which deployment `source`: the one table the
// simulator enforces, the client's deploy and rollback helpers and `dms` check before they send,
// the MCP tools describe and the document states (docs/decisions.md gives the reasons per field).
// The service says only that the fields "are validated according to the source"; a patch that
// sends a field of another source is refused whole, so nothing of it is applied. A field sent as
// null is always accepted: a field that does not apply is unset already. No Node imports.
import { REVISION_SOURCES, SOURCES } from "../../generated/constants.js";
import type { DeploymentPatch, RevisionSource, Source, SourceConfig, SourceRevisionConfig } from "./types.js";

/** A field of `source_config` a patch can send (deployment_type is set by the service). */
export type SourceConfigField = Exclude<keyof SourceConfig, "deployment_type">;
/** A field of `source_revision_config` a patch can send (repo_commit_sha is resolved by the service). */
export type RevisionConfigField = Exclude<keyof SourceRevisionConfig, "repo_commit_sha">;

export interface SourceRule {
  /** The `source_config` fields a deployment of this source takes. */
  sourceConfig: readonly SourceConfigField[];
  /** The `source_revision_config` fields its revisions are made from. */
  sourceRevisionConfig: readonly RevisionConfigField[];
  /** The `revision_source` values a patch of it may carry. */
  revisionSources: readonly NonNullable<RevisionSource>[];
  /** Whether `secret_references` (Kubernetes Secrets of a self-hosted cluster) apply. */
  secretReferences: boolean;
}

/** Every `source_config` field a patch can send, in the document's order. */
export const SOURCE_CONFIG_FIELDS = [
  "integration_id",
  "repo_url",
  "build_on_push",
  "custom_url",
  "resource_spec",
  "listener_id",
  "listener_config",
  "install_command",
  "build_command",
] as const satisfies readonly SourceConfigField[];

/** Every `source_revision_config` field a patch can send, in the document's order. */
export const REVISION_CONFIG_FIELDS = ["repo_ref", "graph_config_path", "image_uri", "source_tarball_path"] as const satisfies readonly RevisionConfigField[];

// The compile-time half of "every field": a field the document adds and this list lacks fails the build.
type Missing<All, Listed> = Exclude<All, Listed>;
const _allSourceConfig: [Missing<SourceConfigField, (typeof SOURCE_CONFIG_FIELDS)[number]>] extends [never] ? true : never = true;
const _allRevisionConfig: [Missing<RevisionConfigField, (typeof REVISION_CONFIG_FIELDS)[number]>] extends [never] ? true : never = true;
void _allSourceConfig;
void _allRevisionConfig;

/** Settings of every source: where it is served and with what resources. */
const EVERY_SOURCE = ["custom_url", "resource_spec"] as const;

/** The table. Reasons per field: docs/decisions.md, "Which fields apply to which source". */
export const SOURCE_RULES: Readonly<Record<Source, SourceRule>> = Object.freeze({
  scm_host: {
    sourceConfig: ["integration_id", "repo_url", "build_on_push", ...EVERY_SOURCE, "install_command", "build_command"],
    sourceRevisionConfig: ["repo_ref", "graph_config_path"],
    revisionSources: ["scm_host"],
    secretReferences: false,
  },
  external_docker: {
    sourceConfig: [...EVERY_SOURCE, "listener_id", "listener_config"],
    sourceRevisionConfig: ["image_uri"],
    revisionSources: [],
    secretReferences: true,
  },
  internal_docker: {
    sourceConfig: [...EVERY_SOURCE],
    sourceRevisionConfig: ["image_uri"],
    revisionSources: ["internal_docker"],
    secretReferences: false,
  },
  internal_source: {
    sourceConfig: [...EVERY_SOURCE, "install_command", "build_command"],
    sourceRevisionConfig: ["source_tarball_path", "graph_config_path"],
    revisionSources: ["internal_source"],
    secretReferences: false,
  },
});

/** The deployment sources, in the document's order. */
export const DEPLOYMENT_SOURCES: readonly Source[] = SOURCES;

/** One field of a patch that the deployment's source does not take. */
export interface SourceFieldViolation {
  /** A JSON Pointer into the patch: `/source_revision_config/repo_ref`, `/secret_references`. */
  pointer: string;
  /** The field as a dotted name: `source_revision_config.repo_ref`. */
  field: string;
  /** For people, without the field's name: "does not apply to internal_docker deployments (…)". */
  detail: string;
}

/** A `revision_source` the deployment's source does not take: the service answers it 400. */
export interface RevisionSourceViolation {
  pointer: "/revision_source";
  field: "revision_source";
  value: NonNullable<RevisionSource>;
  /** The service's sentence: "A revision_source of 'internal_docker' is only available for 'internal_docker' source deployments." */
  detail: string;
}

export interface SourceViolations {
  revisionSource: RevisionSourceViolation | undefined;
  fields: SourceFieldViolation[];
}

function listed(names: readonly string[]): string {
  return names.length === 0 ? "none" : names.join(", ");
}

/** The service's words for a revision_source the deployment's source does not take (the LangGraph CLI matches on them). */
export function revisionSourceDetail(value: string, source: Source): string {
  const takes = SOURCE_RULES[source].revisionSources;
  return (
    `A revision_source of '${value}' is only available for '${value}' source deployments; ` +
    `this deployment's source is '${source}'${takes.length > 0 ? `, which takes ${takes.map((s) => `'${s}'`).join(", ")}` : ", which takes none"}.`
  );
}

/**
 * What of `patch` the `source` does not take: the revision_source (answered 400, as the service
 * does) and each field present and not null that does not apply (answered 422, each named).
 * Empty when the patch fits. Fields the document does not know are the schema's to refuse, and a
 * source it does not know (a newer service's) has no rule here, so nothing is refused for it.
 */
export function sourceViolations(source: Source, patch: DeploymentPatch): SourceViolations {
  const rule = Object.hasOwn(SOURCE_RULES, source) ? SOURCE_RULES[source] : undefined;
  if (!rule || typeof patch !== "object" || patch === null) return { revisionSource: undefined, fields: [] };
  const fields: SourceFieldViolation[] = [];
  const check = (section: "source_config" | "source_revision_config", known: readonly string[], takes: readonly string[]) => {
    const given = patch[section];
    if (given === undefined || given === null || typeof given !== "object") return;
    for (const [name, value] of Object.entries(given)) {
      if (value === undefined || value === null || !known.includes(name) || takes.includes(name)) continue;
      fields.push({
        pointer: `/${section}/${name}`,
        field: `${section}.${name}`,
        detail: `does not apply to ${source} deployments (their ${section} fields: ${listed(takes)})`,
      });
    }
  };
  check("source_config", SOURCE_CONFIG_FIELDS, rule.sourceConfig);
  check("source_revision_config", REVISION_CONFIG_FIELDS, rule.sourceRevisionConfig);
  if (patch.secret_references !== undefined && patch.secret_references !== null && !rule.secretReferences) {
    fields.push({ pointer: "/secret_references", field: "secret_references", detail: `only applies to external_docker deployments, not ${source}` });
  }
  const value = patch.revision_source;
  const revisionSource =
    value !== undefined && value !== null && (REVISION_SOURCES as readonly unknown[]).includes(value) && !rule.revisionSources.includes(value)
      ? { pointer: "/revision_source" as const, field: "revision_source" as const, value, detail: revisionSourceDetail(value, source) }
      : undefined;
  return { revisionSource, fields };
}

/** True when nothing of the patch breaks the table for this source. */
export function fitsSource(source: Source, patch: DeploymentPatch): boolean {
  const { revisionSource, fields } = sourceViolations(source, patch);
  return revisionSource === undefined && fields.length === 0;
}

/**
 * The table in sentences, one per source, for descriptions (the MCP tools, the docs):
 * "internal_docker: source_revision_config image_uri; source_config custom_url, resource_spec; revision_source internal_docker".
 */
export function sourceRuleLines(): string[] {
  return DEPLOYMENT_SOURCES.map((source) => {
    const rule = SOURCE_RULES[source];
    return (
      `${source}: source_revision_config ${listed(rule.sourceRevisionConfig)}; source_config ${listed(rule.sourceConfig)}; ` +
      `revision_source ${listed(rule.revisionSources)}${rule.secretReferences ? "; secret_references" : ""}`
    );
  });
}

/** The deployment sources a field applies to (`source_revision_config.image_uri` → external_docker, internal_docker). */
export function sourcesTaking(section: "source_config" | "source_revision_config", field: string): Source[] {
  return DEPLOYMENT_SOURCES.filter((source) =>
    (section === "source_config" ? SOURCE_RULES[source].sourceConfig : SOURCE_RULES[source].sourceRevisionConfig).includes(field as never),
  );
}
