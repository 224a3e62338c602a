// Where to send requests and with which key: flags first, then DMS_BASE_URL, DMS_API_KEY and DMS_TENANT_ID.
import { createDeploymentsClient, type DeploymentsClient } from "../client/client.js";
import { resolveBaseUrl } from "../client/option-checks.js";
import { DEFAULT_TIMEOUT_MS } from "../client/timeout.js";
import { headerValueProblem, urlProblem } from "../shared/header-value.js";
import { parseDuration, shownValue, UsageError } from "./usage.js";

export interface Connection {
  baseUrl: string;
  apiKey: string;
  tenantId: string | undefined;
  /** The longest one attempt of one request may take. */
  requestTimeoutMs: number;
}

export interface ConnectionFlags {
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
  // The URL parser drops tabs and line breaks: the requests would go to another URL than the one given.
  const badUrl = urlProblem(base.value);
  if (badUrl) throw new UsageError(`${base.source} cannot be used as the service URL: ${badUrl} (the value is not shown)`);
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
    const shown = base.value.includes("@") ? "(not shown: it contains @)" : `"${shownValue(base.value)}"`;
    throw new UsageError(`${base.source} ${shown} is not an http:// or https:// URL`);
  }
  // The rest of the rule is the client's (no ?query or #fragment) and fetch's (no "bad port"): checked here,
  // so that every command refuses such a URL as a usage error naming the flag or the variable, before
  // anything is sent, instead of failing later as an API or network error (exit 6).
  let baseUrl: string;
  try {
    baseUrl = resolveBaseUrl("dms", base.source, base.value);
  } catch (error) {
    throw new UsageError((error as Error).message.replace(/^dms: /, ""));
  }
  const key = pick(flags, env, "api-key", "DMS_API_KEY");
  if (!key?.value) throw new UsageError("no API key: set DMS_API_KEY or pass --api-key");
  sendable(key);
  const tenant = pick(flags, env, "tenant-id", "DMS_TENANT_ID");
  if (tenant?.value) sendable(tenant);
  const requestTimeoutMs = parseDuration("--request-timeout", flags["request-timeout"], DEFAULT_TIMEOUT_MS);
  return { baseUrl, apiKey: key.value, tenantId: tenant?.value || undefined, requestTimeoutMs };
}

/**
 * A value sent as a header must be one fetch can send: otherwise fetch fails before sending, and
 * that would read as a network failure (exit 6, which CI retries). The value is not shown: it may be the key.
 */
function sendable(picked: { value: string; source: string }): void {
  const problem = headerValueProblem(picked.value);
  if (problem) throw new UsageError(`${picked.source} cannot be sent as an HTTP header: ${problem} (the value is not shown)`);
}

export function clientFor(connection: Connection): DeploymentsClient {
  try {
    return createDeploymentsClient({
      baseUrl: connection.baseUrl,
      apiKey: connection.apiKey,
      timeoutMs: connection.requestTimeoutMs,
      ...(connection.tenantId ? { tenantId: connection.tenantId } : {}),
    });
  } catch (error) {
    // readConnection checks every value first; an option the client still refuses is a usage error
    // (exit 2, nothing sent), not an unexpected one. Its messages never show a key.
    if (error instanceof TypeError) throw new UsageError(error.message.replace(/^createDeploymentsClient: /, ""));
    throw error;
  }
}
