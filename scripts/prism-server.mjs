// Starts Prism in-process on the bundled document: request validation and security checks on,
// examples (not random data) in answers. Shared by `npm start` (scripts/mock.mjs) and the tests
// (test/support/prism.ts), so both run exactly the same mock.
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

// Prism's packages are CommonJS.
const require = createRequire(import.meta.url);
loadEnglishFakerOnly();
const { createServer } = require("@stoplight/prism-http-server");
const { getHttpOperationsFromSpec } = require("@stoplight/prism-http");
const { createLogger } = require("@stoplight/prism-core");

/**
 * Prism's mocker requires @faker-js/faker 6, whose entry point loads every locale: about 1.2 of the
 * 3 seconds Prism takes to load. The mock answers with the document's examples and uses faker only
 * for `Prefer: dynamic=true`, so the English-only build (same API) is put in its place. Start-up
 * time matters here: `npm start` and every test that starts the mock pay it.
 */
function loadEnglishFakerOnly() {
  try {
    const fromPrism = createRequire(require.resolve("@stoplight/prism-http"));
    const entry = fromPrism.resolve("@faker-js/faker");
    if (require.cache[entry]) return;
    const english = fromPrism("@faker-js/faker/locale/en");
    const module = new (require("node:module"))(entry);
    module.filename = entry;
    module.loaded = true;
    module.exports = { __esModule: true, default: english, faker: english };
    require.cache[entry] = module;
  } catch {
    // A different faker layout: load Prism as it is, only slower.
  }
}

export const DEFAULT_DOCUMENT = fileURLToPath(new URL("../generated/openapi.json", import.meta.url));

/**
 * @param {{ document?: string | object, port?: number, host?: string, logLevel?: string, cors?: boolean }} [options]
 * @returns {Promise<{ baseUrl: string, operations: { method: string, path: string }[], close(): Promise<void> }>}
 */
export async function startPrismServer(options = {}) {
  const { document = DEFAULT_DOCUMENT, port = 0, host = "127.0.0.1", logLevel = "silent", cors = true } = options;
  const operations = await getHttpOperationsFromSpec(document);
  if (operations.length === 0) throw new Error(`no operations found in ${String(document)}`);
  const logger = createLogger("CLI", { level: logLevel }, logLevel === "silent" ? undefined : readableLogLines());
  const server = createServer(operations, {
    cors,
    config: {
      validateRequest: true,
      // Response violations are only logged (and put in the sl-violations header), never turned into errors.
      validateResponse: true,
      checkSecurity: true,
      errors: false,
      isProxy: false,
      upstreamProxy: undefined,
      mock: { dynamic: false },
    },
    components: { logger: logger.child({ name: "HTTP SERVER" }) },
  });
  const address = await server.listen(port, host);
  return {
    // Prism reports "http://<address>:<port>"; callers use an IPv4 or name host.
    baseUrl: address,
    // What Prism serves: each operation's `method` and `path` template, among others.
    operations,
    // Node 20's server.close() also drops idle keep-alive sockets, so the port is free once it resolves.
    close: () => server.close(),
  };
}

/** Prism logs pino JSON lines; print them as "[NAME] message" for people. */
function readableLogLines() {
  return {
    write(line) {
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
