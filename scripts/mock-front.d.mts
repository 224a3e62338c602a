// Types for scripts/mock-front.mjs, so TypeScript tests can import it.
import type { PrismServerOptions, RunningServer } from "./prism-server.mjs";
export interface RunningMock extends RunningServer {
  /** Prism itself, behind the front. */
  prismUrl: string;
}
export declare function startMock(options?: PrismServerOptions): Promise<RunningMock>;
