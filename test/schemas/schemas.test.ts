// deployment-management-api/schemas: a Standard Schema v1 for every schema of the document, built
// from the validators compiled at build time, checked by hand and through a real form library
// (TanStack Form's FormApi, which takes a Standard Schema as its validator).
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { FormApi } from "@tanstack/form-core";
import { describe, expect, it } from "vitest";
import * as schemas from "../../src/schemas/index.js";
import { DeploymentPatch, ListenerPatch, Deployment, RevisionStatus, type StandardResult } from "../../src/schemas/index.js";
import type { DeploymentPatch as DeploymentPatchType } from "../../src/index.js";
import { document, ROOT } from "../support/document.js";

const sync = <T>(result: StandardResult<T> | Promise<StandardResult<T>>) => result as StandardResult<T>;

describe("schemas", () => {
  it("exports one Standard Schema v1 per schema of the document, by its name", () => {
    const names = Object.keys((document as { components: { schemas: object } }).components.schemas);
    expect(Object.keys(schemas).sort()).toEqual([...names].sort());
    for (const name of names) {
      const standard = (schemas as Record<string, schemas.DmsSchema<unknown>>)[name]!["~standard"];
      expect(standard.version).toBe(1);
      expect(standard.vendor).toBe("deployment-management-api");
      expect(typeof standard.validate).toBe("function");
    }
  });

  it("a valid value comes back as the value, typed by generated/schema.d.ts", () => {
    const body = { source_revision_config: { repo_ref: "main" }, secrets: [{ name: "A", value: "b" }] };
    const result = sync(DeploymentPatch["~standard"].validate(body));
    expect(result.issues).toBeUndefined();
    if (!result.issues) {
      const patch: DeploymentPatchType = result.value;
      expect(patch).toBe(body);
    }
    expect(sync(RevisionStatus["~standard"].validate("DEPLOYED"))).toEqual({ value: "DEPLOYED" });
  });

  it("issues name each field by path segments, in the servers' words: unknown, read-only, format, required, type, enum", () => {
    const result = sync(
      DeploymentPatch["~standard"].validate({
        status: "READY",
        revision_source: "ftp",
        source_config: { listener_id: "not-a-uuid" },
        secrets: [{ name: "A", value: "b" }, { name: 5 }],
      }),
    );
    expect(result.issues).toEqual(
      expect.arrayContaining([
        { path: ["status"], message: "is not a field that can be sent here (unknown, read-only or unchangeable)" },
        { path: ["source_config", "listener_id"], message: 'must match format "uuid"' },
        { path: ["secrets", 1, "value"], message: "is required" },
        { path: ["secrets", 1, "name"], message: "must be string" },
      ]),
    );
    expect(result.issues!.find((i) => i.path?.[0] === "revision_source")?.message).toMatch(/^must be one of "scm_host"/);
    // The nullable wrapper's echoes ("must be null", "must match a schema in anyOf") are left out.
    expect(result.issues!.map((i) => i.message).filter((m) => /^must be null$|anyOf/.test(m))).toEqual([]);
    expect(sync(ListenerPatch["~standard"].validate("text")).issues).toEqual([{ path: [], message: "must be object" }]);
    // A key of an object that looks like a number stays a string; an array index is a number.
    const labels = sync(DeploymentPatch["~standard"].validate({ source_config: { resource_spec: { labels: { "7": 1 } } } }));
    expect(labels.issues?.[0]?.path).toEqual(["source_config", "resource_spec", "labels", "7"]);
  });

  it("checks a whole response too (Deployment): a missing required field", () => {
    const result = sync(Deployment["~standard"].validate({ id: "x" }));
    expect(result.issues!.map((i) => i.path?.join("."))).toEqual(expect.arrayContaining(["name", "source", "status"]));
  });

  it("TanStack Form validates a patch form with DeploymentPatch and shows each issue on its field", async () => {
    const form = new FormApi({
      defaultValues: { source_revision_config: { repo_ref: "main" }, source_config: { listener_id: "" as string | null } } as DeploymentPatchType,
      validators: { onChange: DeploymentPatch, onSubmit: DeploymentPatch },
    });
    form.mount();
    form.setFieldValue("source_config.listener_id", "not-a-uuid");
    await form.validate("change");
    expect(form.state.canSubmit).toBe(false);
    expect(form.getFieldMeta("source_config.listener_id")?.errors).toEqual([{ message: 'must match format "uuid"', path: ["source_config", "listener_id"] }]);
    expect(form.getFieldMeta("source_revision_config.repo_ref")?.errors ?? []).toEqual([]);
    form.setFieldValue("source_config.listener_id", "0f8e2d1c-6b5a-4c3d-9e8f-7a6b5c4d3e2f");
    await form.validate("change");
    expect(form.getFieldMeta("source_config.listener_id")?.errors).toEqual([]);
    let submitted: unknown;
    form.options.onSubmit = ({ value }) => {
      submitted = value;
    };
    await form.handleSubmit();
    expect(submitted).toEqual({ source_revision_config: { repo_ref: "main" }, source_config: { listener_id: "0f8e2d1c-6b5a-4c3d-9e8f-7a6b5c4d3e2f" } });
  });

  it("runs the build-time validators: no ajv at run time in the entry's modules", async () => {
    const sources = await Promise.all(["src/schemas/index.ts", "src/schemas/standard.ts"].map((f) => readFile(join(ROOT, f), "utf8")));
    for (const source of sources) expect(source).not.toMatch(/from "ajv/);
    const generated = await readFile(join(ROOT, "generated/schemas/DeploymentPatch.js"), "utf8");
    expect(generated).not.toMatch(/new Function|eval\(|from "ajv/);
  });
});

describe("numbers a JavaScript value can hold and JSON cannot", () => {
  // Every number or integer property of every schema, from the document: NaN (a form's empty number
  // field read with Number or parseFloat) and the infinities must be issues there, never valid: sent,
  // JSON.stringify would write them as null, which clears the field on the service.
  const types = (property: { type?: unknown; anyOf?: { type?: unknown }[] }): unknown[] =>
    [property.type, ...(property.anyOf ?? []).map((branch) => branch.type)].flat().filter((t) => t !== undefined);
  const numeric = Object.entries(document.components.schemas as Record<string, { properties?: Record<string, { type?: unknown }> }>).flatMap(([name, schema]) =>
    Object.entries(schema.properties ?? {})
      .filter(([, property]) => types(property).some((t) => t === "number" || t === "integer"))
      .map(([field]) => [name, field] as const),
  );
  it("the document has number fields to check", () => {
    expect(numeric.length).toBeGreaterThan(5);
  });
  it.each(numeric.flatMap(([name, field]) => [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY].map((value) => [name, field, value] as const)))(
    "%s.%s = %s is an issue at that field",
    (name, field, value) => {
      const result = sync((schemas as Record<string, schemas.DmsSchema<unknown>>)[name]!["~standard"].validate({ [field]: value }));
      expect(result.issues?.some((issue) => issue.path?.length === 1 && issue.path[0] === field)).toBe(true);
    },
  );
});
