// The contract suite: the cases derived from generated/openapi.json (./cases.ts), run against any
// server that implements the API: over real HTTP (`baseUrl`), or in-process through a `fetch`
// function such as the simulator's (`fetch`). Register it with defineContractSuite().
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FIELD_ERROR_CODES, PROBLEM_TYPES } from "../../generated/constants.js";
import { createOpenApiValidator, describeErrors } from "../support/openapi-validator.js";
import { document } from "../support/document.js";
import { deriveCases, successSchema, type ContractCase, type Credential, type ExpectedField } from "./cases.js";
import { discoverIds, idKeyFor, type IdName } from "./ids.js";
import { DEPLOYMENT_SOURCES, fitsSource } from "../../src/shared/source-rules.js";
import type { DeploymentPatch } from "../../src/shared/types.js";

export interface ContractTarget {
  /** The server's root URL. With `fetch` it is only the origin put in request URLs (default http://contract.test). */
  baseUrl?: string;
  /** Sends each request; without it, the global fetch over HTTP to `baseUrl`. */
  fetch?: (request: Request) => Promise<Response>;
  /** Sent in the credential every security alternative of an operation requires (X-Api-Key). */
  apiKey: string;
  /** Sent in the credential only some alternatives use (X-Tenant-Id). */
  tenantId?: string;
  /** PATCH cases (valid and invalid) run only when true: they may change the server's data. */
  allowPatch: boolean;
  /** Ids to use in paths; those not given are discovered from the list endpoints. */
  ids?: Partial<Record<IdName, string>>;
  label?: string;
  /**
   * Also require what the document promises beyond the status: 422 for a request that breaks the
   * document, the problem `type` and `title` of the documented kind of error for the status, and an
   * `errors` entry naming the broken field (`pointer` or `parameter`) with a documented `code`.
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
      if (!resolved.fetch && !resolved.baseUrl) throw new Error(`contract suite "${name}": the target needs a baseUrl or a fetch`);
      ids = await discoverIds(document, resolved, sender(resolved));
    });

    afterAll(() => {
      const rows = [...tally].map(([operation, t]) => ({ operation, ...t }));
      const total = rows.reduce(
        (sum, r) => ({ cases: sum.cases + r.cases, ran: sum.ran + r.ran, passed: sum.passed + r.passed, skipped: sum.skipped + r.skipped }),
        { cases: 0, ran: 0, passed: 0, skipped: 0 },
      );
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

/** How requests reach the target: its own fetch, or the global one over HTTP. */
function sender(target: ContractTarget): (request: Request) => Promise<Response> {
  return target.fetch ?? ((request) => fetch(request));
}

async function runCase(c: ContractCase, target: ContractTarget, ids: Record<IdName, string>): Promise<void> {
  const { url, init } = buildRequest(c, target, ids);
  const response = await sender(target)(new Request(url, init));
  const text = await response.text();
  const contentType = response.headers.get("content-type") ?? "";
  const where = `${init.method} ${url} -> ${response.status} ${contentType}\n${text.slice(0, 600)}`;
  const op = (document as any).paths[c.path][c.method];

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
  if (target.strictErrors) {
    // The document's kinds of error (x-problem-types, as PROBLEM_TYPES): the one for this status, with its title.
    const kinds = Object.values(PROBLEM_TYPES).filter((k) => k.status === response.status);
    expect(
      kinds.map((k) => k.type),
      `${where}\nproblem type is not the documented kind for ${response.status}`,
    ).toContain(problem.type);
    expect(problem.title, `${where}\nproblem title is not its kind's`).toBe(kinds.find((k) => k.type === problem.type)?.title);
  }
  if (target.strictErrors && expected.field) {
    const errors: Array<Record<string, string>> = Array.isArray(problem.errors) ? problem.errors : [];
    const named = errors.filter((e) => namesField(e, expected.field!));
    expect(named.length, `${where}\nno errors entry names ${JSON.stringify(expected.field)}`).toBeGreaterThan(0);
    for (const e of named) expect(FIELD_ERROR_CODES, `${where}\nfield error without a documented code`).toContain(e.code);
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

/**
 * For a patch, a deployment whose source takes its fields (src/shared/source-rules.ts): the
 * discovered one when it does, else one of another source; undefined to keep the discovered one.
 */
function deploymentFitting(bodyText: string, ids: Record<IdName, string>): string | undefined {
  let body: unknown;
  try {
    body = JSON.parse(bodyText);
  } catch {
    return undefined;
  }
  if (typeof body !== "object" || body === null || Array.isArray(body)) return undefined;
  const fitting = DEPLOYMENT_SOURCES.filter((source) => ids[`deployment_id:${source}`] && fitsSource(source, body as DeploymentPatch));
  if (fitting.some((source) => ids[`deployment_id:${source}`] === ids.deployment_id)) return undefined;
  return fitting[0] === undefined ? undefined : ids[`deployment_id:${fitting[0]}`];
}

/** The origin of request URLs when the target is a fetch function without a baseUrl. */
export const IN_PROCESS_ORIGIN = "http://contract.test";

/** The request a case sends: path ids filled in, query, header parameters, credentials and body. */
export function buildRequest(
  c: ContractCase,
  target: Pick<ContractTarget, "baseUrl" | "apiKey" | "tenantId">,
  ids: Record<IdName, string>,
): { url: string; init: RequestInit & { method: string; headers: Headers } } {
  const fitted = c.operationId === "patchDeployment" && c.body ? deploymentFitting(c.body.text, ids) : undefined;
  const path = c.path.replace(/\{([^}]+)\}/g, (_, name: string) =>
    encodeURIComponent(c.pathValues[name] ?? (name === "deployment_id" ? fitted : undefined) ?? ids[idKeyFor(c.path, name)]!),
  );
  const url = new URL((target.baseUrl ?? IN_PROCESS_ORIGIN).replace(/\/+$/, "") + path);
  for (const [name, value] of c.query) url.searchParams.append(name, value);
  const headers = new Headers({ accept: "application/json, application/problem+json" });
  for (const [name, value] of c.headers) headers.set(name, value);
  const send = (credential: Credential, value: string) => {
    if (credential.in === "header") headers.set(credential.name, value);
    else if (credential.in === "query") url.searchParams.set(credential.name, value);
    else headers.append("cookie", `${credential.name}=${encodeURIComponent(value)}`);
  };
  if (c.withCredentials) for (const credential of c.security.required) send(credential, target.apiKey);
  if (target.tenantId) for (const credential of c.security.optional) send(credential, target.tenantId);
  if (c.body) headers.set("content-type", c.body.contentType);
  return { url: url.toString(), init: { method: c.method.toUpperCase(), headers, ...(c.body ? { body: c.body.text } : {}) } };
}
