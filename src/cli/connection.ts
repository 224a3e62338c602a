// Where to send requests and with which key: flags first, then DMS_BASE_URL, DMS_API_KEY and DMS_TENANT_ID.
import { createDeploymentsClient, type DeploymentsClient } from "../client/client.js";
import { DEFAULT_TIMEOUT_MS } from "../client/timeout.js";
import { terminalSafe } from "./terminal-text.js";
import { parseDuration, UsageError } from "./usage.js";

export interface Connection {
  baseUrl: string;
  apiKey: string;
  tenantId: string | undefined;
  /** The longest one attempt of one request may take. */
  requestTimeoutMs: number;
}

interface ConnectionFlags {
  "base-url"?: string | undefined;
  "api-key"?: string | undefined;
  "tenant-id"?: string | undefined;
  "request-timeout"?: string | undefined;
}

function pick(flags: ConnectionFlags, env: NodeJS.ProcessEnv, flag: "base-url" | "api-key" | "tenant-id", variable: string) {
  const fromFlag = flags[flag];
  if (fromFlag !== undefined) return { value: fromFlag.trim(), source: `--${flag}` };
  const fromEnv = env[variable];
  // An empty variable is what CI gives for a secret that is not set: treat it as missing.
  return fromEnv ? { value: fromEnv.trim(), source: variable } : undefined;
}

export function readConnection(flags: ConnectionFlags, env: NodeJS.ProcessEnv): Connection {
  const base = pick(flags, env, "base-url", "DMS_BASE_URL");
  if (!base?.value) throw new UsageError("no service URL: set DMS_BASE_URL or pass --base-url");
  let url: URL | undefined;
  try {
    url = new URL(base.value);
  } catch {
    url = undefined;
  }
  // Credentials in the URL are refused, and the value is not echoed: it holds a password.
  if (url && (url.username !== "" || url.password !== "")) {
    throw new UsageError(`${base.source} must not contain user:password@ (the value is not shown); give the key with DMS_API_KEY`);
  }
  if (!url || (url.protocol !== "http:" && url.protocol !== "https:")) {
    const shown = base.value.includes("@") ? "(not shown: it contains @)" : `"${terminalSafe(base.value)}"`;
    throw new UsageError(`${base.source} ${shown} is not an http:// or https:// URL`);
  }
  const key = pick(flags, env, "api-key", "DMS_API_KEY");
  if (!key?.value) throw new UsageError("no API key: set DMS_API_KEY or pass --api-key");
  const tenant = pick(flags, env, "tenant-id", "DMS_TENANT_ID");
  const requestTimeoutMs = parseDuration("--request-timeout", flags["request-timeout"], DEFAULT_TIMEOUT_MS);
  return { baseUrl: base.value.replace(/\/+$/, ""), apiKey: key.value, tenantId: tenant?.value || undefined, requestTimeoutMs };
}

export function clientFor(connection: Connection): DeploymentsClient {
  return createDeploymentsClient({
    baseUrl: connection.baseUrl,
    apiKey: connection.apiKey,
    timeoutMs: connection.requestTimeoutMs,
    ...(connection.tenantId ? { tenantId: connection.tenantId } : {}),
  });
}
