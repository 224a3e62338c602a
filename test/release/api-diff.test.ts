// The breaking-change gate (`npm run api:diff`): copies of the last release's bundle, each changed
// in one way, must be classified by the side they are on (a request change breaks clients when it
// narrows what they may send, a response change when it widens what they must accept), and the
// script must exit 1 on a breaking change unless both major versions were bumped (the script itself,
// run as a process, is test/check/release/api-diff-script.test.ts).
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { type Change, compareDocuments } from "../../tools/release/compare.ts";
import * as walk from "../../src/shared/walk.js";
import { ROOT } from "../support/document.js";

const RELEASES = join(ROOT, "api", "releases");

let baseline: any;
beforeAll(async () => {
  const names = (await readdir(RELEASES)).filter((n) => /^\d+\.\d+\.\d+\.json$/.test(n)).sort();
  baseline = JSON.parse(await readFile(join(RELEASES, names[0]!), "utf8"));
});

/** The changes between the baseline and a copy of it that `mutate` changed. */
function diff(mutate: (doc: any) => void): Change[] {
  const revision = structuredClone(baseline);
  mutate(revision);
  return compareDocuments(baseline, revision);
}

const schemas = (doc: any) => doc.components.schemas;
const summary = (changes: Change[]) => changes.map((c) => `${c.impact} ${c.side} ${c.where}: ${c.message}`);

describe("api:diff classification", () => {
  it("finds no change between a document and itself", () => {
    expect(diff(() => {})).toEqual([]);
  });

  it("ignores documentation-only changes", () => {
    expect(
      diff((d) => {
        d.info.description = "reworded";
        schemas(d).Deployment.properties.name.description = "reworded";
        d.paths["/v2/listeners"].get.summary = "reworded";
      }),
    ).toEqual([]);
  });

  describe("breaking", () => {
    const cases: Array<[string, (doc: any) => void, string]> = [
      ["a removed path", (d) => delete d.paths["/v2/listeners/{listener_id}"], "breaking document /v2/listeners/{listener_id}: path removed"],
      [
        "a removed operation",
        (d) => delete d.paths["/v2/listeners/{listener_id}"].patch,
        "breaking document PATCH /v2/listeners/{listener_id}: operation removed",
      ],
      ["a removed response field", (d) => delete schemas(d).Deployment.properties.image_version, "breaking response Deployment.image_version: field removed"],
      ["a removed request field", (d) => delete schemas(d).ListenerPatch.properties.version, "breaking request ListenerPatch.version: field removed"],
      ["a removed enum value (request parameter)", (d) => schemas(d).DeploymentType.enum.pop(), 'breaking request DeploymentType: enum value "prod" removed'],
      [
        "a removed enum value (response)",
        (d) => schemas(d).RevisionStatus.enum.splice(schemas(d).RevisionStatus.enum.indexOf("SKIPPED"), 1),
        'breaking response RevisionStatus: enum value "SKIPPED" removed',
      ],
      [
        "a parameter made required",
        (d) => requiredParameter(d, "/v2/listeners", "offset"),
        "breaking request GET /v2/listeners query parameter offset: parameter made required",
      ],
      [
        "a required parameter added",
        (d) => d.paths["/v2/listeners"].get.parameters.push({ name: "zone", in: "query", required: true, schema: { type: "string" } }),
        "breaking request GET /v2/listeners query parameter zone: required parameter added",
      ],
      ["a body field made required", (d) => (schemas(d).ListenerPatch.required = ["version"]), "breaking request ListenerPatch.version: field made required"],
      [
        "a request type narrowed (number to integer)",
        (d) => (resourceSpecField(d, "cpu").type = "integer"),
        "breaking request ResourceSpecInput.cpu: type number no longer allowed",
      ],
      [
        "a request bound added",
        (d) => (schemas(d).ListenerPatch.properties.version.maxLength = 3),
        "breaking request ListenerPatch.version: maxLength 3 added",
      ],
      [
        "a request bound tightened",
        (d) => (limitParameter(d).schema.maximum = 50),
        "breaking request GET /v2/listeners query parameter limit: maximum 100 -> 50",
      ],
      [
        "a request format added",
        (d) => (schemas(d).ListenerPatch.properties.version.format = "uuid"),
        "breaking request ListenerPatch.version: format uuid added",
      ],
      ["a request object closed", (d) => (schemas(d).Container.additionalProperties = false), "breaking request Container: unknown fields are now rejected"],
      [
        "a response field made optional",
        (d) => schemas(d).Deployment.required.splice(schemas(d).Deployment.required.indexOf("tenant_id"), 1),
        "breaking response Deployment.tenant_id: field made optional (may be absent)",
      ],
      [
        "a response field made nullable",
        (d) => (schemas(d).Deployment.properties.tenant_id.type = ["string", "null"]),
        "breaking response Deployment.tenant_id: made nullable (may be null)",
      ],
      [
        "a response object made nullable through anyOf",
        (d) => (schemas(d).Deployment.properties.source_config = { anyOf: [{ $ref: "#/components/schemas/SourceConfig" }, { type: "null" }] }),
        "breaking response Deployment.source_config: made nullable (may be null)",
      ],
      [
        "a response type widened",
        (d) => (schemas(d).Deployment.properties.name.type = ["string", "integer"]),
        "breaking response Deployment.name: type integer now allowed",
      ],
      [
        "a response enum value added",
        (d) => schemas(d).DeploymentStatus.enum.push("PAUSED"),
        'breaking response DeploymentStatus: enum value "PAUSED" added (clients may receive it)',
      ],
      [
        "a response header removed",
        (d) => delete d.components.responses.TooManyRequests.headers["Retry-After"],
        "breaking response GET /v2/listeners response 429 header Retry-After: header removed",
      ],
      [
        "a removed named schema",
        (d) => wholeRevisionsInList(d),
        "breaking document components.schemas.RevisionListItem: schema removed (its generated type is gone)",
      ],
      [
        "a way to authenticate withdrawn",
        (d) => (d.paths["/v2/auth/providers"].get.security = [{ ApiKey: [], TenantId: [] }]),
        "breaking request GET /v2/auth/providers security: a request with ApiKey is no longer accepted",
      ],
    ];
    for (const [name, mutate, expected] of cases) {
      it(name, () => {
        const changes = diff(mutate);
        expect(summary(changes)).toContain(expected);
      });
    }
  });

  describe("non-breaking (listed, passes)", () => {
    const cases: Array<[string, (doc: any) => void, string]> = [
      [
        "a path added",
        (d) => (d.paths["/v2/regions"] = { get: { operationId: "listRegions", responses: { "200": { description: "ok" } } } }),
        "non-breaking document /v2/regions: path added",
      ],
      [
        "an optional query parameter added",
        (d) => d.paths["/v2/listeners"].get.parameters.push({ name: "zone", in: "query", schema: { type: "string" } }),
        "non-breaking request GET /v2/listeners query parameter zone: optional parameter added",
      ],
      ["a response field added", (d) => (schemas(d).Deployment.properties.region = { type: "string" }), "non-breaking response Deployment.region: field added"],
      [
        "an optional request field added",
        (d) => (schemas(d).ListenerPatch.properties.zone = { type: "string" }),
        "non-breaking request ListenerPatch.zone: field added",
      ],
      ["a request enum value added", (d) => schemas(d).DeploymentType.enum.push("staging"), 'non-breaking request DeploymentType: enum value "staging" added'],
      [
        "a request bound loosened",
        (d) => (limitParameter(d).schema.maximum = 500),
        "non-breaking request GET /v2/listeners query parameter limit: maximum 100 -> 500",
      ],
      [
        "a request field made nullable",
        (d) => (schemas(d).ListenerPatch.properties.version.type = ["string", "null"]),
        "non-breaking request ListenerPatch.version: now accepts null",
      ],
      [
        "a response field made required",
        (d) => (schemas(d).Listener.required = [...(schemas(d).Listener.required ?? []), "id"]),
        "non-breaking response Listener.id: field made required (always sent)",
      ],
      [
        "a response bound added",
        (d) => (schemas(d).Deployment.properties.image_version.maxLength = 100),
        "non-breaking response Deployment.image_version: maxLength 100 added",
      ],
      [
        "a response nullable field made non-null",
        (d) => (schemas(d).Deployment.properties.image_version.type = "string"),
        "non-breaking response Deployment.image_version: no longer null",
      ],
      [
        "an error status documented",
        (d) => (d.paths["/v2/listeners"].get.responses["403"] = { description: "forbidden" }),
        "non-breaking response GET /v2/listeners response 403: response added",
      ],
    ];
    for (const [name, mutate, expected] of cases) {
      it(name, () => {
        const changes = diff(mutate);
        expect(summary(changes)).toContain(expected);
        expect(
          changes.filter((c) => c.impact === "breaking"),
          JSON.stringify(changes, null, 2),
        ).toEqual([]);
      });
    }
  });

  it("reports a change to a shared schema once, naming every operation that reaches it", () => {
    const changes = diff((d) => (schemas(d).Deployment.properties.tenant_id.type = ["string", "null"]));
    expect(changes).toHaveLength(1);
    expect(changes[0]!.operations.sort()).toEqual(["getDeployment", "listDeployments", "patchDeployment"]);
  });

  it("judges one change on each side it reaches: narrowing ResourceSpec bounds breaks requests, not responses", () => {
    // ResourceSpec is the response schema; ResourceSpecInput (the patch body's) is allOf ResourceSpec.
    const changes = diff((d) => (resourceSpecField(d, "cpu").maximum = 8));
    const impacts = changes.filter((c) => c.message === "maximum 8 added").map((c) => `${c.impact} ${c.side}`);
    expect(impacts.sort()).toEqual(["breaking request", "non-breaking response"]);
  });
});

function requiredParameter(doc: any, path: string, name: string): void {
  const op = doc.paths[path].get;
  op.parameters = op.parameters.map((p: any) => {
    const resolved = walk.deref(doc, p);
    return resolved.name === name ? { ...resolved, required: true } : p;
  });
}

function limitParameter(doc: any): any {
  const op = doc.paths["/v2/listeners"].get;
  const index = op.parameters.findIndex((p: any) => walk.deref(doc, p).name === "limit");
  op.parameters[index] = structuredClone(walk.deref(doc, op.parameters[index]));
  return op.parameters[index];
}

/** The revision list returns whole revisions: RevisionListItem goes. */
function wholeRevisionsInList(doc: any): void {
  schemas(doc).RevisionPage.properties.resources.items = { $ref: "#/components/schemas/Revision" };
  delete schemas(doc).RevisionListItem;
}

function resourceSpecField(doc: any, name: string): any {
  return schemas(doc).ResourceSpec.properties[name];
}
