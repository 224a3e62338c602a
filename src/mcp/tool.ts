// What a tool is: its name, the description an agent chooses it by, its schemas and hints, and the
// function that runs it. The server (server.ts) lists and calls these; the tool files define them.
import type { DeploymentsClient } from "../client/client.js";
import type { ChangePlan } from "../client/plan.js";
import type { JsonSchema } from "./json-schema.js";
import type { ToolResult } from "./results.js";

export interface ToolContext {
  client: DeploymentsClient;
  /** Aborted when the caller cancels the call or the connection closes. */
  signal: AbortSignal;
  /** Tells the caller how long work is going (a revision's state); does nothing when it asked for no progress. */
  progress(message: string): Promise<void>;
  /** The pause between two polls of a revision. */
  intervalMs: number;
  /**
   * Asks the person behind the client to confirm a change before it is sent (MCP elicitation),
   * showing the plan; answers whether they accepted. Undefined when the server does not ask: the
   * client cannot be asked (no elicitation capability), or the server was started with --yes.
   */
  confirm?: (plan: ChangePlan) => Promise<boolean>;
}

/** MCP's hints: only the ones that mean something for the tool (the destructive and idempotent hints mean nothing on a read). */
export interface ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
}

export interface ToolDefinition {
  name: string;
  /** For people: a client's list of tools and its approval prompts. */
  title: string;
  description: string;
  inputSchema: JsonSchema;
  /** The schema of structuredContent; every tool that answers data has one. */
  outputSchema: JsonSchema;
  annotations: ToolAnnotations;
  /** Reads the arguments (throwing ArgumentError), calls the service and answers. */
  run(args: unknown, context: ToolContext): Promise<ToolResult>;
}

/** Hints of a tool that only reads. */
export const READ_HINTS: ToolAnnotations = { readOnlyHint: true };

/** Hints of a tool that changes something. */
export function writeHints(hints: { destructive: boolean; idempotent: boolean }): ToolAnnotations {
  return { readOnlyHint: false, destructiveHint: hints.destructive, idempotentHint: hints.idempotent };
}
