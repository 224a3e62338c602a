// The router of the core, with no transport: a request comes in as a method, a target (path and
// query), a header lookup and a way to read the body; a Reply goes out. The node:http adapter, the
// fetch adapter (MSW) and the Vite plugin are thin wrappers around it. The order is fixed: route
// (the local-server gate's table), authenticate, faults asked for, check (media type, bounds,
// schema), bring the revisions up to the clock (tick, once per request, in answerNow: the clock
// itself is only read), then the operation's answer (operations.ts), which reads the store or
// writes through the writer; the store calls the lifecycle.
import { tooLargeDetail } from "../../gate/body.js";
import {
  type GateProblem,
  isEmptyBodyText,
  parseJsonText,
  type RouteMatch,
  RouteTable,
  repeatedParameterErrors,
  requestTargetProblem,
  unsupportedMediaType,
  withoutDotSegments,
} from "../../gate/gate.js";
import { isJsonContentType } from "../../gate/policy.js";
import { checkTenantHeader } from "../../gate/tenant.js";
import { type ErrorShape, invalidFieldsDetail, WORKSPACE_REQUIRED_DETAIL } from "../../shared/problems.js";
import type { KeyScope, SimulatorApiKey } from "./options.js";
import { checkJsonBounds, REQUEST_BOUNDS } from "../../gate/bounds.js";
import { CONTROL_ROUTES, type ControlActionName, type ControlActions } from "./control.js";
import type { Faults } from "./faults.js";
import { inServiceShape, PROBLEM_JSON, problem, type Reply } from "./reply.js";
import type { OperationId, RoutedAnswer } from "./operations.js";
import { describeOperations, type FieldError, type CheckedOperation, type RequestChecker } from "./validate.js";
import { openApiDocument } from "../../shared/document.js";

/** A request as every transport can give it. */
export interface SimRequest {
  method: string;
  /** The path and query, as in an HTTP request line: `/v2/deployments?limit=2`. */
  target: string;
  /** A header's value (lower-case name), or null when absent. */
  header(name: string): string | null;
  /** The body as text, or null when it is larger than `limit` bytes (the transport stops reading there). */
  text(limit: number): Promise<string | null>;
}

export interface RouterConfig {
  operations: CheckedOperation[];
  checker: RequestChecker;
  /** Each operation's answer, by operationId (the compiler checks that every operation has one). */
  answers: Record<OperationId, RoutedAnswer>;
  /** The control API (/_simulator/...), dispatched by CONTROL_ROUTES. */
  control: ControlActions;
  /** Moves the simulated lifecycle; runs once per request, just before its answer. */
  tick: () => void;
  /** Accepted X-Api-Key values and their scopes; undefined accepts any non-empty key, of `keyScope`. */
  apiKeys: readonly SimulatorApiKey[] | undefined;
  /** The scope of any key when `apiKeys` is undefined. */
  keyScope: KeyScope;
  /** Latency and faults asked for: a delay before each API answer, and answers that fail on purpose. */
  faults: Faults;
}

/** Answers one request: what every transport (node:http, fetch, MSW, Vite) calls. */
export type Router = (request: SimRequest) => Reply | Promise<Reply>;

const CONTROL_PREFIX = "/_simulator";

export function createRouter(config: RouterConfig): Router {
  // Route matching, media types and JSON text are the local-server gate's, shared with the mock.
  const routes = new RouteTable(config.operations.map((op) => ({ method: op.method, path: op.path, value: op })));
  const controlRoutes = new RouteTable(
    (Object.keys(CONTROL_ROUTES) as ControlActionName[]).flatMap((name) => {
      const { method, path } = CONTROL_ROUTES[name];
      // The status is at /_simulator and /_simulator/ alike.
      const paths = path === "" ? [CONTROL_PREFIX, `${CONTROL_PREFIX}/`] : [`${CONTROL_PREFIX}/${path}`];
      return paths.map((p) => ({ method, path: p, value: name }));
    }),
  );

  /** The scope of the request's key, or the 401 when there is no accepted key. */
  function authenticate(request: SimRequest, path: string): { scope: KeyScope } | Reply {
    const apiKey = request.header("x-api-key");
    if (apiKey === null || apiKey === "") return problem("unauthorized", "Send your API key in the X-Api-Key header.", path);
    if (!config.apiKeys) return { scope: config.keyScope };
    const known = config.apiKeys.find((k) => k.key === apiKey);
    return known ? { scope: known.scope } : problem("unauthorized", "The X-Api-Key is not valid.", path);
  }

  /**
   * What the key's scope says of this request's workspace, as the service answers: an organisation
   * key must name one (403 in the service's words otherwise); a workspace key acts in its own (403
   * for another). Returns the tenant the request acts in (undefined: every tenant), or the 403.
   */
  function workspaceOf(scope: KeyScope, request: SimRequest, path: string): { tenant: string | undefined } | Reply {
    const header = request.header("x-tenant-id");
    // A malformed X-Tenant-Id is the checker's to name (422); the scope is judged on a tenant id.
    const given = header === null || checkTenantHeader(header) ? undefined : header.toLowerCase();
    if (scope === "organization") {
      return header === null ? problem("forbidden", WORKSPACE_REQUIRED_DETAIL, path) : { tenant: given };
    }
    if (typeof scope === "object") {
      if (given !== undefined && given !== scope.tenantId) {
        return problem("forbidden", `This API key is scoped to workspace ${scope.tenantId}; it cannot act in workspace ${given}.`, path);
      }
      return { tenant: scope.tenantId };
    }
    return { tenant: given };
  }

  // Requests without a body are answered synchronously (no promise per GET) unless a latency is set.
  return function handle(request: SimRequest): Reply | Promise<Reply> {
    const method = request.method;
    // Without dot segments, as fetch's URL parser and the node gate leave a target.
    const target = withoutDotSegments(request.target);
    const q = target.indexOf("?");
    const path = q < 0 ? target : target.slice(0, q);
    // A target that is not a path, or a % escape that does not decode: 400, as over HTTP (the gate's).
    const badTarget = requestTargetProblem(target);
    if (badTarget) return gateReply(badTarget);
    if (isControlPath(path)) return serveControl(request, path, method);
    // OPTIONS (not a CORS preflight, which the node gate answers): the route table's 204 with Allow, or 404, as the mock's.
    if (method === "OPTIONS") {
      const match = routes.match(path, method);
      if (!match.found) return routeReply(match);
    }
    const delayMs = config.faults.delay();
    if (delayMs > 0) return new Promise((resolve) => setTimeout(resolve, delayMs)).then(() => serveOperation(request, target, path, q));
    return serveOperation(request, target, path, q);
  };

  function serveOperation(request: SimRequest, target: string, path: string, q: number): Reply | Promise<Reply> {
    const method = request.method;

    const match = routes.match(path, method);
    if (!match.found) return routeReply(match);
    const spec = match.value;
    const key = authenticate(request, path);
    if (!("scope" in key)) return key;
    const workspace = workspaceOf(key.scope, request, path);
    if (!("tenant" in workspace)) return workspace;
    const injected = config.faults.take(spec.operationId, path);
    if (injected) return injected;

    const query = q < 0 ? undefined : new URLSearchParams(target.slice(q + 1));
    const answer = (body: unknown) => answerChecked(spec, match.pathValues, request, query, path, body, workspace.tenant);
    if (!spec.body) return answer(undefined);
    const contentType = request.header("content-type");
    const refused = unsupportedMediaType(spec.body.mediaTypes, contentType, path);
    if (refused) {
      if (contentType?.trim()) return gateReply(refused);
      // No Content-Type and no body: the answer is that the body is required (422), as the mock's.
      return readText(request, path).then((text) => (typeof text !== "string" ? text : isEmptyBodyText(text) ? answer(undefined) : gateReply(refused)));
    }
    return readJson(request, path, false).then((read) => ("status" in read ? read : answer(read.value)));
  }

  /** Validates the parameters, the tenant header and the parsed body, then runs the operation's handler in `tenant` (undefined: every tenant). */
  function answerChecked(
    spec: CheckedOperation,
    pathValues: Record<string, string>,
    request: SimRequest,
    query: URLSearchParams | undefined,
    path: string,
    body: unknown,
    tenant: string | undefined,
  ): Reply | Promise<Reply> {
    const checked = config.checker.parameters(spec, pathValues, query, (name) => request.header(name));
    const values = checked.values;
    // A single-valued query parameter given twice is ambiguous: refused once, its values not read, as by the mock.
    const repeated = repeatedParameterErrors(
      query,
      spec.parameters.filter((p) => p.in === "query" && !p.array).map((p) => p.name),
    );
    const errors: FieldError[] = [...repeated, ...checked.errors.filter((e) => !repeated.some((r) => r.parameter === e.parameter))];
    const tenantHeader = request.header("x-tenant-id");
    const tenantError = checkTenantHeader(tenantHeader);
    if (tenantError) errors.push(tenantError);
    const bodyErrors = body === undefined ? config.checker.body(spec, body) : checkBody(spec, body);
    if (errors.length > 0 || bodyErrors.length > 0) {
      return problem("validation", invalidFieldsDetail(errors.length + bodyErrors.length), path, [...errors, ...bodyErrors]);
    }
    return answerNow(() => config.answers[spec.operationId as OperationId]({ params: values, body, tenant, path }));
  }

  /** The bounds first: a value too deep or too large is never handed to the schema validator. */
  function checkBody(spec: CheckedOperation, body: unknown): FieldError[] {
    const bounds = checkJsonBounds(body);
    return bounds.length > 0 ? bounds : config.checker.body(spec, body);
  }

  async function serveControl(request: SimRequest, path: string, method: string): Promise<Reply> {
    // The control API's paths by the same table as the API's: HEAD as GET, 405 with Allow, OPTIONS' 204.
    const match = controlRoutes.match(path, method);
    if (!match.found && !("options" in match) && match.problem.status === 404) {
      return problem("not-found", `There is no simulator control at ${method} ${path}.`, path);
    }
    if (!match.found) return routeReply(match);
    const name = match.value;
    // With keys configured, the control API needs one too: it can reset everything.
    if (config.apiKeys) {
      const key = authenticate(request, path);
      if (!("scope" in key)) return key;
    }
    let body: unknown;
    if (method === "POST") {
      // JSON only: a form or text/plain post from another web page (no preflight) is refused.
      const mediaType = mediaTypeOf(request);
      if (!isJsonContentType(mediaType)) {
        return problem("unsupported-media-type", `Send the control request as application/json${mediaType ? `, not ${mediaType}` : ""}.`, path);
      }
      const read = await readJson(request, path, true);
      if ("status" in read) return read;
      const bounds = checkJsonBounds(read.value);
      if (bounds.length > 0) return problem("validation", "The request body is out of bounds; see errors.", path, bounds);
      body = read.value;
    }
    return answerNow(() => config.control[name](body, path));
  }

  /** The one place a request moves the simulated lifecycle: just before its answer is computed. */
  function answerNow(answer: () => Reply | Promise<Reply>): Reply | Promise<Reply> {
    config.tick();
    return answer();
  }
}

/**
 * The router with its errors in `shape`: the one place the simulator's error bodies switch to the
 * service's FastAPI shapes (`errors: "service"`), for every answer of the API, whatever decided it
 * (the gate's table, authentication, a fault, the checker, an operation). The control API
 * (/_simulator) is the simulator's own and keeps problem+json.
 */
export function withErrorShape(handle: Router, shape: ErrorShape, operations: readonly CheckedOperation[]): Router {
  if (shape === "problem") return handle;
  const where = parameterPlaces(operations);
  return (request) => {
    if (isControlTarget(request.target)) return handle(request);
    const reply = handle(request);
    return reply instanceof Promise ? reply.then((r) => inServiceShape(r, where)) : inServiceShape(reply, where);
  };
}

/**
 * How a transport's own refusals (the node gate's: a foreign Host, a cross-site write, a target
 * that cannot be read, a body past the bound) are written in `shape`: undefined for problem+json,
 * the default; for "service", the same conversion as the core's answers.
 */
export function refusalWriter(shape: ErrorShape): ((problem: GateProblem) => { contentType: string; text: string }) | undefined {
  if (shape === "problem") return undefined;
  const where = parameterPlaces(describeOperations(openApiDocument));
  return (problem) =>
    // The control API keeps problem+json, as the core answers it (withErrorShape).
    problem.instance !== undefined && isControlTarget(problem.instance)
      ? { contentType: PROBLEM_JSON, text: JSON.stringify(problem) }
      : {
          contentType: "application/json",
          text: JSON.stringify(inServiceShape({ status: problem.status, contentType: PROBLEM_JSON, body: problem }, where).body),
        };
}

/** Where each parameter of the document is sent (query, path, header), by name: a FastAPI field error's `loc` starts with it. */
export function parameterPlaces(operations: readonly CheckedOperation[]): (name: string) => string | undefined {
  const places = new Map<string, string>();
  for (const op of operations) for (const p of op.parameters) places.set(p.name, p.in);
  // The credentials are security schemes, not parameters: sent as headers.
  return (name) => places.get(name) ?? (/^x-/i.test(name) ? "header" : undefined);
}

/** A path of the control API (/_simulator/...), which is the simulator's own and not the service's. */
export function isControlPath(path: string): boolean {
  return path === CONTROL_PREFIX || path.startsWith(`${CONTROL_PREFIX}/`);
}

/**
 * Whether a request target as sent (dot segments, a query) is on the control API, read as handle()
 * routes it: dot segments removed first, so `/v2/../_simulator/reset` is the control API.
 */
function isControlTarget(target: string): boolean {
  return isControlPath(withoutDotSegments(target).split("?")[0]!);
}

function mediaTypeOf(request: SimRequest): string {
  return (request.header("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
}

/** What the route table answers when it finds no operation: a 404 or 405 problem, or OPTIONS' 204 with Allow. */
function routeReply(match: Exclude<RouteMatch<unknown>, { found: true }>): Reply {
  return "options" in match ? { status: 204, headers: match.headers } : gateReply(match.problem, match.headers);
}

/** A problem the local-server gate decided, as a reply. */
function gateReply(refused: GateProblem, headers?: Record<string, string>): Reply {
  return { status: refused.status, contentType: PROBLEM_JSON, body: refused, ...(headers ? { headers } : {}) };
}

async function readText(request: SimRequest, path: string): Promise<string | Reply> {
  const text = await request.text(REQUEST_BOUNDS.maxBodyBytes);
  return text === null ? problem("content-too-large", tooLargeDetail(REQUEST_BOUNDS.maxBodyBytes), path) : text;
}

async function readJson(request: SimRequest, path: string, emptyIsObject: boolean): Promise<{ value: unknown } | Reply> {
  const text = await readText(request, path);
  if (typeof text !== "string") return text;
  if (isEmptyBodyText(text)) return { value: emptyIsObject ? {} : undefined };
  const parsed = parseJsonText(text, path);
  return "problem" in parsed ? gateReply(parsed.problem) : parsed;
}
