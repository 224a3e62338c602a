// Starts the mock in-process on a random port for a test, on generated/openapi.json.
// `front: true` is exactly what `npm start` serves: the front (src/mock/front.ts) on Prism's engine.
// Without it, bare Prism's own HTTP server: what the front exists to fix, kept so the tests show
// when a Prism upgrade fixes it (nothing in the product starts it).
import { createRequire } from "node:module";
import { startMock } from "../../src/mock/front.js";
import { DEFAULT_DOCUMENT } from "../../src/mock/prism.js";

export interface RunningPrism {
  baseUrl: string;
  close(): Promise<void>;
}

const require = createRequire(import.meta.url);

export async function startPrism(options: { front?: boolean } = {}): Promise<RunningPrism> {
  if (options.front) return startMock({ port: 0, host: "127.0.0.1" });
  const { createServer } = require("@stoplight/prism-http-server");
  const { getHttpOperationsFromSpec } = require("@stoplight/prism-http");
  const { createLogger } = require("@stoplight/prism-core");
  const operations = await getHttpOperationsFromSpec(DEFAULT_DOCUMENT);
  const logger = createLogger("TEST", { level: "silent" });
  const server = createServer(operations, {
    cors: true,
    config: { validateRequest: true, validateResponse: true, checkSecurity: true, errors: false, isProxy: false, mock: { dynamic: false } },
    components: { logger: logger.child({ name: "HTTP SERVER" }) },
  });
  const baseUrl: string = await server.listen(0, "127.0.0.1");
  return { baseUrl, close: () => server.close() };
}
