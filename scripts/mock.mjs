#!/usr/bin/env node
// `npm start`: the request-validating Prism mock of the bundled document, behind the small front
// that gives every error the documented problem+json shape (scripts/mock-front.mjs).
//   PORT (default 4010), HOST (default 127.0.0.1), --verbose / -v or LOG_LEVEL=info|debug for logs.
import { fileURLToPath } from "node:url";
import { startMock } from "./mock-front.mjs";

const DOCUMENT = fileURLToPath(new URL("../generated/openapi.yaml", import.meta.url));
const args = process.argv.slice(2);
if (args.includes("--help") || args.includes("-h")) {
  console.log("usage: npm start [-- --verbose]   env: PORT (4010), HOST (127.0.0.1), LOG_LEVEL (silent|info|debug)");
  process.exit(0);
}
const verbose = args.includes("--verbose") || args.includes("-v");
const logLevel = process.env.LOG_LEVEL || (verbose ? "info" : "silent");
const port = Number(process.env.PORT || 4010);
const host = process.env.HOST || "127.0.0.1";

let mock;
try {
  mock = await startMock({ document: DOCUMENT, port, host, logLevel });
} catch (error) {
  const reason = error?.code === "EADDRINUSE" ? `port ${port} is in use (set PORT to another one)` : String(error?.message ?? error);
  console.error(`mock: cannot start: ${reason}`);
  process.exit(1);
}

console.log(`Mock of the Deployment Management API listening on ${mock.baseUrl} (Prism, generated/openapi.yaml)`);
console.log(`  try: curl -H 'X-Api-Key: dev' ${mock.baseUrl}/v2/deployments`);
if (logLevel === "silent") console.log("  quiet: add --verbose (npm start -- --verbose) to log each request and violation");

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
