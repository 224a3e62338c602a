// The document against recorded facts of what the real service sends, where the interface is
// silent. It calls no service: the facts below are this test's own record of the real service's
// behaviour (docs/decisions.md, "What the real service sends"): which fields it always sends, which
// it sends as null, and the bounds it enforces. The test fails when a schema is stricter than the service (a consumer would
// crash on a null the type said could not be there) or looser where the service guarantees a field.
import { describe, expect, it } from "vitest";
import { createOpenApiValidator, describeErrors } from "./support/openapi-validator.js";
import { document } from "./support/document.js";

const validator = createOpenApiValidator(document);
const schema = (name: string) => validator.validatorAt(`#/components/schemas/${name}`);

interface Facts {
  /** Fields the service always sends. */
  required: string[];
  /** Fields the service sends as null. */
  nullable: string[];
  /** A payload as the service sends it, with every nullable field null. */
  sample: Record<string, unknown>;
}

const uuid = "3fa85f64-5717-4562-b3fc-2c963f66afa6";
const when = "2026-11-20T16:42:10Z";
const revisionConfig = { repo_ref: null, graph_config_path: null, image_uri: "registry.example.com/a:1", source_tarball_path: null, repo_commit_sha: null };

const FACTS: Record<string, Facts> = {
  Revision: {
    required: ["id", "created_at", "updated_at", "status", "source", "source_revision_config"],
    nullable: [],
    sample: { id: uuid, created_at: when, updated_at: when, status: "BUILDING", source: "internal_docker", source_revision_config: revisionConfig },
  },
  Listener: {
    required: ["compute_type", "compute_id", "compute_config", "id", "created_at", "updated_at"],
    nullable: ["version"],
    sample: {
      id: uuid,
      compute_type: "k8s",
      compute_id: "prod-eu",
      compute_config: { k8s_namespaces: null },
      version: null,
      created_at: when,
      updated_at: when,
    },
  },
  AgentConnection: {
    required: ["id", "agent_id", "oauth_token_id", "provider_id", "provider_account_label", "scopes", "expires_at", "created_by", "created_at"],
    nullable: ["provider_account_label", "expires_at"],
    sample: {
      id: "c1",
      agent_id: "a1",
      oauth_token_id: "t1",
      provider_id: "github",
      provider_account_label: null,
      scopes: ["repo"],
      expires_at: null,
      created_by: "u1",
      created_at: when,
    },
  },
  Secret: { required: ["name", "value"], nullable: [], sample: { name: "A", value: "b" } },
  SecretReference: { required: ["name", "secret_name", "secret_key"], nullable: [], sample: { name: "A", secret_name: "s", secret_key: "k" } },
  ListenerConfig: { required: [], nullable: ["k8s_namespace"], sample: { k8s_namespace: null } },
  ImagePullSecret: { required: ["name"], nullable: [], sample: { name: "registry-creds" } },
  Container: {
    required: ["name", "image"],
    nullable: ["imagePullPolicy", "command", "args", "workingDir", "env", "envFrom", "resources", "volumeMounts", "securityContext", "restartPolicy"],
    sample: {
      name: "otel",
      image: "otel/collector:1",
      imagePullPolicy: null,
      command: null,
      args: null,
      workingDir: null,
      env: null,
      envFrom: null,
      resources: null,
      volumeMounts: null,
      securityContext: null,
      restartPolicy: null,
    },
  },
  EnvVar: { required: ["name"], nullable: ["value", "valueFrom"], sample: { name: "A", value: null, valueFrom: null } },
  VolumeMount: {
    required: [],
    nullable: ["subPath", "mountPropagation", "readOnly", "subPathExpr"],
    sample: { name: "cfg", mountPath: "/etc/agent", subPath: null, mountPropagation: null, readOnly: null, subPathExpr: null },
  },
  Volume: {
    required: [],
    nullable: ["configMap", "secret", "emptyDir", "persistentVolumeClaim", "nfs", "projected", "downwardAPI", "csi"],
    sample: {
      name: "cfg",
      configMap: { name: "x" },
      secret: null,
      emptyDir: null,
      persistentVolumeClaim: null,
      nfs: null,
      projected: null,
      downwardAPI: null,
      csi: null,
    },
  },
  ResourceRequirements: { required: [], nullable: ["limits", "requests"], sample: { limits: null, requests: null } },
};

// Every resource_spec field may be null.
const RESOURCE_SPEC_FIELDS = Object.keys(document.components.schemas.ResourceSpec.properties);
const CPU_BOUNDS: Record<string, [number, number]> = {
  cpu: [0.1, 8],
  queue_cpu: [0.1, 8],
  redis_cpu: [0.1, 8],
  cpu_limit: [0.1, 16],
  queue_cpu_limit: [0.1, 16],
  redis_cpu_limit: [0.1, 16],
};

describe("the document accepts what the real service sends", () => {
  for (const [name, facts] of Object.entries(FACTS)) {
    it(`${name}: a payload as the service sends it validates`, () => {
      const validate = schema(name);
      expect(validate(facts.sample), describeErrors(validate.errors)).toBe(true);
    });

    it(`${name}: the fields the service always sends are required`, () => {
      const validate = schema(name);
      for (const field of facts.required) {
        const { [field]: _dropped, ...without } = facts.sample;
        expect(validate(without), `${name} without ${field} must be rejected`).toBe(false);
      }
      // And nothing else is required: the service may leave the other fields out.
      const onlyRequired = Object.fromEntries(facts.required.map((f) => [f, facts.sample[f]]));
      expect(validate(onlyRequired), describeErrors(validate.errors)).toBe(true);
    });

    // Only the schemas with such fields get this test, so a run shows no skipped ones.
    if (facts.nullable.length > 0) {
      it(`${name}: the fields the service sends as null accept null`, () => {
        const validate = schema(name);
        for (const field of facts.nullable) {
          expect(validate({ ...facts.sample, [field]: null }), `${name}.${field} = null: ${describeErrors(validate.errors)}`).toBe(true);
        }
      });
    }
  }

  it("ResourceSpec: every field accepts null", () => {
    expect(RESOURCE_SPEC_FIELDS.length).toBeGreaterThanOrEqual(40);
    const validate = schema("ResourceSpec");
    const allNull = Object.fromEntries(RESOURCE_SPEC_FIELDS.map((f) => [f, null]));
    expect(validate(allNull), describeErrors(validate.errors)).toBe(true);
  });

  it("ResourceSpec: cpu requests are 0.1 to 8 cores and limits 0.1 to 16, fractions allowed", () => {
    const validate = schema("ResourceSpec");
    for (const [field, [low, high]] of Object.entries(CPU_BOUNDS)) {
      expect(validate({ [field]: low }), field).toBe(true);
      expect(validate({ [field]: 0.5 }), field).toBe(true);
      expect(validate({ [field]: high }), field).toBe(true);
      expect(validate({ [field]: low / 2 }), `${field} below ${low}`).toBe(false);
      expect(validate({ [field]: high + 1 }), `${field} above ${high}`).toBe(false);
    }
  });

  it("a deployment carries source_config.deployment_type (or null), and a patch may not send it", () => {
    const deployment = structuredClone(document.components.examples.DeploymentScmHost.value);
    const validate = schema("Deployment");
    for (const value of ["dev_free", "dev", "prod", null]) {
      deployment.source_config.deployment_type = value;
      expect(validate(deployment), describeErrors(validate.errors)).toBe(true);
    }
    deployment.source_config.deployment_type = "staging";
    expect(validate(deployment)).toBe(false);
    const patch = schema("DeploymentPatch");
    expect(patch({ source_config: { deployment_type: "prod" } })).toBe(false);
  });

  it("the revision list holds whole revisions", () => {
    const validate = schema("RevisionPage");
    const whole = FACTS.Revision!.sample;
    expect(validate({ resources: [whole], offset: 1 }), describeErrors(validate.errors)).toBe(true);
    const { status: _status, ...reduced } = whole;
    expect(validate({ resources: [reduced], offset: 1 }), "a list item without status").toBe(false);
  });

  it("every Revision, Listener and AgentConnection example of the document carries the always-sent fields", () => {
    const examples = Object.values<any>(document.components.examples).map((e) => e.value);
    const items = examples.flatMap((v) => (Array.isArray(v?.resources) ? v.resources : Array.isArray(v?.data) ? v.data : [v]));
    let checked = 0;
    for (const item of items) {
      if (item?.compute_type !== undefined) {
        for (const f of FACTS.Listener!.required) expect(item, `listener example ${item.id}`).toHaveProperty(f);
        checked++;
      } else if (item?.oauth_token_id !== undefined) {
        for (const f of FACTS.AgentConnection!.required) expect(item, `connection example ${item.id}`).toHaveProperty(f);
        checked++;
      } else if (item?.source_revision_config !== undefined && item?.tenant_id === undefined && item?.id !== undefined) {
        for (const f of FACTS.Revision!.required) expect(item, `revision example ${item.id}`).toHaveProperty(f);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(5);
  });
});
