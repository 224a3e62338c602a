// The patch `dms deploy` sends, and the rule of which patch creates a revision.
import { describe, expect, it } from "vitest";
import { buildDeployPatch, createsRevision, readSecrets } from "../../src/cli/deploy-patch.js";
import type { DeploymentPatch } from "../../src/shared/types.js";

describe("createsRevision", () => {
  const cases: [string, DeploymentPatch, boolean][] = [
    ["source_revision_config", { source_revision_config: { repo_ref: "main" } }, true],
    ["an empty source_revision_config object", { source_revision_config: {} }, true],
    ["secrets", { secrets: [{ name: "A", value: "1" }] }, true],
    ["an empty secrets list", { secrets: [] }, true],
    ["secret_references", { secret_references: [{ name: "A", secret_name: "s", secret_key: "k" }] }, true],
    ["revision_source", { revision_source: "internal_source" }, true],
    ["source_config alone", { source_config: { resource_spec: { min_scale: 1 } } }, false],
    ["an empty patch", {}, false],
    ["null secrets and secret_references", { secrets: null, secret_references: null }, false],
    ["null secrets beside source_config", { source_config: {}, secrets: null }, false],
  ];
  it.each(cases)("%s", (_name, patch, expected) => {
    expect(createsRevision(patch)).toBe(expected);
  });
});

describe("buildDeployPatch", () => {
  it("sends exactly the fields given", () => {
    expect(buildDeployPatch({ ref: "release/2.4" }, [])).toEqual({ source_revision_config: { repo_ref: "release/2.4" } });
    expect(
      buildDeployPatch({ "graph-config-path": "agent.json", "image-uri": "r/i:1", "source-tarball-path": "s.tgz", "revision-source": "internal_docker" }, [
        { name: "A", value: "1" },
      ]),
    ).toEqual({
      source_revision_config: { graph_config_path: "agent.json", image_uri: "r/i:1", source_tarball_path: "s.tgz" },
      revision_source: "internal_docker",
      secrets: [{ name: "A", value: "1" }],
    });
    expect(buildDeployPatch({}, [])).toEqual({});
  });
});

describe("readSecrets", () => {
  it("splits NAME=VALUE at the first = and reads --secret-from-env from the environment", () => {
    expect(readSecrets({ secret: ["URL=a=b", "EMPTY="], "secret-from-env": ["FROM_ENV"] }, { FROM_ENV: "x" })).toEqual([
      { name: "URL", value: "a=b" },
      { name: "EMPTY", value: "" },
      { name: "FROM_ENV", value: "x" },
    ]);
  });

  it("rejects a secret name that is not an environment variable name, without showing the value", () => {
    expect(() => readSecrets({ secret: ["MY KEY=hunter2"] }, {})).toThrow(/--secret: the secret name must be/);
    expect(() => readSecrets({ secret: ["MY KEY=hunter2"] }, {})).not.toThrow(/hunter2/);
  });
});
