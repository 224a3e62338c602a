// An MCP client connected in memory to createMcpServer, whose DeploymentsClient answers from an
// in-process simulator: the whole path an agent's call takes, without a port or a child process.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { expect } from "vitest";
import { REVISION_PROGRESSION } from "../../generated/constants.js";
import { createDeploymentsClient } from "../../src/client/client.js";
import { createMcpServer } from "../../src/mcp/index.js";
import { createSimulator, type Simulator } from "../../src/simulator/core/index.js";

/** Long enough to be masked in text too (six characters or more). */
export const API_KEY = "mcp-test-key-6f2a";

export interface Connected {
  sim: Simulator;
  mcp: Client;
  close(): Promise<void>;
}

/** Revisions move a state every `stepSeconds` (real time); polls every 5 ms, so a deploy ends in well under a second. */
export async function connect(options: { readOnly?: boolean; stepSeconds?: number; apiKeys?: string[] } = {}): Promise<Connected> {
  const sim = createSimulator({ stepSeconds: options.stepSeconds ?? 0.01, ...(options.apiKeys ? { apiKeys: options.apiKeys } : {}) });
  const client = createDeploymentsClient({ baseUrl: "https://api.example.test", apiKey: API_KEY, fetch: sim.fetch, retry: { retries: 0 } });
  const server = createMcpServer({ client, readOnly: options.readOnly ?? false, pollIntervalMs: 5, redact: [API_KEY] });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const mcp = new Client({ name: "dms-test", version: "1.0.0" });
  await Promise.all([server.connect(serverSide), mcp.connect(clientSide)]);
  // callTool checks structuredContent against the output schemas it learnt from tools/list.
  await mcp.listTools();
  return {
    sim,
    mcp,
    close: async () => {
      await mcp.close();
      await server.close();
    },
  };
}

/** The text of a result's content, joined. */
export function textOf(result: unknown): string {
  return (((result as { content?: unknown }).content as { type: string; text?: string }[]) ?? []).map((c) => c.text ?? "").join("\n");
}

/**
 * Progress messages as a client sees them: revision states, in the order a revision moves, at least
 * one. The last (DEPLOYED) may be missing over a pipe or a stream: the SDK's client (1.32) drops a
 * progress notification it reads together with the result (modelcontextprotocol/typescript-sdk#2580);
 * the result carries the final state either way.
 */
export function expectStatesInOrder(messages: readonly string[]): void {
  expect(messages.length).toBeGreaterThan(0);
  const positions = messages.map((m) => (REVISION_PROGRESSION as readonly string[]).indexOf(m));
  expect(
    positions.every((p) => p >= 0),
    messages.join(", "),
  ).toBe(true);
  expect(positions).toEqual([...positions].sort((a, b) => a - b));
}
