// The docs server behind `npm run docs`: hands out the built docs page (generated/docs/index.html)
// for every GET, as every local server listens and stops (src/local-server/listen.ts): the same
// time bounds for slow clients, a port in use said in one line, a close that ends every connection.
import { readFile } from "node:fs/promises";
import { createServer } from "node:http";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { type Listening, listen, serverOptions, type TimeBounds } from "../../src/local-server/listen.ts";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
export const DOCS_PAGE = join(root, "generated", "docs", "index.html");

export interface DocsServerOptions {
  /** 0 picks a free port. */
  port: number;
  host?: string;
  /** The page to serve; generated/docs/index.html by default. */
  page?: string;
  /** How long a client may take to send a request; SERVER_TIME_BOUNDS by default. */
  timeBounds?: Partial<TimeBounds>;
}

export async function startDocsServer(options: DocsServerOptions): Promise<Listening> {
  const page = options.page ?? DOCS_PAGE;
  const server = createServer(serverOptions(options.timeBounds), async (request, response) => {
    if (request.method !== "GET" && request.method !== "HEAD") {
      response.writeHead(405, { allow: "GET, HEAD" }).end();
      return;
    }
    try {
      // Every path gets the page: Redoc routes inside it (/deployments/patchdeployment), so a reload
      // of such a URL must answer with the page too. Read on every request: a rebuild shows on reload.
      const html = await readFile(page);
      response.writeHead(200, { "content-type": "text/html; charset=utf-8", "content-length": html.length, "cache-control": "no-cache" });
      response.end(request.method === "HEAD" ? undefined : html);
    } catch {
      response.writeHead(500, { "content-type": "text/plain; charset=utf-8" }).end("generated/docs/index.html is missing: run `npm run build`\n");
    }
  });
  return listen(server, options.port, options.host ?? "127.0.0.1");
}
