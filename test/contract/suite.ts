// The contract suite: the cases derived from generated/openapi.json (./cases.ts), run over real
// HTTP against any server that implements the API. Register it with defineContractSuite().
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOpenApiValidator, describeErrors } from "../../src/simulator/openapi-validator.js";
import { document } from "../support/document.js";
import { deriveCases, successSchema, type ContractCase, type ExpectedField } from "./cases.js";
import { discoverIds, idKeyFor, type IdName } from "./ids.js";

export interface ContractTarget {
  baseUrl: string;
  apiKey: string;
  tenantId?: string;
  /** PATCH cases (valid and invalid) run only when true: they may change the server's data. */
  allowPatch: boolean;
  /** Ids to use in paths; those not given are discovered from the list endpoints. */
  ids?: Partial<Record<IdName, string>>;
  label?: string;
  /**
   * Also require what the document promises beyond the status: 422 for a request that breaks the
   * document, and an `errors` entry naming the broken field (`pointer` or `parameter`).
   */
  strictErrors?: boolean;
}

export type { IdName };

const validator = createOpenApiValidator(document);
const { cases, notDerivable } = deriveCases(document);

/** The derived cases, for reporting (counts per operation). */
export function contractCases(): { cases: ContractCase[]; notDerivable: string[] } {
  return { cases, notDerivable };
}

export function defineContractSuite(name: string, target: () => ContractTarget | Promise<ContractTarget>): void {
  describe(name, () => {
    let resolved: ContractTarget;
    let ids: Record<IdName, string>;
    const tally = new Map<string, { cases: number; ran: number; passed: number; skipped: number }>();

    beforeAll(async () => {
      resolved = await target();
      ids = await discoverIds(document, resolved);
    });

    afterAll(() => {
      const rows = [...tally].map(([operation, t]) => ({ operation, ...t }));
      const total = rows.reduce((sum, r) => ({ cases: sum.cases + r.cases, ran: sum.ran + r.ran, passed: sum.passed + r.passed, skipped: sum.skipped + r.skipped }), { cases: 0, ran: 0, passed: 0, skipped: 0 });
      console.log(`contract suite "${name}"${resolved?.label ? ` (${resolved.label})` : ""}: cases derived from generated/openapi.json`);
      console.table([...rows, { operation: "TOTAL", ...total }]);
      if (notDerivable.length > 0) console.log(`constraints no request could break (not run): ${notDerivable.join("; ")}`);
    });

    const byOperation = new Map<string, ContractCase[]>();
    for (const c of cases) byOperation.set(c.operationId, [...(byOperation.get(c.operationId) ?? []), c]);
    for (const [operationId, operationCases] of byOperation) {
      tally.set(operationId, { cases: operationCases.length, ran: 0, passed: 0, skipped: 0 });
      describe(`${operationId} (${operationCases[0]?.method.toUpperCase()} ${operationCases[0]?.path})`, () => {
        for (const c of operationCases) {
          it(`${c.kind}: ${c.title}`, async (context) => {
            const count = tally.get(operationId)!;
            if (c.writes && !resolved.allowPatch) {
              count.skipped++;
              context.skip("PATCH cases run only with allowPatch (CONTRACT_ALLOW_PATCH=1)");
            }
            count.ran++;
            await runCase(c, resolved, ids);
            count.passed++;
          });
        }
      });
    }
  });
}

async function runCase(c: ContractCase, target: ContractTarget, ids: Record<IdName, string>): Promise<void> {
  const { url, init } = buildRequest(c, target, ids);
  const response = await fetch(url, init);
  const text = await response.text();
  const contentType = response.headers.get("content-type") ?? "";
  const where = `${init.method} ${url} -> ${response.status} ${contentType}\n${text.slice(0, 600)}`;
  const op = document.paths[c.path][c.method];

  if (c.expect.success) {
    expect(response.status, where).toBeGreaterThanOrEqual(200);
    expect(response.status, where).toBeLessThan(300);
    const success = successSchema(document, op);
    if (success?.schema) {
      expect(contentType, where).toMatch(/^application\/json\b/);
      const check = validator.validatorFor(success.schema, `response ${c.operationId} ${success.status}`);
      const body = JSON.parse(text);
      expect(check(body), `${where}\nresponse body breaks the document: ${describeErrors(check.errors)}`).toBe(true);
    }
    return;
  }

  const expected = c.expect;
  if (expected.status !== undefined) expect(response.status, where).toBe(expected.status);
  else if (target.strictErrors && expected.field) expect(response.status, where).toBe(422);
  expect(response.status, where).toBeGreaterThanOrEqual(400);
  expect(response.status, where).toBeLessThan(500);
  if (expected.status !== 401) expect(response.status, `${where}\nrejected as unauthorized`).not.toBe(401);
  expect(Object.keys(op.responses), `${where}\nstatus not documented for ${c.operationId}`).toContain(String(response.status));
  expect(contentType, where).toMatch(/^application\/problem\+json\b/);
  const problem = JSON.parse(text);
  const check = validator.validatorAt("#/components/schemas/Problem");
  expect(check(problem), `${where}\nnot a Problem: ${describeErrors(check.errors)}`).toBe(true);
  if (target.strictErrors && expected.field) {
    const errors: Array<Record<string, string>> = Array.isArray(problem.errors) ? problem.errors : [];
    expect(errors.some((e) => namesField(e, expected.field!)), `${where}\nno errors entry names ${JSON.stringify(expected.field)}`).toBe(true);
  }
}

/**
 * Whether a ProblemFieldError names the field: its parameter name, or its JSON Pointer. For an
 * unknown or missing property, the parent object's pointer with the property named in `detail` counts too.
 */
function namesField(error: Record<string, string>, field: ExpectedField): boolean {
  if ("parameter" in field) return typeof error.parameter === "string" && error.parameter.toLowerCase() === field.parameter.toLowerCase();
  if (error.pointer === field.pointer) return true;
  if (field.property === undefined || typeof error.pointer !== "string") return false;
  const parent = field.pointer.slice(0, field.pointer.lastIndexOf("/"));
  return error.pointer === parent && String(error.detail ?? "").includes(field.property);
}

function buildRequest(c: ContractCase, target: ContractTarget, ids: Record<IdName, string>): { url: string; init: RequestInit & { method: string } } {
  const path = c.path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(c.pathValues[name] ?? ids[idKeyFor(c.path, name)]));
  const url = new URL(target.baseUrl.replace(/\/+$/, "") + path);
  for (const [name, value] of c.query) url.searchParams.append(name, value);
  const headers: Record<string, string> = { accept: "application/json, application/problem+json" };
  if (c.withApiKey) headers["x-api-key"] = target.apiKey;
  if (target.tenantId) headers["x-tenant-id"] = target.tenantId;
  if (c.body) headers["content-type"] = c.body.contentType;
  return { url: url.toString(), init: { method: c.method.toUpperCase(), headers, ...(c.body ? { body: c.body.text } : {}) } };
}
