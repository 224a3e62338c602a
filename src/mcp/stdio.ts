// The MCP server over this process's stdin and stdout, as `dms mcp` runs it. stdout carries only
// the protocol; the server ends when the client closes stdin.
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { createMcpServer, type McpServerOptions } from "./server.js";

/** Serves until stdin ends; resolves once connected. */
export async function serveStdio(options: McpServerOptions): Promise<{ close(): Promise<void> }> {
  const server = createMcpServer(options);
  const transport = new StdioServerTransport();
  await server.connect(transport);
  // The client closing stdin is the end of the session: in-flight calls are aborted with it.
  process.stdin.once("end", () => void server.close());
  return server;
}
