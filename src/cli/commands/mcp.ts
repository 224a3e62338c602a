// dms mcp: the MCP server (src/mcp) on stdin and stdout, configured like every other command
// (flags, then DMS_BASE_URL, DMS_API_KEY, DMS_TENANT_ID). The SDK is an optional peer: it is loaded
// only here, and its absence is one line that says how to install it.
import { DEFAULT_WAIT } from "../../client/wait-for-revision.js";
import { clientFor, readConnection } from "../connection.js";
import type { Io } from "../output.js";
import { MCP } from "../specs.js";
import { parseCommand, parseDuration } from "../usage.js";

const SDK = "@modelcontextprotocol/sdk";

function isMissingSdk(error: unknown): boolean {
  const { code, message } = error as { code?: unknown; message?: unknown };
  return code === "ERR_MODULE_NOT_FOUND" && typeof message === "string" && message.includes(SDK);
}

/** Serves until the client closes stdin: returns -1 (the process lives on), or an exit code when it cannot start. */
export async function run(args: string[], io: Io): Promise<number> {
  const { values } = parseCommand(args, MCP);
  const pollIntervalMs = parseDuration("--interval", values.interval, DEFAULT_WAIT.intervalMs);
  const connection = readConnection(values, io.env);
  io.redactor.add(connection.apiKey);
  let serveStdio: typeof import("../../mcp/stdio.js").serveStdio;
  try {
    ({ serveStdio } = await import("../../mcp/stdio.js"));
  } catch (error) {
    if (!isMissingSdk(error)) throw error;
    io.stderr.write(`dms mcp: needs the optional peer ${SDK}; install it with: npm install --save-dev ${SDK}\n`);
    return 1;
  }
  const readOnly = values["read-only"] === true;
  await serveStdio({ client: clientFor(connection), readOnly, pollIntervalMs, redact: [connection.apiKey] });
  // stdout is the protocol's: what people should see goes to stderr, which MCP clients log.
  io.stderr.write(`${io.redactor.apply(`dms mcp: serving ${readOnly ? "the read-only tools" : "the tools"} of ${connection.baseUrl} on stdio`)}\n`);
  return -1;
}
