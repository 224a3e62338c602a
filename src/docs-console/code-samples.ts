// The one writer of code samples: a request as a curl command, as a call of the package's typed
// client, and as a `dms` command. The docs page's samples (x-codeSamples, written at build time by
// tools/docs/code-samples.ts) and the "Try it" console's (requests.ts, rewritten in the browser as a
// reader types) both come from here, so the two cannot drift apart. It imports nothing at run time:
// the build's Node runs it as it is, and esbuild bundles it into the page.

/** What a sample's shell reads the API key from. */
export const API_KEY_VARIABLE = "$DMS_API_KEY";

/** A shell word that stays one word, whatever it holds: single quotes, each `'` written as `'\''`. */
export const shellQuote = (text: string): string => `'${text.replace(/'/g, `'\\''`)}'`;

/** A curl `-H` argument that sends the key from $DMS_API_KEY: in double quotes, so the shell expands it. */
export function keyHeaderArgument(name: string): string {
  return `-H "${name}: ${API_KEY_VARIABLE}"`;
}

/** A curl `-H` argument with the value as given, single-quoted. */
export function headerArgument(name: string, value: string): string {
  return `-H ${shellQuote(`${name}: ${value}`)}`;
}

/** A request as curl, one argument per line: the method unless GET, the headers (`-H` arguments), the body, the URL as a shell word. */
export function curlCommand({ method, headers, body, url }: { method: string; headers: string[]; body?: string | undefined; url: string }): string {
  const lines = [`curl${method === "GET" ? "" : ` -X ${method}`}`, ...headers];
  if (body !== undefined) lines.push(`-d ${shellQuote(body)}`);
  lines.push(url);
  return lines.join(" \\\n  ");
}

/**
 * An object key as source text. A key that is not an identifier is quoted. `__proto__` is written
 * computed (`["__proto__"]`): bare or quoted, an object literal's `__proto__:` sets the prototype
 * instead of making a member, and the field would not be sent.
 */
function keySource(key: string): string {
  if (key === "__proto__") return `[${JSON.stringify(key)}]`;
  return /^[A-Za-z_$][\w$]*$/.test(key) ? key : JSON.stringify(key);
}

/** A JSON value written as a TypeScript literal that evaluates to the same value: spaces after `:` and `,`. */
export function literal(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(literal).join(", ")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value).map(([k, v]) => `${keySource(k)}: ${literal(v)}`);
    return entries.length ? `{ ${entries.join(", ")} }` : "{}";
  }
  return JSON.stringify(value);
}

/** What a client call sends: path parameters, query parameters, and the body (undefined: none). */
export interface ClientRequest {
  path: Record<string, unknown>;
  query: Record<string, unknown>;
  body: unknown;
}

/** The call of the typed client (`client.PATCH("/v2/…", { params: …, body: … })`), an empty group left out. */
export function clientCall(method: string, path: string, request: ClientRequest): string {
  const params: string[] = [];
  if (Object.keys(request.path).length > 0) params.push(`path: ${literal(request.path)}`);
  if (Object.keys(request.query).length > 0) params.push(`query: ${literal(request.query)}`);
  const options: string[] = [];
  if (params.length > 0) options.push(`params: { ${params.join(", ")} }`);
  if (request.body !== undefined) options.push(`body: ${literal(request.body)}`);
  return options.length > 0
    ? `client.${method}(${JSON.stringify(path)}, {\n    ${options.join(",\n    ")},\n  })`
    : `client.${method}(${JSON.stringify(path)})`;
}

/** The import line of a TypeScript sample. */
export function clientImport(names: string[]): string {
  return `import { ${names.join(", ")} } from "deployment-management-api";`;
}

/** The line that creates the client a sample calls. */
export function clientSetup({ baseUrl, apiKey, tenantId }: { baseUrl: string; apiKey: string; tenantId?: string | undefined }): string {
  const options = [`baseUrl: ${JSON.stringify(baseUrl)}`, `apiKey: ${JSON.stringify(apiKey)}`];
  if (tenantId !== undefined) options.push(`tenantId: ${JSON.stringify(tenantId)}`);
  return `const client = createDeploymentsClient({ ${options.join(", ")} });`;
}

/** `const <name> = unwrap(await <call>)`: the answer's data, or the client's error thrown. */
export function unwrapped(name: string, call: string): string {
  return `const ${name} = unwrap(\n  await ${call},\n);`;
}

/** A `dms` command with its connection in the environment; an argument the shell would split or expand is quoted. */
export function dmsCommand(args: string[], baseUrl: string): string {
  const quote = (arg: string) => (/^[\w@%+=:,./-]+$/.test(arg) ? arg : shellQuote(arg));
  return [`export DMS_BASE_URL=${baseUrl} DMS_API_KEY=my-api-key`, `npx dms ${args.map(quote).join(" ")}`].join("\n");
}
