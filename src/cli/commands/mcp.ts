// dms mcp: the MCP server (src/mcp) on stdin and stdout, or with --port over Streamable HTTP on
// 127.0.0.1, configured like every other command (flags, then DMS_BASE_URL, DMS_API_KEY,
// DMS_TENANT_ID). The SDK is an optional peer: it is loaded only here, and its absence is one line
// that says how to install it.
import { DEFAULT_WAIT } from "../../client/wait-for-revision.js";
import { parseCorsOrigin } from "../../gate/policy.js";
import { parsePort } from "../../shared/port.js";
import type { McpServerOptions } from "../../mcp/server.js";
import { clientFor, readConnection } from "../connection.js";
import type { Io } from "../output.js";
import { MCP } from "../specs.js";
import { parseCommand, parseDuration, UsageError } from "../usage.js";

const SDK = "@modelcontextprotocol/sdk";

function isMissingSdk(error: unknown): boolean {
  const { code, message } = error as { code?: unknown; message?: unknown };
  return code === "ERR_MODULE_NOT_FOUND" && typeof message === "string" && message.includes(SDK);
}

function portFlag(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  try {
    return parsePort("--port", raw);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

/** --allow-origin, each checked as an origin; only with --port (stdio has no origins). */
function allowOriginFlags(raw: string[] | undefined, port: number | undefined): string[] {
  if (raw === undefined || raw.length === 0) return [];
  if (port === undefined) throw new UsageError("--allow-origin needs --port: over stdio there is no page to admit");
  return raw.map((value) => {
    try {
      return parseCorsOrigin(value);
    } catch (error) {
      throw new UsageError(`--allow-origin ${(error as Error).message}`);
    }
  });
}

/** Loads a module that needs the SDK, or says how to install it and answers undefined. */
async function withSdk<T>(io: Io, load: () => Promise<T>): Promise<T | undefined> {
  try {
    return await load();
  } catch (error) {
    if (!isMissingSdk(error)) throw error;
    io.stderr.write(`dms mcp: needs the optional peer ${SDK}; install it with: npm install --save-dev ${SDK}\n`);
    return undefined;
  }
}

/** Serves until the client closes stdin (or, over HTTP, until a signal): returns -1 (the process lives on), or an exit code when it cannot start. */
export async function run(args: string[], io: Io): Promise<number> {
  const { values } = parseCommand(args, MCP);
  const pollIntervalMs = parseDuration("--interval", values.interval, DEFAULT_WAIT.intervalMs);
  const port = portFlag(values.port);
  const allowOrigins = allowOriginFlags(values["allow-origin"], port);
  const connection = readConnection(values, io.env);
  io.redactor.addKey(connection.apiKey);
  const readOnly = values["read-only"] === true;
  const options: McpServerOptions = {
    client: clientFor(connection),
    readOnly,
    pollIntervalMs,
    redact: [connection.apiKey],
    confirmChanges: values.yes !== true,
  };
  const tools = readOnly ? "the read-only tools" : "the tools";
  // What people should see goes to stderr, which MCP clients log; on stdio, stdout is the protocol's.
  const tell = (line: string) => io.stderr.write(`${line}\n`);

  if (port === undefined) {
    const stdio = await withSdk(io, () => import("../../mcp/stdio.js"));
    if (!stdio) return 1;
    await stdio.serveStdio({ ...options, log: tell });
    tell(`dms mcp: serving ${tools} of ${connection.baseUrl} on stdio`);
    return -1;
  }
  const http = await withSdk(io, () => import("../../mcp/http.js"));
  if (!http) return 1;
  let server: Awaited<ReturnType<typeof http.serveHttp>>;
  try {
    server = await http.serveHttp({ ...options, port, allowOrigins });
  } catch (error) {
    const { PortInUseError, portInUseLine } = await import("../../local-server/listen.js");
    tell(error instanceof PortInUseError ? portInUseLine("dms mcp", port, "--port") : `dms mcp: cannot listen on 127.0.0.1:${port}: ${String(error)}`);
    return 1;
  }
  // Before the URL is printed: whoever reads it may stop the server at once.
  const { stopOnSignals } = await import("../../local-server/listen.js");
  stopOnSignals(() => server.close(), io.env);
  io.stdout.write(`${server.url}\n`);
  tell(`dms mcp: serving ${tools} of ${connection.baseUrl} at ${server.url}`);
  return -1;
}
