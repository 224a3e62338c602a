// deployment-management-api/mcp: the MCP server of the Deployment Management Service, for hosting
// it yourself (`dms mcp` serves it over stdio). Needs the optional peer @modelcontextprotocol/sdk.
//   const server = createMcpServer({ client: createDeploymentsClient({ baseUrl, apiKey }), readOnly: true });
//   await server.connect(transport);
export { createMcpServer, type McpServerOptions } from "./server.js";
export { TOOLS, toolsFor } from "./tools.js";
export type { ToolAnnotations, ToolContext, ToolDefinition } from "./tool.js";
