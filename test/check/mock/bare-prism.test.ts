// Bare Prism, as a frontend developer runs it: Prism's own CLI (`prism mock generated/openapi.yaml`,
// and `-d` for dynamic data) on the bundle this package ships, with nothing of ours in front. Every
// operation of the document must answer 200 with a body its response schema accepts, in both
// modes, and dynamic data must read like the service's: each field the document gives `examples`
// answers one of them, each `x-faker` date is recent, each `x-faker` URL is a URL, each
// `x-faker` number is in its range. Cases come from the document, not from a list here.
import { type ChildProcess, spawn } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deref, toPointer } from "../../../src/shared/walk.js";
import { freePort } from "../../support/free-port.js";
import { createOpenApiValidator, describeErrors } from "../../support/openapi-validator.js";
import { document, ROOT } from "../../support/document.js";

const DYNAMIC_ROUNDS = 12;
const validator = createOpenApiValidator(document);
const DAY_MS = 86_400_000;

interface Operation {
  id: string;
  method: string;
  path: string;
  body?: unknown;
}

/** Every operation, with its path parameters' examples filled in and its first request example. */
const operations: Operation[] = Object.entries<any>(document.paths).flatMap(([template, item]) =>
  ["get", "patch", "post", "put", "delete"]
    .filter((method) => item[method])
    .map((method) => {
      const op = item[method];
      const parameters = [...(item.parameters ?? []), ...(op.parameters ?? [])].map((p: any) => deref(document, p));
      const path = template.replace(/\{(\w+)\}/g, (_, name) => {
        const parameter = parameters.find((p: any) => p.in === "path" && p.name === name);
        if (parameter?.example === undefined) throw new Error(`${op.operationId}: path parameter ${name} has no example`);
        return encodeURIComponent(String(parameter.example));
      });
      const examples = deref(document, op.requestBody)?.content?.["application/json"]?.examples;
      const body = examples ? deref(document, Object.values<any>(examples)[0]).value : undefined;
      return { id: op.operationId, method: method.toUpperCase(), path, body };
    }),
);

const started: ChildProcess[] = [];

/** Prism's CLI in a process group of its own (it forks), answering on a free port. */
async function prismCli(dynamic: boolean): Promise<string> {
  const port = await freePort();
  const args = ["mock", "-h", "127.0.0.1", "-p", String(port), ...(dynamic ? ["-d"] : []), join(ROOT, "generated", "openapi.yaml")];
  const child = spawn(join(ROOT, "node_modules", ".bin", "prism"), args, { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"], detached: true });
  started.push(child);
  let output = "";
  const keep = (chunk: Buffer) => (output = (output + chunk).slice(-10_000));
  child.stdout.on("data", keep);
  child.stderr.on("data", keep);
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline && child.exitCode === null) {
    if (/Prism is listening/.test(output)) return url;
    await new Promise((resolve) => child.stdout.once("data", resolve).once("close", resolve));
  }
  throw new Error(`prism ${args.join(" ")} did not start:\n${output}`);
}

async function send(baseUrl: string, operation: Operation): Promise<{ status: number; body: any; violations: string | null }> {
  const response = await fetch(baseUrl + operation.path, {
    method: operation.method,
    headers: { "x-api-key": "dev", ...(operation.body === undefined ? {} : { "content-type": "application/json" }) },
    body: operation.body === undefined ? undefined : JSON.stringify(operation.body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined, violations: response.headers.get("sl-violations") };
}

function responseSchemaPointer(operation: Operation, status: string): string {
  const template = Object.keys(document.paths).find((t) => (document.paths as any)[t][operation.method.toLowerCase()]?.operationId === operation.id)!;
  const response = deref(document, (document.paths as any)[template][operation.method.toLowerCase()].responses[status]);
  const media = Object.keys(response.content)[0]!;
  const schema = response.content[media].schema;
  return schema.$ref ?? `#${toPointer(["paths", template, operation.method.toLowerCase(), "responses", status, "content", media, "schema"])}`;
}

/**
 * Every place in `value` where the document asks for realistic data, checked against that ask:
 * `examples` (the value is one of them), `x-faker` dates (within a year of today), URLs and number
 * ranges. Returns one line per value that is not realistic.
 */
function unrealistic(value: unknown, schema: any, at = ""): string[] {
  schema = deref(document, schema);
  if (!schema || value === null || value === undefined) return [];
  const problems: string[] = [];
  for (const part of schema.allOf ?? []) problems.push(...unrealistic(value, part, at));
  const branches = [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])].map((b: any) => deref(document, b)).filter((b: any) => b.type !== "null");
  if (branches.length === 1) problems.push(...unrealistic(value, branches[0], at));
  if (Array.isArray(value) && schema.items) {
    for (const [i, item] of value.entries()) problems.push(...unrealistic(item, schema.items, `${at}/${i}`));
  }
  if (value && typeof value === "object" && !Array.isArray(value) && schema.properties) {
    for (const [key, sub] of Object.entries<any>(schema.properties)) problems.push(...unrealistic((value as any)[key], sub, `${at}/${key}`));
  }
  if (Array.isArray(schema.examples) && !schema.examples.some((e: unknown) => JSON.stringify(e) === JSON.stringify(value))) {
    problems.push(`${at}: ${JSON.stringify(value)} is none of its examples`);
  }
  const faker = schema["x-faker"];
  if (faker === "date.recent" || faker === "date.soon") {
    const time = Date.parse(String(value));
    if (!(Math.abs(time - Date.now()) < 366 * DAY_MS)) problems.push(`${at}: ${JSON.stringify(value)} is not within a year of today`);
  } else if (faker === "internet.url") {
    if (!/^https?:\/\/[^\s/]+\.[a-z]+/.test(String(value))) problems.push(`${at}: ${JSON.stringify(value)} is not a URL`);
  } else if (faker && typeof faker === "object" && faker["datatype.number"]) {
    const { min, max } = faker["datatype.number"];
    if (!(typeof value === "number" && value >= min && value <= max)) problems.push(`${at}: ${JSON.stringify(value)} is not in ${min}..${max}`);
  }
  return problems;
}

afterAll(() => {
  for (const child of started) {
    try {
      process.kill(-child.pid!, "SIGKILL");
    } catch {
      // It had ended.
    }
  }
});

describe("bare Prism's CLI on the shipped bundle", () => {
  let staticUrl: string;
  let dynamicUrl: string;
  beforeAll(async () => {
    [staticUrl, dynamicUrl] = await Promise.all([prismCli(false), prismCli(true)]);
  }, 90_000);

  it("the document has twelve operations to try, each with its path parameters' examples", () => {
    expect(operations.map((o) => o.id)).toHaveLength(12);
  });

  it.each(operations)("static: $id answers 200 with a body its schema accepts", async (operation) => {
    const answer = await send(staticUrl, operation);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const validate = validator.validatorAt(responseSchemaPointer(operation, "200"));
    expect(validate(answer.body), describeErrors(validate.errors)).toBe(true);
  });

  it.each(operations)(`dynamic: $id answers 200 ${DYNAMIC_ROUNDS} times in a row, schema-valid and realistic`, async (operation) => {
    const validate = validator.validatorAt(responseSchemaPointer(operation, "200"));
    const schema = { $ref: responseSchemaPointer(operation, "200") };
    for (let round = 0; round < DYNAMIC_ROUNDS; round++) {
      const answer = await send(dynamicUrl, operation);
      expect(answer.status, `round ${round}: ${JSON.stringify(answer.body)}`).toBe(200);
      expect(validate(answer.body), describeErrors(validate.errors)).toBe(true);
      expect(unrealistic(answer.body, schema)).toEqual([]);
    }
  });

  it("a 422 names no field the request did not send (the violations are in sl-violations)", async () => {
    const patch = operations.find((o) => o.id === "patchListener")!;
    const answer = await send(staticUrl, { ...patch, body: { compute_id: "renamed" } });
    expect(answer.status).toBe(422);
    expect(answer.body.errors ?? []).toEqual([]);
    expect(answer.violations).toContain("compute_id");
  });
});
