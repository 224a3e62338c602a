// A secret quoted back by a server in the form its JSON encoder writes it (JavaScript's, Python's
// json.dumps with its default ASCII-only escapes in lower-case hex, upper-case hex, PHP's json_encode
// with "/" as "\/"), inside the text of a problem: never shown by dms (stderr, --json) or by the MCP
// server, which share the one masking rule (src/shared/mask.ts). Each secret and each encoder is a
// case; a local server quotes the PATCH's secret back as the case's encoder writes it.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDeploymentsClient } from "../../../src/client/client.js";
import { createMcpServer } from "../../../src/mcp/index.js";
import { sendJson, startLocalServer, type LocalServer } from "../../client/local-server.js";
import { dmsInProcess as dms } from "../../cli/support.js";

const SECRETS = ["pässwörd-Ünïcode-value", "a/b/c-slashy-value", "tab\there-value", "emoji😀secret-value", 'quote"d-value'];

const hex = (char: string, upper: boolean) => {
  const code = char.charCodeAt(0).toString(16).padStart(4, "0");
  return `\\u${upper ? code.toUpperCase() : code}`;
};
const asciiJson = (value: string, upper: boolean) => JSON.stringify(value).replace(/[^\x00-\x7f]/g, (char) => hex(char, upper));

/** How each server's JSON encoder writes a string, quotes included. */
const ENCODERS: Record<string, (value: string) => string> = {
  javascript: (value) => JSON.stringify(value),
  "python json.dumps": (value) => asciiJson(value, false),
  "upper-case hex": (value) => asciiJson(value, true),
  "php json_encode": (value) => asciiJson(value, false).replace(/\//g, "\\/"),
};

const CASES = SECRETS.flatMap((secret, i) =>
  Object.keys(ENCODERS).map((encoder, j) => ({
    secret,
    encoder,
    deployment: `5b0d8a52-3c1e-4f7a-9b2d-1e5f3a7c${String(i).padStart(2, "0")}${String(j).padStart(2, "0")}`,
  })),
);

let server: LocalServer;
let mcp: Client;

beforeAll(async () => {
  const byDeployment = new Map(CASES.map((c) => [c.deployment, c]));
  server = await startLocalServer((req, res) => {
    const found = byDeployment.get(req.url.pathname.split("/")[3] ?? "");
    if (!found) return sendJson(res, 404, { title: "Not Found", status: 404 });
    if (req.method !== "PATCH") return sendJson(res, 200, { id: found.deployment, source: "scm_host", latest_revision_id: null });
    const sent = (JSON.parse(req.body) as { secrets: { value: string }[] }).secrets[0]!.value;
    // The server's own encoder wrote the request back into its text.
    const quoted = ENCODERS[found.encoder]!(sent);
    sendJson(res, 422, {
      title: "Unprocessable",
      status: 422,
      detail: `cannot use {"value": ${quoted}}`,
      errors: [{ pointer: "/secrets/0/value", detail: `bad ${quoted}` }],
    });
  });
  const client = createDeploymentsClient({ baseUrl: server.baseUrl, apiKey: "mask-forms-key", retry: { retries: 0 } });
  const mcpServer = createMcpServer({ client, pollIntervalMs: 5, redact: ["mask-forms-key"] });
  mcp = new Client({ name: "dms-mask-forms-test", version: "1.0.0" });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await Promise.all([mcpServer.connect(serverSide), mcp.connect(clientSide)]);
});
afterAll(async () => {
  await mcp?.close();
  await server?.close();
});

/** Every form of the secret a reader could recognise it by. */
function forms(secret: string): string[] {
  return [secret, ...Object.values(ENCODERS).map((encode) => encode(secret).slice(1, -1))];
}

describe("a secret quoted back in any JSON encoder's form is masked alike by dms and the MCP server", () => {
  it.concurrent.each(CASES)("$encoder, $secret", async ({ secret, deployment }) => {
    const result = await dms(["deploy", deployment, "--secret", `TOKEN=${secret}`, "--json"], { DMS_BASE_URL: server.baseUrl, DMS_API_KEY: "mask-forms-key" });
    expect(result.code, result.stderr).toBe(6);
    expect(result.stderr).toContain("***");
    for (const form of forms(secret)) {
      expect(result.stderr).not.toContain(form);
      expect(result.stdout).not.toContain(form);
    }

    const answer = await mcp.callTool({ name: "deploy", arguments: { deployment_id: deployment, secrets: [{ name: "TOKEN", value: secret }] } });
    const text = JSON.stringify(answer);
    expect(answer.isError).toBe(true);
    for (const form of [...forms(secret), ...forms(secret).map((f) => JSON.stringify(f).slice(1, -1))]) expect(text).not.toContain(form);
  });
});
