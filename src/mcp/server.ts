// createMcpServer: the MCP server over a DeploymentsClient, with the SDK's low-level Server so that
// the tools' schemas are the plain JSON Schema built from the document. Each call is caught whole:
// a bad argument, an error of the service or a bug in a tool answers an error result, and the
// server goes on answering.
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, ElicitResultSchema, ErrorCode, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import type { JsonSchemaType, JsonSchemaValidator, jsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/types.js";
import type { DeploymentsClient } from "../client/client.js";
import { checkDelay } from "../client/option-checks.js";
import { planLines } from "../client/plan.js";
import { DEFAULT_WAIT } from "../client/wait-for-revision.js";
import { openApiDocument } from "../shared/document.js";
import { Masker } from "../shared/mask.js";
import { terminalSafe } from "../shared/terminal-text.js";
import { boundedResult, failureResult, offSchemaResult, type ToolResult } from "./results.js";
import type { ToolContext, ToolDefinition } from "./tool.js";
import { toolsFor } from "./tools.js";
import { isPlainObject } from "./arguments.js";

export interface McpServerOptions {
  /** The client the tools call the service with (its base URL, key, tenant, retries and timeouts). */
  client: DeploymentsClient;
  /** Serve only the tools that change nothing (no deploy, rollback or update_listener). Default false. */
  readOnly?: boolean;
  /** The pause between two polls of a revision while a tool waits. Default 2,000 ms. */
  pollIntervalMs?: number;
  /**
   * Values never to show an agent, such as the API key: replaced by *** where the service quotes them
   * back (src/shared/mask.ts). The secrets sent by a deploy are added per call.
   */
  redact?: readonly string[];
  /**
   * Ask the person behind the client to confirm deploy and rollback before anything is sent, where
   * the client supports elicitation (where it does not, the tools' annotations are the only signal).
   * Default true; `dms mcp --yes` sets it false.
   */
  confirmChanges?: boolean;
}

/** How long a confirmation may wait for the person; no answer by then is no. */
const CONFIRM_TIMEOUT_MS = 10 * 60_000;

/** What the confirmation asks for: one yes/no field, as every elicitation-capable client can show it. */
const CONFIRM_SCHEMA = {
  type: "object",
  properties: { confirm: { type: "boolean", title: "Send this change", description: "Tick to send it; anything else sends nothing." } },
  required: ["confirm"],
} as const;

/**
 * tools/call as sent. The SDK's CallToolRequestSchema reads `arguments` as a record, which drops a
 * `__proto__` key without a word; this schema checks only the method and keeps the request as it
 * came, so that every argument an agent sent, whatever its name, is read and named when it is not
 * one. (The SDK still checks the request against its own schema before the handler runs.)
 */
const CallToolAsSent = CallToolRequestSchema.pick({ method: true }).loose();

const INSTRUCTIONS = `Tools for the Deployment Management Service: agent applications (deployments) and their revisions.
To deploy: list_deployments (find the id) -> deploy (patch + wait; progress reports each revision state) -> the answer says whether it ended DEPLOYED.
A failed revision is an answer with isError set and the revision in structuredContent; list_revisions shows the history.`;

/**
 * A JSON-RPC error for the SDK to send: its code and its message as they are. (An McpError's message
 * already starts "MCP error -32602: ", and the client's McpError adds that again, so an agent read
 * the prefix twice.)
 */
function protocolError(code: number, message: string): Error {
  return Object.assign(new Error(message), { code });
}

/** Secret values in a deploy's arguments, so that an answer never repeats them. */
function secretValuesOf(args: unknown): string[] {
  const secrets = isPlainObject(args) ? args.secrets : undefined;
  if (!Array.isArray(secrets)) return [];
  return secrets.map((s: unknown) => (isPlainObject(s) ? s.value : undefined)).filter((v): v is string => typeof v === "string");
}

/**
 * A tool result with the service's data masked by structure; the text block that is that data as
 * JSON is written again from the masked data, so that the two stay the same. The other text blocks
 * are the tool's own words (an error's were masked with the error), left as they are.
 */
function maskedResult(result: ToolResult, masker: Masker): ToolResult {
  if (result.structuredContent === undefined) return result;
  const json = JSON.stringify(result.structuredContent);
  const data = masker.data(result.structuredContent);
  const content = result.content.map((block) => (block.text === json ? { ...block, text: JSON.stringify(data) } : block));
  return { ...result, content, structuredContent: data };
}

/**
 * The SDK's own validator (the one its client checks results with), loaded by a specifier held in a
 * variable: its declaration file does not pass this project's type-check (skipLibCheck is off), and
 * what is used of it is typed by the SDK's validation/types.js.
 */
const AJV_PROVIDER = "@modelcontextprotocol/sdk/validation/ajv";

/**
 * Checks a result's structured content against its tool's output schema, with the validator the
 * SDK's client checks it with: a client refuses a whole answer whose structured content does not
 * match (-32602), so a service answer off the document (a revision without its created_at) would
 * reach the agent as a protocol error instead of as the data. Each tool's schema is compiled once.
 */
function outputChecker(): (tool: ToolDefinition, result: ToolResult) => Promise<ToolResult> {
  let validator: Promise<jsonSchemaValidator> | undefined;
  const compiled = new Map<string, JsonSchemaValidator<unknown>>();
  return async (tool, result) => {
    if (result.structuredContent === undefined) return result;
    validator ??= (import(AJV_PROVIDER) as Promise<{ AjvJsonSchemaValidator: new () => jsonSchemaValidator }>).then(
      ({ AjvJsonSchemaValidator }) => new AjvJsonSchemaValidator(),
    );
    let check = compiled.get(tool.name);
    if (!check) {
      check = (await validator).getValidator<unknown>(tool.outputSchema as JsonSchemaType);
      compiled.set(tool.name, check);
    }
    const checked = check(result.structuredContent);
    return checked.valid ? result : offSchemaResult(tool.name, result, checked.errorMessage ?? "it does not match the tool's output schema");
  };
}

export function createMcpServer(options: McpServerOptions): Server {
  if (typeof options !== "object" || options === null || typeof options.client?.GET !== "function") {
    throw new TypeError("createMcpServer: expected { client } with a client from createDeploymentsClient");
  }
  const { client, readOnly = false, pollIntervalMs = DEFAULT_WAIT.intervalMs, redact = [], confirmChanges = true } = options;
  // Checked here, at creation, rather than as an error of every call that waits.
  if (typeof readOnly !== "boolean") throw new TypeError("createMcpServer: readOnly must be true or false");
  if (typeof confirmChanges !== "boolean") throw new TypeError("createMcpServer: confirmChanges must be true or false");
  checkDelay("createMcpServer", "pollIntervalMs", pollIntervalMs);
  if (!Array.isArray(redact) || !redact.every((value) => typeof value === "string")) {
    throw new TypeError("createMcpServer: redact must be an array of strings (the values never to show, such as the API key)");
  }
  const tools = toolsFor(readOnly);
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  const checkOutput = outputChecker();
  const server = new Server(
    { name: "deployment-management-api", version: String(isPlainObject(openApiDocument.info) ? (openApiDocument.info.version ?? "0") : "0") },
    { capabilities: { tools: {} }, instructions: INSTRUCTIONS },
  );

  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: tools.map((tool) => ({
      name: tool.name,
      title: tool.title,
      description: tool.description,
      inputSchema: tool.inputSchema,
      outputSchema: tool.outputSchema,
      annotations: tool.annotations,
    })),
  }));

  server.setRequestHandler(CallToolAsSent, async (request, extra) => {
    // The SDK has checked that params.name is a string and arguments, when given, an object.
    const params: unknown = request.params;
    const name = isPlainObject(params) && typeof params.name === "string" ? params.name : "";
    const args = isPlainObject(params) ? params.arguments : undefined;
    const tool = byName.get(name);
    if (!tool) {
      const hidden = readOnly && toolsFor(false).some((t) => t.name === name) ? " (this server is read-only)" : "";
      throw protocolError(ErrorCode.InvalidParams, `unknown tool ${JSON.stringify(name)}${hidden}; the tools are ${tools.map((t) => t.name).join(", ")}`);
    }
    const progressToken = extra._meta?.progressToken;
    let step = 0;
    // Notifications go out one after another, and all of them before the result: a client drops
    // progress for a request that has been answered, so the last state would be lost otherwise.
    let sent: Promise<void> = Promise.resolve();
    const context: ToolContext = {
      client,
      signal: extra.signal,
      intervalMs: pollIntervalMs,
      progress(message) {
        if (progressToken === undefined || extra.signal.aborted) return sent;
        step += 1;
        // A revision's status as the service wrote it: shown by clients as it is, so escaped as dms escapes it.
        const params = { progressToken, progress: step, message: terminalSafe(message) };
        // A caller that went away cannot be told; the work goes on to its end or its cancel.
        sent = sent.then(() => extra.sendNotification({ method: "notifications/progress", params }).catch(() => {}));
        return sent;
      },
    };
    const masker = new Masker({ keys: redact, secrets: secretValuesOf(args) });
    // Asked only of a client that declared it can show a form (elicitation), unless --yes.
    if (confirmChanges && server.getClientCapabilities()?.elicitation) {
      context.confirm = async (plan) => {
        const message = [
          `${plan.action} deployment ${plan.deployment_id}? Nothing is sent unless you confirm.`,
          ...planLines(masker.data(plan)).map(terminalSafe),
        ].join("\n");
        try {
          const answer = await extra.sendRequest({ method: "elicitation/create", params: { message, requestedSchema: CONFIRM_SCHEMA } }, ElicitResultSchema, {
            timeout: CONFIRM_TIMEOUT_MS,
          });
          return answer.action === "accept" && answer.content?.confirm === true;
        } catch (error) {
          // A cancelled call stays a cancel; a client that failed to ask, or never answered, is a no.
          if (extra.signal.aborted) throw error;
          return false;
        }
      };
    }
    let result: ToolResult;
    try {
      result = await tool.run(args, context);
    } catch (error) {
      result = failureResult(name, masker.error(error));
    }
    await sent;
    try {
      return await checkOutput(tool, boundedResult(name, maskedResult(result, masker)));
    } catch (error) {
      // An answer nested too deep to walk: the call still gets an answer.
      return failureResult(name, masker.error(error));
    }
  });

  return server;
}
