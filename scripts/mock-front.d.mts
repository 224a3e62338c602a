// Types for scripts/mock-front.mjs, so TypeScript tests can import it.
import type { RequestBounds } from "../dist/local-server/bounds.js";
import type { PrismServerOptions, RunningServer } from "./prism-server.mjs";
export interface MockOptions extends Omit<PrismServerOptions, "cors"> {
  /** Host names answered besides localhost, 127.0.0.1, [::1] and *.localhost (`--allowed-host`). */
  allowedHosts?: string[];
  /** Origins given CORS access besides loopback ones (`--cors-origin`). */
  corsOrigins?: string[];
  /** Request bounds; REQUEST_BOUNDS by default. */
  bounds?: RequestBounds;
}
export interface RunningMock extends RunningServer {
  /** Prism itself, behind the front. */
  prismUrl: string;
}
export declare function startMock(options?: MockOptions): Promise<RunningMock>;
