// The source table's cases, generated: every patch field (each source_config and
// source_revision_config field, secret_references, each revision_source value) on every deployment
// source, with the answer the table says it gets. The simulator tests (in-process and over HTTP)
// and the dms tests run the same list.
import { REVISION_SOURCES } from "../../generated/constants.js";
import { DEPLOYMENT_SOURCES, REVISION_CONFIG_FIELDS, revisionSourceDetail, SOURCE_CONFIG_FIELDS, SOURCE_RULES } from "../../src/shared/source-rules.js";
import type { DeploymentPatch, Source } from "../../src/shared/types.js";

/** A value the schema accepts for each source_config field, so only the source rule can refuse it. */
const SOURCE_CONFIG_SAMPLES: Record<(typeof SOURCE_CONFIG_FIELDS)[number], unknown> = {
  integration_id: "9c1e5a3f-2d7b-4f8e-b4a6-6e0d2c9f1b73",
  repo_url: "https://git.example.com/acme/agent",
  build_on_push: true,
  custom_url: "https://agent.example.com",
  resource_spec: { min_scale: 1 },
  listener_id: "5d8e2f1a-7b3c-4e9d-a6f2-0c1b8e7d3a54",
  listener_config: { k8s_namespace: "agents" },
  install_command: "pip install -e .",
  build_command: "make build",
};
const REVISION_CONFIG_SAMPLES: Record<(typeof REVISION_CONFIG_FIELDS)[number], string> = {
  repo_ref: "main",
  graph_config_path: "agent.json",
  image_uri: "registry.example.com/agents/x:9.9.9",
  source_tarball_path: "uploads/x/source-9.tar.gz",
};

export interface SourceCase {
  /** "internal_docker: source_revision_config.repo_ref". */
  name: string;
  source: Source;
  patch: DeploymentPatch;
  /** The dotted field: `source_revision_config.repo_ref`, `secret_references`, `revision_source`. */
  field: string;
  pointer: string;
  /** 200 when the source takes it, 422 for a field that does not apply, 400 for a revision_source of another source. */
  status: 200 | 400 | 422;
  /** The 400's detail. */
  detail?: string;
}

export function sourceCases(): SourceCase[] {
  const cases: SourceCase[] = [];
  for (const source of DEPLOYMENT_SOURCES) {
    const rule = SOURCE_RULES[source];
    const add = (field: string, patch: DeploymentPatch, applies: boolean, refusal: 400 | 422 = 422, detail?: string) =>
      cases.push({
        name: `${source}: ${field}`,
        source,
        patch,
        field,
        pointer: `/${field.split("=")[0]!.replaceAll(".", "/")}`,
        status: applies ? 200 : refusal,
        ...(applies || detail === undefined ? {} : { detail }),
      });
    for (const name of SOURCE_CONFIG_FIELDS) {
      add(`source_config.${name}`, { source_config: { [name]: SOURCE_CONFIG_SAMPLES[name] } }, (rule.sourceConfig as readonly string[]).includes(name));
    }
    for (const name of REVISION_CONFIG_FIELDS) {
      add(
        `source_revision_config.${name}`,
        { source_revision_config: { [name]: REVISION_CONFIG_SAMPLES[name] } },
        (rule.sourceRevisionConfig as readonly string[]).includes(name),
      );
    }
    add("secret_references", { secret_references: [{ name: "DB", secret_name: "db", secret_key: "url" }] }, rule.secretReferences);
    for (const value of REVISION_SOURCES) {
      add(`revision_source=${value}`, { revision_source: value }, rule.revisionSources.includes(value), 400, revisionSourceDetail(value, source));
    }
  }
  return cases;
}

/** Nulls are always accepted: one patch per source setting every field to null changes nothing it refuses. */
export function allNullPatch(): DeploymentPatch {
  return {
    source_config: Object.fromEntries(SOURCE_CONFIG_FIELDS.map((f) => [f, null])),
    source_revision_config: Object.fromEntries(REVISION_CONFIG_FIELDS.map((f) => [f, null])),
    secret_references: null,
    revision_source: null,
  };
}
