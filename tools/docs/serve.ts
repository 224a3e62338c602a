// `npm run docs`: serves the built docs page (generated/docs/index.html) on http://127.0.0.1:8080
// (PORT overrides, HOST too) until Ctrl+C, SIGTERM or npm going away. The page is self-contained,
// so this only has to hand out one file (tools/docs/docs-server.ts); `npm run build` rebuilds it.
// A bad flag or PORT exits 2 with the usage line, a port in use 1 with one line, as every local server.
import { parseArgs } from "node:util";
import { PortInUseError, portInUseLine, stopOnSignals } from "../../src/local-server/listen.ts";
import { parsePort } from "../../src/shared/port.ts";
import { usageErrorLines } from "../../src/shared/terminal-text.ts";
import { startDocsServer } from "./docs-server.ts";

const USAGE = `usage: npm run docs [-- --help]
env: PORT (8080), HOST (127.0.0.1)`;

let port = 8080;
try {
  const { values } = parseArgs({ args: process.argv.slice(2), options: { help: { type: "boolean", short: "h" } }, strict: true, allowPositionals: false });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  if (process.env.PORT) port = parsePort("PORT", process.env.PORT);
} catch (error) {
  console.error(usageErrorLines("npm run docs", (error as Error).message, USAGE));
  process.exit(2);
}

const host = process.env.HOST || "127.0.0.1";
try {
  const server = await startDocsServer({ port, host });
  // Before the URL is printed: whoever reads it may stop the server at once.
  stopOnSignals(() => server.close());
  console.log(`Docs on ${server.url}/ (Ctrl+C stops)`);
} catch (error) {
  if (error instanceof PortInUseError) console.error(portInUseLine("npm run docs", port, "PORT (PORT=8081 npm run docs)"));
  else console.error(`npm run docs: cannot listen on ${host}: ${(error as Error).message}`);
  process.exit(1);
}
