#!/usr/bin/env node
// `npm start`: the request-validating Prism mock of the bundled document, behind the small front
// that answers errors as the simulator does and keeps the mock safe on a developer's machine
// (scripts/mock-front.mjs).
//   PORT (default 4010), HOST (default 127.0.0.1), --verbose / -v or LOG_LEVEL=info|debug for logs,
//   --allowed-host NAME and --cors-origin ORIGIN (repeatable; or MOCK_ALLOWED_HOSTS and
//   MOCK_CORS_ORIGINS, comma-separated).
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { compileIfStale } from "./compile-if-stale.mjs";

const DOCUMENT = fileURLToPath(new URL("../generated/openapi.yaml", import.meta.url));
const USAGE = `usage: npm start [-- options]
  --verbose, -v           log every request, Prism's routing and each violation
  --allowed-host NAME     also answer requests addressed to NAME (repeatable; .NAME takes its subdomains too)
  --cors-origin ORIGIN    also let pages on ORIGIN (scheme://host[:port]) read answers (repeatable)
env: PORT (4010), HOST (127.0.0.1), LOG_LEVEL (silent|info|debug),
     MOCK_ALLOWED_HOSTS, MOCK_CORS_ORIGINS (comma-separated)`;

function fail(message) {
  console.error(`mock: ${message}`);
  process.exit(2);
}

let flags;
try {
  flags = parseArgs({
    options: {
      help: { type: "boolean", short: "h" },
      verbose: { type: "boolean", short: "v" },
      "allowed-host": { type: "string", multiple: true },
      "cors-origin": { type: "string", multiple: true },
    },
    strict: true,
  }).values;
} catch (error) {
  fail(`${error.message}\n${USAGE}`);
}
if (flags.help) {
  console.log(USAGE);
  process.exit(0);
}

// The front uses src/local-server/ through dist/: a fresh clone or an edited src/ compiles first.
// tsc writes dist/ even when it reports type errors elsewhere in src/; the mock needs only its part.
if (!compileIfStale() && !existsSync(fileURLToPath(new URL("../dist/local-server/policy.js", import.meta.url)))) {
  fail("cannot compile src/ to dist/; run npm run build:ts to see why");
}
// Compiled just now when stale, so imported only now.
const { parseAllowedHost, parseCorsOrigin } = await import("../dist/local-server/policy.js");
const { startMock } = await import("./mock-front.mjs");

const allowedHosts = listOption("--allowed-host", flags["allowed-host"], "MOCK_ALLOWED_HOSTS", parseAllowedHost);
const corsOrigins = listOption("--cors-origin", flags["cors-origin"], "MOCK_CORS_ORIGINS", parseCorsOrigin);
const logLevel = process.env.LOG_LEVEL || (flags.verbose ? "info" : "silent");
const port = Number(process.env.PORT || 4010);
const host = process.env.HOST || "127.0.0.1";

let mock;
try {
  mock = await startMock({ document: DOCUMENT, port, host, logLevel, allowedHosts, corsOrigins });
} catch (error) {
  const reason = error?.code === "EADDRINUSE" ? `port ${port} is in use (set PORT to another one)` : String(error?.message ?? error);
  console.error(`mock: cannot start: ${reason}`);
  process.exit(1);
}

console.log(`Mock of the Deployment Management API listening on ${mock.baseUrl} (Prism, generated/openapi.yaml)`);
console.log(`  try: curl -H 'X-Api-Key: dev' ${mock.baseUrl}/v2/deployments`);
if (allowedHosts.length > 0) console.log(`  also answers Host: ${allowedHosts.join(", ")}`);
if (corsOrigins.length > 0) console.log(`  CORS also for: ${corsOrigins.join(", ")}`);
if (logLevel === "silent") console.log("  quiet: add --verbose (npm start -- --verbose) to log each request and violation");

/** The values of a repeatable flag, or of its comma-separated environment variable; each checked. */
function listOption(flag, values, envName, parse) {
  const raw = values ?? (process.env[envName] ? process.env[envName].split(",").filter((v) => v.trim() !== "") : []);
  const source = values ? flag : envName;
  return raw.map((value) => {
    try {
      return parse(value);
    } catch (error) {
      fail(`${source}: ${error.message}`);
    }
  });
}

let stopping = false;
async function stop() {
  // A second Ctrl-C, or a close that hangs on a slow client, ends the process at once.
  if (stopping) process.exit(130);
  stopping = true;
  setTimeout(() => process.exit(0), 3000).unref();
  await mock.close();
  process.exit(0);
}
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
// `npm start` does not pass a SIGTERM on to this process: when npm is gone (we were re-parented), stop too.
if (process.env.npm_lifecycle_event) {
  const parent = process.ppid;
  setInterval(() => {
    if (process.ppid !== parent) stop();
  }, 500).unref();
}
