// The tools that read: deployments, revisions, listeners, OAuth providers, agent connections and
// repositories. Each takes the operation's own parameter names and answers what the service
// answered (a list that is a bare array comes wrapped in an object, as structuredContent must be).
import { unwrap } from "../client/errors.js";
import { untypedMethods } from "../client/untyped-call.js";
import { type ArgumentsSpec, choiceArgument, inputSchema, isPlainObject, readArguments } from "./arguments.js";
import { componentSchema, type JsonSchema, operationOf } from "./json-schema.js";
import { dataResult, errorResult } from "./results.js";
import { READ_HINTS, type ToolContext, type ToolDefinition } from "./tool.js";

const OUT = { descriptions: false } as const;

/** GET an operation's path with checked parameters (the typed client cannot know which path a table row names). */
export async function getOperation(context: ToolContext, operationId: string, path: Record<string, unknown>, query: Record<string, unknown> = {}) {
  return unwrap(await untypedMethods(context.client).GET(operationOf(operationId).path, { params: { path, query }, signal: context.signal }));
}

/** A tool that is one GET: the operation's parameters in, its JSON out (shaped by `answer`). */
function readTool(definition: {
  name: string;
  title: string;
  description: string;
  args: ArgumentsSpec;
  outputSchema: JsonSchema;
  operationId?: (own: Record<string, unknown>) => string;
  answer?: (data: unknown) => Record<string, unknown>;
}): ToolDefinition {
  const { name, args } = definition;
  return {
    name,
    description: definition.description,
    inputSchema: inputSchema(args),
    outputSchema: definition.outputSchema,
    title: definition.title,
    annotations: READ_HINTS,
    async run(raw, context) {
      const read = readArguments(args, raw, name);
      const operationId = definition.operationId?.(read.own) ?? args.operationId;
      const data = await getOperation(context, operationId, read.path, read.query);
      if (definition.answer) return dataResult(definition.answer(data));
      // Every operation these tools read answers a JSON object.
      return isPlainObject(data) ? dataResult(data) : errorResult(`${name}: the service answered something other than a JSON object`);
    },
  };
}

const PAGING = "Paged: answers { resources, offset }; fewer resources than `limit` means the last page, else call again with the answered `offset`.";

export const listDeployments = readTool({
  name: "list_deployments",
  title: "List deployments",
  description:
    "Lists deployments (agent applications), newest first, with their status, source, latest_revision_id (the newest revision) " +
    "and active_revision_id (the one serving now). Use it to find a deployment's id by name (name_contains) or state before " +
    `deploying or reading revisions. Secret values come back as ***. ${PAGING}`,
  args: {
    operationId: "listDeployments",
    parameters: ["name_contains", "status", "deployment_type", "image_version", "remote_reconciled", "tag_value_ids", "deployment_ids", "limit", "offset"],
  },
  outputSchema: componentSchema("DeploymentPage", OUT),
});

export const getDeployment = readTool({
  name: "get_deployment",
  title: "Get a deployment",
  description:
    "Reads one deployment by id: its source, source_config, source_revision_config (what the latest revision was built from), " +
    "secret names (values as ***), status, latest_revision_id and active_revision_id. Use it to see what is deployed before changing it.",
  args: { operationId: "getDeployment", parameters: ["deployment_id"] },
  outputSchema: componentSchema("Deployment", OUT),
});

export const listRevisions = readTool({
  name: "list_revisions",
  title: "List a deployment's revisions",
  description:
    "Lists a deployment's revisions, newest first, whole (status, source, source_revision_config with repo_ref, image_uri and " +
    'repo_commit_sha). Use it to see the deploy history, find the last DEPLOYED revision (status: ["DEPLOYED"]) or why one failed. ' +
    PAGING,
  args: { operationId: "listRevisions", parameters: ["deployment_id", "status", "remote_reconciled", "limit", "offset"] },
  outputSchema: componentSchema("RevisionPage", OUT),
});

export const getRevision = readTool({
  name: "get_revision",
  title: "Get a revision",
  description:
    "Reads one revision of a deployment: its status (CREATING … DEPLOYED, or CREATE_FAILED, BUILD_FAILED, DEPLOY_FAILED, " +
    "SKIPPED, INTERRUPTED) and what it was built from. One read, no waiting: use wait_for_revision to wait for it to end.",
  args: { operationId: "getRevision", parameters: ["deployment_id", "revision_id"] },
  outputSchema: componentSchema("Revision", OUT),
});

export const listListeners = readTool({
  name: "list_listeners",
  title: "List listeners",
  description:
    "Lists listeners: the Kubernetes clusters registered for self-hosted deployments, with compute_id (the cluster), " +
    `compute_config.k8s_namespaces and version. A deployment runs on one as source_config.listener_id. ${PAGING}`,
  args: { operationId: "listListeners", parameters: ["limit", "offset"] },
  outputSchema: componentSchema("ListenerPage", OUT),
});

export const listOAuthProviders = readTool({
  name: "list_oauth_providers",
  title: "List OAuth providers",
  description:
    "Lists the OAuth providers registered for the organization (provider_id such as github, endpoints, PKCE), which agents " +
    "obtain tokens from. Answers { providers: [...] }; client secrets are never part of it.",
  args: { operationId: "listOAuthProviders", parameters: [] },
  outputSchema: { type: "object", properties: { providers: { type: "array", items: componentSchema("OAuthProvider", OUT) } }, required: ["providers"] },
  answer: (data) => ({ providers: data }),
});

export const listAgentConnections = readTool({
  name: "list_agent_connections",
  title: "List an agent's connections",
  description:
    "Lists an agent's connections to OAuth tokens (provider, account label, scopes, expiry). Use it to check that an agent " +
    "can act for an account at a provider. Answers { data: [...] }; a 404 means the agent is unknown.",
  args: { operationId: "listAgentConnections", parameters: ["agent_id"] },
  outputSchema: componentSchema("AgentConnectionList", OUT),
});

export const listRepositories = readTool({
  name: "list_repositories",
  title: "List an integration's repositories",
  description:
    "Lists the repositories a source-code host integration can deploy from (integration_kind scm, the default) or a forge " +
    "(self-managed host) integration (forge). Each has url (a deployment's source_config.repo_url), default_branch (a good " +
    "repo_ref) and host_integration_id. Answers { repositories: [...] }.",
  args: {
    operationId: "listScmRepositories",
    parameters: ["integration_id"],
    own: { integration_kind: choiceArgument("scm for a source-code host integration, forge for a forge integration.", ["scm", "forge"], "scm") },
  },
  operationId: (own) => (own.integration_kind === "forge" ? "listForgeScmRepositories" : "listScmRepositories"),
  outputSchema: { type: "object", properties: { repositories: { type: "array", items: componentSchema("Repository", OUT) } }, required: ["repositories"] },
  answer: (data) => ({ repositories: data }),
});
