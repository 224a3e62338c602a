// Every dms command as data: its arguments, its flag table, its example and its exit codes. The
// parser, `--help` and docs/cli.md read these (test/check/cli/docs.test.ts keeps the page in step).
// Data only, imported by `dms --help`: nothing here loads the client or the simulator (only the
// simulator's flag table, which is data).
import { SIMULATOR_FLAGS } from "../simulator/node/flags.js";
import type { CommandSpec, FlagGroup } from "./flags.js";

/**
 * Ids of the simulator's seed (SEED_IDS.deployment_id and SEED_IDS.revision_id; a test checks
 * they are), so that the help's examples work against `dms simulate` as printed.
 */
export const EXAMPLE_IDS = {
  deployment: "3f2b8c1e-5a47-4d6b-9e21-7c0a4f8e1b52",
  revision: "a2c4e6f8-0b1d-4c3e-9f5a-7b9d1f3a5c27",
} as const;

const CONNECTION_FLAGS = {
  "base-url": { type: "string", placeholder: "URL", description: "the service root, http:// or https://, without user:password@", env: "DMS_BASE_URL" },
  "api-key": { type: "string", placeholder: "KEY", description: "sent as X-Api-Key (prefer the variable: flags show in process lists)", env: "DMS_API_KEY" },
  "tenant-id": { type: "string", placeholder: "ID", description: "sent as X-Tenant-Id (optional)", env: "DMS_TENANT_ID" },
  "request-timeout": { type: "string", placeholder: "DURATION", description: "the longest one request may take; GETs are retried", default: "30s" },
} as const;

export const CONNECTION = { title: "Connection (flags win over the environment):", flags: CONNECTION_FLAGS } as const satisfies FlagGroup;

const DEPLOY_PATCH_FLAGS = {
  ref: { type: "string", placeholder: "REF", description: "source_revision_config.repo_ref, the branch or tag to build" },
  "graph-config-path": { type: "string", placeholder: "PATH", description: "source_revision_config.graph_config_path" },
  "image-uri": { type: "string", placeholder: "URI", description: "source_revision_config.image_uri" },
  "source-tarball-path": { type: "string", placeholder: "PATH", description: "source_revision_config.source_tarball_path" },
  "revision-source": { type: "string", placeholder: "SOURCE", description: "revision_source: scm_host, internal_docker or internal_source" },
  secret: {
    type: "string",
    multiple: true,
    placeholder: "NAME=VALUE",
    description: "a secret; the secrets given replace all of the deployment's secrets",
  },
  "secret-from-env": { type: "string", multiple: true, placeholder: "NAME", description: "a secret whose value is the environment variable NAME" },
} as const;

const WAIT_TIMING_FLAGS = {
  timeout: { type: "string", placeholder: "DURATION", description: "how long to wait for the revision to end", default: "15m" },
  interval: { type: "string", placeholder: "DURATION", description: "the pause between polls", default: "2s" },
  json: { type: "boolean", description: "JSON lines on stdout: an event per state change, then a result object" },
} as const;

const DRY_RUN_FLAGS = {
  "dry-run": {
    type: "boolean",
    description: "send nothing: print the PATCH that would be sent, the revision it would replace and the source it would run, and exit 0",
  },
} as const;

const DEPLOY_WAIT_FLAGS = {
  wait: { type: "boolean", description: "wait for the revision to end (the default)" },
  "no-wait": { type: "boolean", description: "print the ids and exit 0 once the revision is created" },
  ...WAIT_TIMING_FLAGS,
} as const;

const ROLLBACK_FLAGS = {
  to: {
    type: "string",
    placeholder: "REVISION",
    description: "the revision to go back to: its UUID, active, or previous (the default: the newest DEPLOYED one older than the active one)",
  },
} as const;

const LIST_OUTPUT_FLAGS = {
  limit: { type: "string", placeholder: "N", description: "at most N items", default: "20" },
  json: { type: "boolean", description: "one JSON object per item on stdout (secret values shown as ***)" },
} as const;

const DEPLOYMENTS_FLAGS = {
  "name-contains": { type: "string", placeholder: "TEXT", description: "only names containing TEXT (case-insensitive)" },
  status: {
    type: "string",
    placeholder: "STATUS",
    description: "only deployments in this state (any case): AWAITING_DATABASE, READY, UNUSED, AWAITING_DELETE or UNKNOWN",
  },
  ...LIST_OUTPUT_FLAGS,
} as const;

const REVISIONS_FLAGS = {
  status: { type: "string", placeholder: "LIST", description: "only revisions in these states (any case), comma-separated, such as DEPLOYED,BUILD_FAILED" },
  ...LIST_OUTPUT_FLAGS,
} as const;

const REVISION_EXIT_CODES = [
  [0, "the revision ended DEPLOYED (or, with --no-wait, was created)"],
  [1, "it ended CREATE_FAILED, BUILD_FAILED or DEPLOY_FAILED"],
  [2, "usage error (unknown flag, bad value or id, missing DMS_BASE_URL or DMS_API_KEY); nothing was sent"],
  [3, "it did not end within --timeout; the ids and the dms wait command that resumes are printed"],
  [4, "it ended INTERRUPTED (a newer revision replaced it) or SKIPPED"],
  [5, "the patch created no revision (deploy)"],
  [6, "the API answered an error (its problem details are printed), or could not be reached"],
  [70, "dms itself failed (a bug: please report the message); never a state of the revision"],
  [130, "stopped by Ctrl+C (SIGINT); the ids and the dms wait command that resumes are printed"],
  [143, "stopped by SIGTERM (CI cancel, Kubernetes); printed as for Ctrl+C"],
] as const;

const LIST_EXIT_CODES = [
  [0, "listed"],
  [2, "usage error; nothing was sent"],
  [6, "the API answered an error, or could not be reached"],
  [70, "dms itself failed (a bug: please report the message)"],
] as const;

const DURATIONS = "Durations: a number with ms, s, m or h, such as 20m; a bare number is seconds.";

export const DEPLOY = {
  name: "deploy",
  summary: "patch the deployment (new ref, image, secrets) and wait for the revision it created",
  positionals: [{ name: "deployment-id", description: "the deployment's UUID" }],
  description: `Patches the deployment with exactly the fields given, then waits for the revision that this patch
created (the patch response's latest_revision_id), until it ends or --timeout passes.`,
  groups: [
    { title: "Revision flags (at least one; a deploy that would create no revision is refused before anything is sent):", flags: DEPLOY_PATCH_FLAGS },
    { title: "Waiting:", flags: DEPLOY_WAIT_FLAGS },
    { title: "Plan:", flags: DRY_RUN_FLAGS },
    CONNECTION,
  ],
  notes: `${DURATIONS}
Secret values and the API key are never printed.`,
  example: [`dms deploy ${EXAMPLE_IDS.deployment} --ref release/2.4 --secret-from-env OPENAI_API_KEY --timeout 20m`],
  exitCodes: REVISION_EXIT_CODES,
} as const satisfies CommandSpec;

export const WAIT = {
  name: "wait",
  summary: "wait for a revision to end",
  positionals: [
    { name: "deployment-id", description: "the deployment's UUID" },
    { name: "revision-id", description: "the revision's UUID" },
  ],
  description: `Waits for the revision to end (DEPLOYED, CREATE_FAILED, BUILD_FAILED, DEPLOY_FAILED, SKIPPED or
INTERRUPTED), for instance after "dms deploy --no-wait" or to resume a wait stopped by a signal.`,
  groups: [{ flags: WAIT_TIMING_FLAGS }, CONNECTION],
  notes: DURATIONS,
  example: [`dms wait ${EXAMPLE_IDS.deployment} ${EXAMPLE_IDS.revision} --timeout 10m --json`],
  exitCodes: REVISION_EXIT_CODES.filter(([code]) => code !== 5),
} as const satisfies CommandSpec;

export const ROLLBACK = {
  name: "rollback",
  summary: "deploy again what an earlier revision ran, and wait for it",
  positionals: [{ name: "deployment-id", description: "the deployment's UUID" }],
  description: `Reads the revision to go back to, patches the deployment with its source (the commit it was built
from, its image or its archive) and waits for the revision this creates, as deploy does. There is no
rollback endpoint: the new revision is an ordinary one, and the active revision once DEPLOYED.
--to active deploys again what runs now, after a failed deploy left the deployment pointing elsewhere.`,
  groups: [{ title: "Target:", flags: ROLLBACK_FLAGS }, { title: "Waiting:", flags: DEPLOY_WAIT_FLAGS }, { title: "Plan:", flags: DRY_RUN_FLAGS }, CONNECTION],
  notes: `${DURATIONS}
Without --to, two rollbacks in a row go back and forth between the same two revisions.`,
  example: [`dms rollback ${EXAMPLE_IDS.deployment} --timeout 20m`, `dms rollback ${EXAMPLE_IDS.deployment} --to ${EXAMPLE_IDS.revision} --json`],
  exitCodes: [
    ...REVISION_EXIT_CODES.filter(([code]) => code < 7),
    [7, "nothing to roll back to: no active revision, or no DEPLOYED revision older than it; nothing was patched"],
    ...REVISION_EXIT_CODES.filter(([code]) => code >= 7),
  ],
} as const satisfies CommandSpec;

export const DEPLOYMENTS = {
  name: "deployments",
  summary: "list deployments",
  positionals: [],
  description: "Lists deployments, newest first.",
  groups: [{ flags: DEPLOYMENTS_FLAGS }, CONNECTION],
  example: ["dms deployments --name-contains agent --status ready --limit 5"],
  exitCodes: LIST_EXIT_CODES,
} as const satisfies CommandSpec;

export const REVISIONS = {
  name: "revisions",
  summary: "list a deployment's revisions",
  positionals: [{ name: "deployment-id", description: "the deployment's UUID" }],
  description: "Lists a deployment's revisions, newest first.",
  groups: [{ flags: REVISIONS_FLAGS }, CONNECTION],
  example: [`dms revisions ${EXAMPLE_IDS.deployment} --status DEPLOYED,BUILD_FAILED --limit 5`],
  exitCodes: LIST_EXIT_CODES,
} as const satisfies CommandSpec;

const SIMULATE = {
  name: "simulate",
  summary: "run the local simulator (as dms-simulator does)",
  positionals: [],
  description: `Runs the stateful simulator of the service on your machine, as dms-simulator does, until Ctrl+C or
SIGTERM. Its first line on stdout is its URL.`,
  // The simulator's own table: `dms simulate` passes every flag to dms-simulator unchanged.
  groups: [{ flags: SIMULATOR_FLAGS }],
  notes: `Every flag goes to dms-simulator unchanged.
Environment: SIMULATOR_API_KEYS, comma-separated keys to accept (by default any key).`,
  example: [
    "dms simulate --port 4011 --step-seconds 1 & SIMULATOR=$!",
    "DMS_BASE_URL=http://127.0.0.1:4011 DMS_API_KEY=dev dms deployments --limit 3",
    'kill "$SIMULATOR"',
  ],
  exitCodes: [
    [0, "stopped by Ctrl+C or SIGTERM"],
    [1, "could not start (port in use, unreadable state file)"],
    [2, "usage error: an unknown flag or a bad value (the message names it); nothing was started"],
  ],
} as const satisfies CommandSpec;

const MCP_FLAGS = {
  "read-only": { type: "boolean", description: "list and serve only the tools that change nothing (no deploy, rollback or update_listener)" },
  interval: { type: "string", placeholder: "DURATION", description: "the pause between polls while a tool waits for a revision", default: "2s" },
  port: { type: "string", placeholder: "N", description: "serve Streamable HTTP on http://127.0.0.1:N/mcp instead of stdio; 0 picks a free port" },
  yes: {
    type: "boolean",
    description: "never ask the user to confirm a deploy or rollback (by default a client that supports elicitation is asked first)",
  },
  "allow-origin": {
    type: "string",
    multiple: true,
    placeholder: "ORIGIN",
    description: "with --port: let pages from ORIGIN (scheme://host[:port]) call the server, such as MCP Inspector's; they act with the key",
  },
} as const;

export const MCP = {
  name: "mcp",
  summary: "serve the API's tools to an AI agent (Model Context Protocol, stdio or HTTP)",
  positionals: [],
  description: `Runs an MCP server on stdin and stdout for an agent (Claude Code, Claude Desktop, Cursor, VS Code):
tools to list and read deployments and revisions, deploy and roll back with progress, and wait. It
ends when the client closes stdin. With --port it serves Streamable HTTP on 127.0.0.1 instead,
prints its URL as the first line on stdout, and runs until Ctrl+C or SIGTERM. Needs the optional
peer @modelcontextprotocol/sdk.`,
  groups: [{ flags: MCP_FLAGS }, CONNECTION],
  notes: `${DURATIONS}
The API key is read here, never from a tool's arguments, and never shows in a result. On stdio, stdout
carries only the protocol. Over HTTP, whoever reaches the port acts with the key: it listens on 127.0.0.1 only.`,
  example: ["claude mcp add dms --env DMS_BASE_URL=http://127.0.0.1:4011 --env DMS_API_KEY=dev -- npx dms mcp --read-only"],
  exitCodes: [
    [0, "the client closed stdin (with --port: stopped by Ctrl+C or SIGTERM)"],
    [1, "@modelcontextprotocol/sdk is not installed (the message says how to install it), or the --port is in use"],
    [2, "usage error (unknown flag, bad value, missing DMS_BASE_URL or DMS_API_KEY); nothing was started"],
  ],
} as const satisfies CommandSpec;

/** Every command, in the order `dms --help` lists them. */
export const COMMANDS = {
  deploy: DEPLOY,
  wait: WAIT,
  rollback: ROLLBACK,
  deployments: DEPLOYMENTS,
  revisions: REVISIONS,
  simulate: SIMULATE,
  mcp: MCP,
} as const;
export type CommandName = keyof typeof COMMANDS;

export const OUTPUT_NOTE = `Output: one line per state change with the elapsed time (a live spinner and colours on a
terminal; never with NO_COLOR). --json prints JSON lines only on stdout: an event per state change,
then a result object {deployment_id, revision_id, status, elapsed_ms, exit_code}. In GitHub Actions,
deployment_id, revision_id and status go to $GITHUB_OUTPUT as soon as each is known, a summary to
$GITHUB_STEP_SUMMARY, and failures print an ::error:: annotation. Text from the server is printed
with control characters escaped.`;
