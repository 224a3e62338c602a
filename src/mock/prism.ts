// Prism's engine, in-process and behind no port: the mock's front (front.ts) hands it each request
// it let through and gets Prism's answer back as a value. Prism's own HTTP server is not used: it
// listened on a second port that answered any Host, died on a malformed %-escape, and threw while
// writing its `sl-violations` header for a field name outside Latin-1, taking the process with it.
// Here nothing but the front can reach Prism, and every failure of Prism is a rejected promise the
// front answers as a problem. Request validation and security checks on, the document's examples
// (not random data) in answers.
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

// Prism's packages are CommonJS.
const require = createRequire(import.meta.url);

/** The bundled document (generated/openapi.json), from src/mock/ and dist/mock/ alike. */
export const DEFAULT_DOCUMENT = fileURLToPath(new URL("../../generated/openapi.json", import.meta.url));

/** One parameter of an operation, as Prism describes it. */
export interface PrismParameter {
  name: string;
  required?: boolean;
  schema?: { type?: unknown; default?: unknown; enum?: unknown[]; items?: { type?: unknown; enum?: unknown[]; format?: unknown } };
}

/** One operation as Prism reads it from the document (only what the front uses). */
export interface PrismOperation {
  /** The operationId (every operation of the document has one). */
  iid?: string;
  method: string;
  path: string;
  request?: {
    query?: PrismParameter[];
    path?: PrismParameter[];
    body?: { contents?: { mediaType: string }[] };
  };
  responses: { code: string; contents?: { mediaType: string; examples?: { key: string; value?: unknown }[] }[] }[];
}

/** A violation Prism found, located as `["request", where, ...path]` (`["request"]` for security). */
export interface PrismViolation {
  location: string[];
  severity: string;
  code: string | number;
  message: string;
}

/** What the front gives Prism: the request with its body already read and parsed. */
export interface PrismRequest {
  method: string;
  path: string;
  query: Record<string, string | string[]>;
  /** Lower-case names. */
  headers: Record<string, string>;
  /** Parsed JSON, text for other media types, null when there was none. */
  body: unknown;
}

/** Prism's answer: a response it made (from an example), or one of its own errors as problem details. */
export interface PrismResult {
  status: number;
  headers: Record<string, string>;
  /** The response body as Prism made it (an object for JSON). */
  body: unknown;
  /** Prism's own error (`https://stoplight.io/prism/errors#...`), when it answered with one. */
  error?: { type: string; title?: string; status: number; detail?: string };
  /** The request's violations (errors only). */
  violations: PrismViolation[];
}

export interface PrismEngine {
  operations: PrismOperation[];
  request(request: PrismRequest): Promise<PrismResult>;
}

interface Logger {
  child(options: { name: string }): Logger;
  info(...args: unknown[]): void;
  error(...args: unknown[]): void;
  warn(...args: unknown[]): void;
}

/** Prism's functions the engine calls (its CommonJS packages, typed here by what is used). */
type Either<L, R> = { _tag: "Left"; left: L } | { _tag: "Right"; right: R };
interface PrismError {
  name?: string;
  message?: string;
  status?: number;
  detail?: string;
  additional?: { headers?: Record<string, string> };
}
interface PrismOutput {
  output: { statusCode: number; headers?: Record<string, unknown>; body?: unknown };
  validations: Record<"input" | "output", { path?: string[]; severity: number; code: string | number; message: string }[]>;
}
interface PrismPackages {
  createInstance(
    config: object,
    components: { logger: Logger },
  ): { request(input: object, operations: PrismOperation[], config: object): () => Promise<Either<PrismError, PrismOutput>> };
  getHttpOperationsFromSpec(document: string | object): Promise<PrismOperation[]>;
  createLogger(name: string, options: { level: string }, destination?: { write(line: string): void }): Logger;
  preferences(input: object): Either<PrismError, Record<string, unknown>>;
}

let loaded: PrismPackages | undefined;

/** Loads Prism's packages once (about 2 seconds), English faker only. */
function prismPackages(): PrismPackages {
  if (loaded) return loaded;
  loadEnglishFakerOnly();
  const http = require("@stoplight/prism-http");
  loaded = {
    createInstance: http.createInstance,
    getHttpOperationsFromSpec: http.getHttpOperationsFromSpec,
    createLogger: require("@stoplight/prism-core").createLogger,
    // Prism's reading of `Prefer: code=, example=, dynamic=` (what its HTTP server does with the header).
    preferences: require("@stoplight/prism-http-server/dist/getHttpConfigFromRequest").getHttpConfigFromRequest,
  };
  return loaded;
}

/**
 * Prism's mocker requires @faker-js/faker 6, whose entry point loads every locale: about 1.2 of the
 * 3 seconds Prism takes to load. The mock answers with the document's examples and uses faker only
 * for `Prefer: dynamic=true`, so the English-only build (same API) is put in its place.
 */
function loadEnglishFakerOnly(): void {
  try {
    const fromPrism = createRequire(require.resolve("@stoplight/prism-http"));
    const entry = fromPrism.resolve("@faker-js/faker");
    if (require.cache[entry]) return;
    const english = fromPrism("@faker-js/faker/locale/en");
    const NodeModule = require("node:module");
    const module = new NodeModule(entry);
    module.filename = entry;
    module.loaded = true;
    module.exports = { __esModule: true, default: english, faker: english };
    require.cache[entry] = module;
  } catch {
    // A different faker layout: load Prism as it is, only slower.
  }
}

const SEVERITY = ["Error", "Warning", "Information", "Hint"];

/** Prism's engine on a document (a path or the parsed document). */
export async function createPrism(options: { document?: string | object; logLevel?: string } = {}): Promise<PrismEngine> {
  const { document = DEFAULT_DOCUMENT, logLevel = "silent" } = options;
  const prism = prismPackages();
  const operations: PrismOperation[] = await prism.getHttpOperationsFromSpec(document);
  if (operations.length === 0) throw new Error(`no operations found in ${String(document)}`);
  const logger: Logger = prism.createLogger("CLI", { level: logLevel }, logLevel === "silent" ? undefined : readableLogLines());
  const config = {
    validateRequest: true,
    // Response violations are only logged, never turned into errors.
    validateResponse: true,
    checkSecurity: true,
    errors: false,
    isProxy: false,
    upstreamProxy: undefined,
    mock: { dynamic: false },
  };
  const instance = prism.createInstance(config, { logger: logger.child({ name: "HTTP SERVER" }) });

  return {
    operations,
    async request(request) {
      const input = {
        method: request.method.toLowerCase(),
        url: { path: request.path, query: request.query },
        headers: request.headers,
        body: request.body,
      };
      logger.info({ input }, "Request received");
      const chosen = prism.preferences(input);
      if (chosen._tag === "Left") return errorResult(chosen.left);
      const result = await instance.request(input, operations, { ...config, mock: { ...config.mock, ...withoutUndefined(chosen.right) } })();
      if (result._tag === "Left") return errorResult(result.left);
      const { output, validations } = result.right;
      const violations: PrismViolation[] = [];
      for (const [prefix, list] of [
        ["request", validations.input],
        ["response", validations.output],
      ] as const) {
        for (const v of list) {
          const severity = SEVERITY[v.severity] ?? String(v.severity);
          logger[severity === "Error" ? "error" : "info"]({ name: "VALIDATOR" }, `Violation: ${[prefix, ...(v.path ?? [])].join(".")} ${v.message}`);
          if (prefix === "request" && severity === "Error")
            violations.push({ location: [prefix, ...(v.path ?? []).map(String)], severity, code: v.code, message: v.message });
        }
      }
      return { status: output.statusCode, headers: lowerCaseKeys(output.headers ?? {}), body: output.body, violations };
    },
  };
}

function errorResult(error: {
  name?: string;
  message?: string;
  status?: number;
  detail?: string;
  additional?: { headers?: Record<string, string> };
}): PrismResult {
  const status = typeof error.status === "number" ? error.status : 500;
  return {
    status,
    headers: lowerCaseKeys(error.additional?.headers ?? {}),
    body: undefined,
    error: { type: String(error.name ?? ""), title: String(error.message ?? ""), status, detail: typeof error.detail === "string" ? error.detail : "" },
    violations: [],
  };
}

function withoutUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

function lowerCaseKeys(headers: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) out[name.toLowerCase()] = String(value);
  return out;
}

/** Prism logs pino JSON lines; print them as "[NAME] message" for people. */
function readableLogLines() {
  return {
    write(line: string) {
      try {
        const entry = JSON.parse(line);
        const request = entry.input ? ` ${String(entry.input.method).toUpperCase()} ${entry.input.url?.path ?? ""}` : "";
        process.stdout.write(`[${entry.name ?? "PRISM"}]${request} ${entry.msg ?? ""}\n`);
      } catch {
        process.stdout.write(line);
      }
    },
  };
}
