// The body of `dms deploy`'s PATCH, built from its flags.
import { REVISION_SOURCES } from "../../generated/constants.js";
import type { SourceMismatchError } from "../client/deploy-revision.js";
import type { DeploymentPatch, RevisionSource } from "../shared/types.js";
import { nonEmpty, parseChoices, UsageError } from "./usage.js";

export interface DeployPatchFlags {
  ref?: string | undefined;
  "graph-config-path"?: string | undefined;
  "image-uri"?: string | undefined;
  "source-tarball-path"?: string | undefined;
  "revision-source"?: string | undefined;
  secret?: string[] | undefined;
  "secret-from-env"?: string[] | undefined;
}

/** The patch field each `dms deploy` flag sets: what a refusal by the source table names. */
export const DEPLOY_FLAG_OF_FIELD: Readonly<Record<string, string>> = Object.freeze({
  "source_revision_config.repo_ref": "--ref",
  "source_revision_config.graph_config_path": "--graph-config-path",
  "source_revision_config.image_uri": "--image-uri",
  "source_revision_config.source_tarball_path": "--source-tarball-path",
  revision_source: "--revision-source",
  secrets: "--secret",
});

/**
 * The usage message for a patch the deployment's source does not take (the client's
 * SourceMismatchError, thrown before the PATCH): for `dms deploy` each flag that does not fit,
 * named; for `dms rollback` the fields the target revision ran.
 */
export function sourceMismatchMessage(error: SourceMismatchError, command: "deploy" | "rollback"): string {
  const said = error.violations.map((v) => {
    const what = v.field === "revision_source" ? v.detail : `${v.field} ${v.detail}`;
    const flag = DEPLOY_FLAG_OF_FIELD[v.field];
    return command === "deploy" && flag ? `${flag} does not fit this deployment: ${what}` : what;
  });
  const head =
    command === "deploy"
      ? `deployment ${error.deploymentId} is ${error.source}`
      : `the rollback of ${error.source} deployment ${error.deploymentId} would send a patch its source does not take`;
  return `${head}; nothing was sent: ${said.join("; ")}`;
}

// The rule of which patch creates a revision lives in one place, for the CLI, the client and the simulator.
export { createsRevision } from "../shared/revision-rules.js";

// Kubernetes' rule for environment variable names, the strictest place a secret name ends up.
const SECRET_NAME = /^[-._a-zA-Z][-._a-zA-Z0-9]*$/;

/** The secrets of --secret NAME=VALUE and --secret-from-env NAME. Messages never contain a value. */
export function readSecrets(flags: DeployPatchFlags, env: NodeJS.ProcessEnv): { name: string; value: string }[] {
  const secrets: { name: string; value: string }[] = [];
  const add = (flag: string, name: string, value: string) => {
    if (!SECRET_NAME.test(name)) {
      throw new UsageError(`${flag}: the secret name must be letters, digits, "_", "-" or "." (the value is not shown)`);
    }
    if (secrets.some((s) => s.name === name)) throw new UsageError(`${flag}: the secret ${name} is given twice`);
    secrets.push({ name, value });
  };
  for (const pair of flags.secret ?? []) {
    const equals = pair.indexOf("=");
    if (equals <= 0) throw new UsageError("--secret needs NAME=VALUE (the value is not shown)");
    add("--secret", pair.slice(0, equals), pair.slice(equals + 1));
  }
  for (const name of flags["secret-from-env"] ?? []) {
    const value = env[name];
    // An empty value is what CI gives for a repository secret that does not exist.
    if (value === undefined || value === "") {
      throw new UsageError(`--secret-from-env ${name}: the environment variable ${name} is ${value === undefined ? "not set" : "empty"}`);
    }
    add("--secret-from-env", name, value);
  }
  return secrets;
}

/** The patch with exactly the fields the flags give. */
export function buildDeployPatch(flags: DeployPatchFlags, secrets: { name: string; value: string }[]): DeploymentPatch {
  const patch: DeploymentPatch = {};
  const config = {
    repo_ref: nonEmpty("--ref", flags.ref),
    graph_config_path: nonEmpty("--graph-config-path", flags["graph-config-path"]),
    image_uri: nonEmpty("--image-uri", flags["image-uri"]),
    source_tarball_path: nonEmpty("--source-tarball-path", flags["source-tarball-path"]),
  };
  const given = Object.fromEntries(Object.entries(config).filter(([, value]) => value !== undefined));
  if (Object.keys(given).length > 0) patch.source_revision_config = given;
  if (flags["revision-source"] !== undefined) {
    const raw = flags["revision-source"];
    if (raw.includes(",")) throw new UsageError(`--revision-source takes one value: ${REVISION_SOURCES.join(", ")}`);
    patch.revision_source = parseChoices("--revision-source", raw, REVISION_SOURCES, "a revision source")[0] as RevisionSource;
  }
  if (secrets.length > 0) patch.secrets = secrets;
  return patch;
}
