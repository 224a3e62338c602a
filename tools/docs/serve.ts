// `npm run docs`: serves the built docs page (generated/docs/index.html) on http://127.0.0.1:8080
// (PORT overrides, HOST too). The page is self-contained, so this only has to hand out one file;
// `npm run build` rebuilds it from openapi/.
import { createServer } from "node:http";
import { readFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parsePort } from "../../src/shared/port.ts";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const page = join(root, "generated", "docs", "index.html");
const host = process.env.HOST ?? "127.0.0.1";
let port = 8080;
try {
  if (process.env.PORT) port = parsePort("PORT", process.env.PORT);
} catch (error) {
  console.error(`npm run docs: ${(error as Error).message}`);
  process.exit(2);
}

const server = createServer(async (request, response) => {
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

server.once("error", (error: NodeJS.ErrnoException) => {
  const reason = error.code === "EADDRINUSE" ? `port ${port} is in use (set PORT to another one)` : error.message;
  console.error(`npm run docs: cannot listen on ${host}: ${reason}`);
  process.exit(1);
});
server.listen(port, host, () => {
  const address = server.address();
  const actualPort = typeof address === "object" && address ? address.port : port;
  console.log(`Docs on http://${host}:${actualPort}/ (Ctrl+C stops)`);
});

for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.close(() => process.exit(0)));
