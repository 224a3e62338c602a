// The curated tool set, in the order tools/list shows it: a few tools an agent can choose between,
// not one per endpoint. Read-only mode keeps the tools whose readOnlyHint is true.
import { updateListener } from "./listener-tool.js";
import {
  getDeployment,
  getRevision,
  listAgentConnections,
  listDeployments,
  listListeners,
  listOAuthProviders,
  listRepositories,
  listRevisions,
} from "./read-tools.js";
import { deploy, waitForRevisionTool } from "./revision-tools.js";
import { rollback } from "./rollback-tool.js";
import type { ToolDefinition } from "./tool.js";

export const TOOLS: readonly ToolDefinition[] = [
  listDeployments,
  getDeployment,
  listRevisions,
  getRevision,
  deploy,
  rollback,
  waitForRevisionTool,
  listListeners,
  updateListener,
  listOAuthProviders,
  listAgentConnections,
  listRepositories,
];

/** The tools served: all of them, or only those that change nothing. */
export function toolsFor(readOnly: boolean): ToolDefinition[] {
  return TOOLS.filter((tool) => !readOnly || tool.annotations.readOnlyHint);
}
