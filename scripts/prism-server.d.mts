// Types for scripts/prism-server.mjs, so TypeScript tests can import it.
export declare const DEFAULT_DOCUMENT: string;
export interface PrismServerOptions {
  /** A path to an OpenAPI document, or the parsed document. Defaults to generated/openapi.json. */
  document?: string | object;
  /** 0 (the default) picks a free port. */
  port?: number;
  host?: string;
  /** A pino level: "silent" (default), "info", "debug"... */
  logLevel?: string;
  cors?: boolean;
}
export interface RunningServer {
  baseUrl: string;
  close(): Promise<void>;
}
export interface RunningPrismServer extends RunningServer {
  /** The operations Prism serves (Prism's own objects; `method` lower-case, `path` the template). */
  operations: { method: string; path: string; [key: string]: unknown }[];
}
export declare function startPrismServer(options?: PrismServerOptions): Promise<RunningPrismServer>;
