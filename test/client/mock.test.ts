// The typed client against the Prism mock (with the problem+json front, as `npm start` serves it):
// every GET of the document answers data that matches its documented schema, PATCH sends a valid body,
// and error responses become ApiErrors with the documented problem details.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiError, createDeploymentsClient, type DeploymentsClient, unwrap } from "../../src/index.js";
import { listOperations, type OpenApiDocument } from "../../src/shared/walk.js";
import { createOpenApiValidator, describeErrors } from "../support/openapi-validator.js";
import { document, deref, operations } from "../support/document.js";
import { type RunningPrism, startPrism } from "../support/prism.js";
import { unwrapError } from "../support/unwrap-error.js";

let prism: RunningPrism;
let client: DeploymentsClient;
const validator = createOpenApiValidator(document);

beforeAll(async () => {
  prism = await startPrism({ front: true });
  client = createDeploymentsClient({ baseUrl: prism.baseUrl, apiKey: "test-key", tenantId: "3f9a0c1e-5b2d-4c7e-9f10-2a3b4c5d6e7f" });
});
afterAll(async () => {
  await prism?.close();
});

/** A valid value for a path parameter from its schema: the example if there is one, else a uuid or a word. */
function pathValue(parameter: any): string {
  const schema = deref(parameter.schema);
  if (parameter.example !== undefined) return String(parameter.example);
  if (schema.example !== undefined) return String(schema.example);
  return schema.format === "uuid" ? "6b0d8a52-3c1e-4f7a-9b2d-1e5f3a7c9d01" : "github";
}

// The paths come from the document at run time, so these calls are untyped; the type tests check the typing.
type UntypedCall = (path: string, init: object) => Promise<{ data?: unknown; error?: unknown; response: Response }>;

const getOperations = operations().filter((o) => o.method === "get");
/** The GETs whose data a test below called and validated, filled in as they pass. */
const checkedGets = new Set<string>();

describe("client against the Prism mock", () => {
  for (const { path, op, pathItem } of getOperations) {
    it(`GET ${path} (${op.operationId}) returns data matching the documented 200 schema`, async () => {
      const parameters = [...(pathItem.parameters ?? []), ...(op.parameters ?? [])].map((p: unknown) => deref(p));
      const pathParams = Object.fromEntries(parameters.filter((p: any) => p.in === "path").map((p: any) => [p.name, pathValue(p)]));
      const result = await (client.GET as unknown as UntypedCall)(path, { params: { path: pathParams } });
      const data = unwrap(result);
      const schema = deref(op.responses["200"]).content["application/json"].schema;
      const validate = validator.validatorFor(schema, `mock-test ${op.operationId}`);
      expect(validate(data), describeErrors(validate.errors)).toBe(true);
      checkedGets.add(`GET ${path} ${op.operationId}`);
    });
  }

  // Runs after the GETs above (tests in a file run in order). The expected list comes from the
  // document through src/shared/walk.ts, not from the list the loop above was built from.
  it("covers every GET of the document", () => {
    const expected = listOperations(document as OpenApiDocument)
      .filter((o) => o.method === "get")
      .map((o) => `GET ${o.path} ${o.operationId}`);
    expect(expected.length).toBeGreaterThanOrEqual(10);
    expect([...checkedGets].sort()).toEqual(expected.sort());
  });

  it("a typed GET and a typed PATCH of a deployment", async () => {
    const params = { path: { deployment_id: "6b0d8a52-3c1e-4f7a-9b2d-1e5f3a7c9d01" } };
    const deployment = unwrap(await client.GET("/v2/deployments/{deployment_id}", { params }));
    expect(typeof deployment.name).toBe("string");
    const patched = unwrap(await client.PATCH("/v2/deployments/{deployment_id}", { params, body: { source_revision_config: { repo_ref: "main" } } }));
    expect(patched.latest_revision_id === null || typeof patched.latest_revision_id === "string").toBe(true);
  });

  it("a list query with comma-separated arrays passes the mock's validation", async () => {
    const page = unwrap(
      await client.GET("/v2/deployments", {
        params: {
          query: {
            status: "READY",
            deployment_ids: ["6b0d8a52-3c1e-4f7a-9b2d-1e5f3a7c9d01", "6b0d8a52-3c1e-4f7a-9b2d-1e5f3a7c9d02"],
            tag_value_ids: ["a", "b"],
          },
        },
      }),
    );
    expect(Array.isArray(page.resources)).toBe(true);
  });

  it("a request without an API key is a 401 ApiError of kind unauthorized", async () => {
    // The client refuses an empty apiKey, so this fetch takes the header off on the way out.
    const anonymous = createDeploymentsClient({
      baseUrl: prism.baseUrl,
      apiKey: "k",
      fetch: (request) => {
        request.headers.delete("X-Api-Key");
        return fetch(request);
      },
    });
    const result = await anonymous.GET("/v2/listeners");
    const error = unwrapError(result);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 401, method: "GET", path: "/v2/listeners", kind: "unauthorized" });
  });

  it("a query out of bounds is a 422 ApiError that names the parameter", async () => {
    const result = await client.GET("/v2/deployments", { params: { query: { limit: 1000 } } });
    expect(result.response.headers.get("content-type")).toContain("application/problem+json");
    const error = unwrapError(result);
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(422);
    expect(error.kind).toBe("validation");
    expect(error.errors.some((e) => e.parameter === "limit")).toBe(true);
  });

  it("a patch body with a read-only field is a 422 ApiError that points at it", async () => {
    const result = await client.PATCH("/v2/deployments/{deployment_id}", {
      params: { path: { deployment_id: "6b0d8a52-3c1e-4f7a-9b2d-1e5f3a7c9d01" } },
      // Sent as an untyped caller would: the type of the body forbids it (see test/types/client.types.ts).
      body: { latest_revision_id: "6b0d8a52-3c1e-4f7a-9b2d-1e5f3a7c9d01" } as never,
    });
    const error = unwrapError(result);
    expect(error).toMatchObject({ status: 422, method: "PATCH" });
    expect(error.errors.length).toBeGreaterThan(0);
  });
});
