// update_listener: the one listener write, PATCH /v2/listeners/{listener_id} with the fields given.
import { unwrap } from "../client/errors.js";
import { inputSchema, readArguments } from "./arguments.js";
import { componentSchema } from "./json-schema.js";
import { dataResult } from "./results.js";
import { type ToolDefinition, writeHints } from "./tool.js";

const args = { operationId: "patchListener", parameters: ["listener_id"], body: true } as const;

export const updateListener: ToolDefinition = {
  name: "update_listener",
  title: "Update a listener",
  description:
    "Changes a listener (a Kubernetes cluster for self-hosted deployments): its version, and compute_config.k8s_namespaces, " +
    "the namespaces deployments may be placed in. compute_config REPLACES the listener's: send every namespace to keep. " +
    "compute_type and compute_id cannot change. Answers the updated listener; list_listeners gives ids and current values.",
  inputSchema: inputSchema(args),
  outputSchema: componentSchema("Listener", { descriptions: false }),
  annotations: writeHints({ destructive: true, idempotent: true }),
  async run(raw, context) {
    const read = readArguments(args, raw, "update_listener");
    const listener = unwrap(
      await context.client.PATCH("/v2/listeners/{listener_id}", {
        params: { path: { listener_id: read.path.listener_id } },
        body: read.body,
        signal: context.signal,
      }),
    );
    return dataResult(listener);
  },
};
