// HTTP on plain node:http: routing by the document's path templates, authentication, body
// reading, and the JSON and problem+json answers. Handlers live in routes.ts.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { checkBody, checkParameters, type FieldError, type OperationSpec } from "./validate.js";

export interface Reply {
  status: number;
  /** Serialized JSON, when the handler already has it (cached deployments and list pages). */
  text?: string | Buffer;
  body?: unknown;
  contentType?: string;
  headers?: Record<string, string>;
}

export interface RequestContext {
  /** Path, query and header parameters, coerced and validated. */
  params: Record<string, any>;
  body: any;
  /** X-Tenant-Id, when sent: only that tenant's resources are visible. */
  tenant: string | undefined;
  path: string;
}

export type OperationHandler = (ctx: RequestContext) => Reply;
export type ControlHandler = (body: any, path: string) => Reply;

export interface ServerConfig {
  operations: OperationSpec[];
  handlers: Record<string, OperationHandler>;
  /** POST /_simulator/<name> handlers: the control API, outside the document. */
  control: Record<string, ControlHandler>;
  /** Runs before each request is answered: moves the simulated lifecycle. */
  beforeRequest: () => void;
  apiKeys: readonly string[] | undefined;
  log: ((line: string) => void) | undefined;
}

const MAX_BODY_BYTES = 1 << 20;
// Any origin may call the simulator (a browser app on another port); preflights get the rest.
const PREFLIGHT_HEADERS = {
  "access-control-allow-methods": "GET, PATCH, POST, OPTIONS",
  "access-control-allow-headers": "content-type, x-api-key, x-tenant-id",
  "access-control-max-age": "600",
};

export function problem(status: number, detail: string, instance: string, errors?: FieldError[]): Reply {
  return {
    status,
    contentType: "application/problem+json",
    body: { type: "about:blank", title: TITLES[status] ?? "Error", status, detail, instance, ...(errors ? { errors } : {}) },
  };
}

const TITLES: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  404: "Not Found",
  405: "Method Not Allowed",
  413: "Content Too Large",
  415: "Unsupported Media Type",
  422: "Unprocessable Entity",
  500: "Internal Server Error",
};

interface Route {
  segments: (string | { param: string })[];
  byMethod: Map<string, OperationSpec>;
}

function compileRoutes(operations: OperationSpec[]): Route[] {
  const routes = new Map<string, Route>();
  for (const op of operations) {
    let route = routes.get(op.path);
    if (!route) {
      const segments = op.path
        .split("/")
        .slice(1)
        .map((s) => (s.startsWith("{") && s.endsWith("}") ? { param: s.slice(1, -1) } : s));
      routes.set(op.path, (route = { segments, byMethod: new Map() }));
    }
    route.byMethod.set(op.method, op);
  }
  return [...routes.values()];
}

function matchRoute(routes: Route[], pathname: string): { route: Route; pathValues: Record<string, string> } | undefined {
  const parts = pathname.split("/").slice(1);
  outer: for (const route of routes) {
    if (route.segments.length !== parts.length) continue;
    const pathValues: Record<string, string> = {};
    for (let i = 0; i < parts.length; i++) {
      const seg = route.segments[i]!;
      const part = parts[i]!;
      if (typeof seg === "string") {
        if (seg !== part) continue outer;
      } else {
        if (part === "") continue outer;
        try {
          pathValues[seg.param] = decodeURIComponent(part);
        } catch {
          pathValues[seg.param] = part;
        }
      }
    }
    return { route, pathValues };
  }
  return undefined;
}

export function createHttpServer(config: ServerConfig): Server {
  const routes = compileRoutes(config.operations);
  for (const op of config.operations) {
    if (!config.handlers[op.operationId]) throw new Error(`The simulator has no handler for operation ${op.operationId}`);
  }
  return createServer((req, res) => {
    const started = config.log ? performance.now() : 0;
    const done = (reply: Reply) => {
      send(res, req.method === "OPTIONS" ? { ...reply, headers: PREFLIGHT_HEADERS } : reply);
      config.log?.(`${req.method} ${req.url} ${reply.status} ${(performance.now() - started).toFixed(1)}ms`);
    };
    const failed = (error: unknown) => {
      config.log?.(`error: ${(error as Error).stack ?? String(error)}`);
      done(problem(500, "The simulator failed to handle the request.", pathOf(req)));
    };
    // Requests without a body are answered synchronously: no promise per GET.
    let reply: Reply | Promise<Reply>;
    try {
      reply = handle(config, routes, req);
    } catch (error) {
      failed(error);
      return;
    }
    if (reply instanceof Promise) reply.then(done, failed);
    else done(reply);
  });
}

function pathOf(req: IncomingMessage): string {
  const url = req.url ?? "/";
  const q = url.indexOf("?");
  return q < 0 ? url : url.slice(0, q);
}

function send(res: ServerResponse, reply: Reply): void {
  const text = reply.text ?? (reply.body === undefined ? "" : JSON.stringify(reply.body));
  const headers: Record<string, string | number> = {
    "access-control-allow-origin": "*",
    "content-length": Buffer.byteLength(text),
  };
  if (text.length > 0) headers["content-type"] = reply.contentType ?? "application/json";
  if (reply.headers) Object.assign(headers, reply.headers);
  res.writeHead(reply.status, headers);
  res.end(text);
}

function handle(config: ServerConfig, routes: Route[], req: IncomingMessage): Reply | Promise<Reply> {
  const url = req.url ?? "/";
  const q = url.indexOf("?");
  const path = q < 0 ? url : url.slice(0, q);
  const method = req.method ?? "GET";
  if (method === "OPTIONS") return { status: 204 };

  if (path.startsWith("/_simulator")) return handleControl(config, req, path, method);

  const match = matchRoute(routes, path);
  if (!match) return problem(404, `There is no operation at ${path}.`, path);
  const spec = match.route.byMethod.get(method === "HEAD" ? "GET" : method);
  if (!spec) {
    const allow = [...match.route.byMethod.keys()].join(", ");
    return { ...problem(405, `${method} is not allowed on ${path}; allowed: ${allow}.`, path), headers: { allow } };
  }

  const apiKey = req.headers["x-api-key"];
  if (typeof apiKey !== "string" || apiKey === "") {
    return problem(401, "Send your API key in the X-Api-Key header.", path);
  }
  if (config.apiKeys && !config.apiKeys.includes(apiKey)) return problem(401, "The X-Api-Key is not valid.", path);

  if (!spec.body) return answer(config, spec, match.pathValues, req, url, q, path, undefined);
  const mediaType = (req.headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase();
  if (!spec.body.mediaTypes.includes(mediaType)) {
    return problem(415, `Send the body as ${spec.body.mediaTypes.join(" or ")}${mediaType ? `, not ${mediaType}` : ""}.`, path);
  }
  return readJson(req, path).then((read) => ("status" in read ? read : answer(config, spec, match.pathValues, req, url, q, path, read.value)));
}

/** Validates the parameters and the parsed body, then runs the operation's handler. */
function answer(
  config: ServerConfig,
  spec: OperationSpec,
  pathValues: Record<string, string>,
  req: IncomingMessage,
  url: string,
  q: number,
  path: string,
  body: unknown,
): Reply {
  config.beforeRequest();
  const query = q < 0 ? undefined : new URLSearchParams(url.slice(q + 1));
  const { values, errors } = checkParameters(spec, pathValues, query, req.headers);
  const bodyErrors = checkBody(spec, body);
  if (errors.length > 0 || bodyErrors.length > 0) {
    return problem(422, "The request does not match the API document; see errors.", path, [...errors, ...bodyErrors]);
  }
  const tenantHeader = req.headers["x-tenant-id"];
  const tenant = typeof tenantHeader === "string" && tenantHeader !== "" ? tenantHeader : undefined;
  return config.handlers[spec.operationId]!({ params: values, body, tenant, path });
}

async function handleControl(config: ServerConfig, req: IncomingMessage, path: string, method: string): Promise<Reply> {
  const name = path.slice("/_simulator".length).replace(/^\//, "");
  const handler = config.control[`${method} ${name}`];
  if (!handler) return problem(404, `There is no simulator control at ${method} ${path}.`, path);
  let body: unknown;
  if (method === "POST") {
    const read = await readJson(req, path, true);
    if ("status" in read) return read;
    body = read.value;
  }
  config.beforeRequest();
  return handler(body, path);
}

async function readJson(req: IncomingMessage, path: string, emptyIsObject = false): Promise<{ value: unknown } | Reply> {
  const chunks: Buffer[] = [];
  let size = 0;
  // A body that is too large is still read to its end (and dropped), so the answer can be sent.
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size <= MAX_BODY_BYTES) chunks.push(chunk as Buffer);
  }
  if (size > MAX_BODY_BYTES) return problem(413, `The body is larger than ${MAX_BODY_BYTES} bytes.`, path);
  const text = Buffer.concat(chunks).toString("utf8");
  if (text.trim() === "") return { value: emptyIsObject ? {} : undefined };
  try {
    return { value: JSON.parse(text) };
  } catch (error) {
    return problem(400, `The body is not valid JSON: ${(error as Error).message}`, path);
  }
}
