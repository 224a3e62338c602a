// `npm start`'s command line (tools/run/mock.ts runs the compiled copy, dist/mock/cli.js): flags and
// environment to options, the banner, and stopping on Ctrl-C, SIGTERM or when npm goes away
// (src/local-server/listen.ts, as every local server).
//   PORT (default 4010), HOST (default 127.0.0.1), --verbose / -v or LOG_LEVEL=info|debug for logs,
//   --allowed-host NAME and --cors-origin ORIGIN (repeatable; or MOCK_ALLOWED_HOSTS and
//   MOCK_CORS_ORIGINS, comma-separated).
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { parseAllowedHost, parseCorsOrigin } from "../gate/policy.js";
import { PortInUseError, portInUseLine, stopOnSignals } from "../local-server/listen.js";
import { parsePort } from "../shared/port.js";
import { terminalSafe, usageErrorLines } from "../shared/terminal-text.js";
import { type RunningMock, startMock } from "./front.js";

const DOCUMENT = fileURLToPath(new URL("../../generated/openapi.yaml", import.meta.url));
export const USAGE = `usage: npm start [-- options]
  --verbose, -v           log every request, Prism's routing and each violation
  --allowed-host NAME     also answer requests addressed to NAME (repeatable; .NAME takes its subdomains too)
  --cors-origin ORIGIN    also let pages on ORIGIN (scheme://host[:port]) read answers (repeatable)
env: PORT (4010), HOST (127.0.0.1), LOG_LEVEL (silent|info|debug),
     MOCK_ALLOWED_HOSTS, MOCK_CORS_ORIGINS (comma-separated)`;

class UsageError extends Error {}

/** Runs the mock until a signal; exits the process with 2 on a usage error and 1 when it cannot start. */
export async function runMockCli(argv: string[] = process.argv.slice(2), env: NodeJS.ProcessEnv = process.env): Promise<void> {
  let options: Parameters<typeof startMock>[0];
  try {
    const flags = parseArgs({
      args: argv,
      options: {
        help: { type: "boolean", short: "h" },
        verbose: { type: "boolean", short: "v" },
        "allowed-host": { type: "string", multiple: true },
        "cors-origin": { type: "string", multiple: true },
      },
      strict: true,
    }).values;
    if (flags.help) {
      console.log(USAGE);
      process.exit(0);
    }
    options = {
      document: DOCUMENT,
      port: env.PORT ? parsePort("PORT", env.PORT) : 4010,
      host: env.HOST || "127.0.0.1",
      logLevel: env.LOG_LEVEL || (flags.verbose ? "info" : "silent"),
      allowedHosts: listOption("--allowed-host", flags["allowed-host"], "MOCK_ALLOWED_HOSTS", env, parseAllowedHost),
      corsOrigins: listOption("--cors-origin", flags["cors-origin"], "MOCK_CORS_ORIGINS", env, parseCorsOrigin),
    };
  } catch (error) {
    const message = (error as Error).message;
    // Every usage error with the usage line, as every local server says one.
    console.error(usageErrorLines("mock", message, USAGE));
    process.exit(2);
  }

  let mock: RunningMock;
  try {
    mock = await startMock(options);
  } catch (error) {
    if (error instanceof PortInUseError) console.error(portInUseLine("mock", error.port, "PORT (PORT=4020 npm start)"));
    else console.error(`mock: cannot start: ${terminalSafe(String((error as Error)?.message ?? error))}`);
    process.exit(1);
  }

  // Before the URL is printed: whoever reads it may stop the mock at once.
  stopOnSignals(() => mock.close(), env);
  console.log(`Mock of the Deployment Management API listening on ${mock.baseUrl} (Prism, generated/openapi.yaml)`);
  console.log(`  try: curl -H 'X-Api-Key: dev' ${mock.baseUrl}/v2/deployments`);
  if (options.allowedHosts?.length) console.log(`  also answers Host: ${options.allowedHosts.join(", ")}`);
  if (options.corsOrigins?.length) console.log(`  CORS also for: ${options.corsOrigins.join(", ")}`);
  if (options.logLevel === "silent") console.log("  quiet: add --verbose (npm start -- --verbose) to log each request and violation");
}

/** The values of a repeatable flag, or of its comma-separated environment variable; each checked. */
function listOption(flag: string, values: string[] | undefined, envName: string, env: NodeJS.ProcessEnv, parse: (value: string) => string): string[] {
  const raw = values ?? (env[envName] ? env[envName].split(",").filter((v) => v.trim() !== "") : []);
  const source = values ? flag : envName;
  return raw.map((value) => {
    try {
      return parse(value);
    } catch (error) {
      throw new UsageError(`${source}: ${(error as Error).message}`);
    }
  });
}
