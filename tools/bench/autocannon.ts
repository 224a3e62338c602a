// autocannon, the HTTP load generator of the benches, with the part of its API they use typed here
// (the package ships no types) and its callback turned into a promise.
import { createRequire } from "node:module";

/** One request of a load's mix; setupRequest rewrites it before each send. */
export interface LoadRequest {
  method?: string;
  path?: string;
  headers?: Record<string, string>;
  body?: string;
  setupRequest?: (request: LoadRequest) => LoadRequest;
}

export interface LoadOptions {
  url: string;
  connections?: number;
  duration?: number;
  headers?: Record<string, string>;
  requests?: LoadRequest[];
}

/** The figures of a finished load the benches read. */
export interface LoadResult {
  requests: { total: number };
  latency: { p99: number };
  non2xx: number;
  errors: number;
  timeouts: number;
}

type Autocannon = (options: LoadOptions, done: (error: Error | null, result: LoadResult) => void) => unknown;
const autocannon = createRequire(import.meta.url)("autocannon") as Autocannon;

/** Runs one load to its end. */
export function load(options: LoadOptions): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    autocannon(options, (error, result) => (error ? reject(error) : resolve(result)));
  });
}
