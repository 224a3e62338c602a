// Every named example in the document (request bodies and responses) validates against the
// schema of its media type, with ajv in 2020-12 mode compiled from the bundle.
import { describe, expect, it } from "vitest";
import { createOpenApiValidator, describeErrors } from "./support/openapi-validator.js";
import { deref, document, operations } from "./support/document.js";

const validator = createOpenApiValidator(document);

const cases: { name: string; schema: object; value: unknown }[] = [];
for (const { operationId, op } of operations()) {
  const media: [string, any][] = [];
  if (op.requestBody) media.push(["request", deref(op.requestBody).content]);
  for (const [status, response] of Object.entries<any>(op.responses)) media.push([status, deref(response).content ?? {}]);
  for (const [where, content] of media) {
    for (const [type, mt] of Object.entries<any>(content)) {
      for (const [exampleName, example] of Object.entries<any>(mt.examples ?? {})) {
        cases.push({ name: `${operationId} ${where} ${type} ${exampleName}`, schema: mt.schema, value: deref(example).value });
      }
    }
  }
}

describe("examples", () => {
  it("every operation's 200 response has at least one named example", () => {
    for (const { operationId, op } of operations()) {
      expect(Object.keys(op.responses["200"].content["application/json"].examples ?? {}), operationId).not.toHaveLength(0);
    }
  });

  it.each(cases.map((c) => [c.name, c] as const))("%s validates against its schema", (_name, c) => {
    const validate = validator.validatorFor(c.schema, JSON.stringify(c.schema));
    const ok = validate(c.value);
    expect(ok, describeErrors(validate.errors)).toBe(true);
  });

  it("every example component is used, and the ids connect", () => {
    const examples = document.components.examples;
    const deployments = Object.entries<any>(examples).filter(([n]) => /^Deployment(ScmHost|ExternalDocker|InternalDocker|InternalSource)$/.test(n));
    const pageIds = examples.DeploymentPageFirst.value.resources.map((d: any) => d.id);
    const revisionIds = new Set(
      Object.values<any>(examples)
        .filter((e) => e.value?.status && e.value?.source_revision_config)
        .map((e) => e.value.id),
    );
    for (const [, d] of deployments) expect(pageIds).toContain(d.value.id);
    // The scm deployment's latest and active revisions are both shown as revision examples.
    expect(revisionIds).toContain(examples.DeploymentScmHost.value.latest_revision_id);
    expect(revisionIds).toContain(examples.DeploymentScmHost.value.active_revision_id);
  });

  it("a problem example's words match its body: it promises no `errors` it lacks, and counts the ones it has", () => {
    const problems = Object.entries<any>(document.components.examples).filter(([, e]) => typeof e.value?.status === "number" && e.value.status >= 400);
    expect(problems.length).toBeGreaterThan(5);
    for (const [name, { value }] of problems) {
      const errors: unknown[] | undefined = value.errors;
      // "each invalid field is named in errors", "listed in errors": a promise of field errors.
      if (!Array.isArray(errors) || errors.length === 0) expect(value.detail, name).not.toMatch(/(named|listed|given) in `?errors`?/i);
      const counted = /\b(\d+) invalid fields?\b/.exec(value.detail ?? "");
      if (counted) expect(errors?.length, name).toBe(Number(counted[1]));
    }
  });

  it("rejects a broken example (the check can fail)", () => {
    const schema = { $ref: "#/components/schemas/Deployment" };
    const validate = validator.validatorFor(schema, "broken-check");
    const broken = { ...document.components.examples.DeploymentScmHost.value, status: "RUNNING" };
    expect(validate(broken)).toBe(false);
  });
});
