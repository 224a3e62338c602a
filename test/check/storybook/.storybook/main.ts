// The smallest Storybook that builds the recipe's stories: React with Vite, no addons but the MSW
// loader in preview.ts. MSW's service worker script is copied from the installed msw into a cache
// folder served as a static dir, so it always matches msw's version (in a project: `npx msw init
// public` once, commit public/mockServiceWorker.js, and `staticDirs: ["../public"]`).
import { copyFileSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { StorybookConfig } from "@storybook/react-vite";

const root = join(dirname(fileURLToPath(import.meta.url)), "../../../..");
const workerDir = join(root, "node_modules/.cache/storybook-msw-worker");
mkdirSync(workerDir, { recursive: true });
copyFileSync(join(root, "node_modules/msw/lib/mockServiceWorker.js"), join(workerDir, "mockServiceWorker.js"));

const config: StorybookConfig = {
  stories: ["../*.stories.tsx"],
  framework: { name: "@storybook/react-vite", options: {} },
  staticDirs: [workerDir],
  core: { disableTelemetry: true, disableWhatsNewNotifications: true },
  typescript: { reactDocgen: false },
};
export default config;
