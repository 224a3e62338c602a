// Compiles src/ to dist/ once before any suite runs. The pack tests then run `npm pack
// --ignore-scripts`, so no two suites compile into dist/ at the same time.
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

export default function setup(): void {
  const root = fileURLToPath(new URL("..", import.meta.url));
  execFileSync(process.execPath, ["node_modules/typescript/bin/tsc", "-p", "tsconfig.build.json"], { cwd: root, stdio: "inherit" });
}
