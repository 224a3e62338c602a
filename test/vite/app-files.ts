// The Vite app of test/check/vite/plugin.test.ts, file by file as the test writes them into the consumer
// project; docs/react-and-testing.md shows vite.config.ts and src/main.ts exactly as they are here
// (test/recipes/docs.test.ts checks it).

export const INDEX_HTML = `<!doctype html>
<html><head><meta charset="utf-8"><title>vite app</title></head>
<body><ul id="deployments">loading</ul><script type="module" src="/src/main.ts"></script></body></html>
`;

export const VITE_CONFIG = `// vite.config.ts
import { defineConfig } from "vite";
import { simulatorPlugin } from "deployment-management-api/vite";

export default defineConfig({
  // The simulator answers under /dms of the dev server: same origin as the app, no second process.
  // defaultApiKey: the plugin adds the key, as a same-origin proxy does in production, so none is bundled.
  plugins: [simulatorPlugin({ prefix: "/dms", defaultApiKey: "dev", stepSeconds: 1, seedDeployments: 5 })],
});
`;

export const MAIN_TS = `// src/main.ts
import { createDeploymentsClient, unwrap } from "deployment-management-api";

// A base URL relative to the page, and no API key: the dev server (or the proxy) adds it.
const client = createDeploymentsClient({ baseUrl: "/dms" });
const page = unwrap(await client.GET("/v2/deployments", { params: { query: { limit: 3 } } }));
const list = document.querySelector("#deployments")!;
list.replaceChildren(...page.resources.map((d) => Object.assign(document.createElement("li"), { textContent: d.name })));
`;
