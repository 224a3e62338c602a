// Every npm script of package.json, and every command the README and docs/ tell a reader to run,
// with how test/fresh-clone/fresh-clone.test.ts proves it on a fresh clone, or why it does not.
// test/fresh-clone/covered.test.ts (in npm test) fails when a script or a documented command is in
// neither list, so a new command cannot ship unproven by accident.

/** How the fresh-clone test runs a script: the servers it polls, the commands whose exit it checks. */
export type Proof = { proof: string } | { notRun: string };

export const SCRIPTS: Record<string, Proof> = {
  build: { proof: "npm run build: exits 0 and leaves generated/ as committed (git status clean)" },
  "build:ts": { proof: "npm run build:ts: exits 0 from an empty dist/, and dms --version runs from what it wrote" },
  lint: { proof: "npm run lint: exits 0 (zero errors and warnings)" },
  format: { notRun: "it rewrites files; test/check/format.test.ts runs `biome ci` over the same files in npm run check" },
  "api:diff": { proof: "npm run api:diff: exits 0 (.ci/run also runs it before npm test)" },
  start: { proof: "npm start with PORT: answers GET /v2/deployments?limit=2 with 200" },
  simulate: { proof: "npm run simulate with PORT: answers GET /v2/deployments?limit=2 with 200" },
  dms: { proof: "npm run dms -- deploy <seed id> --ref main against the simulator: exits 0, DEPLOYED" },
  docs: { proof: "npm run docs with PORT: answers the docs page with 200 text/html" },
  screenshot: { proof: "npm run screenshot: exits 0 and writes assets/docs.png (a PNG)" },
  typecheck: { proof: "npm run typecheck: exits 0" },
  test: { notRun: "the suite itself: .ci/run runs it on a fresh clone of main, and this test runs beside it" },
  "release:action": {
    notRun:
      "it makes a release commit; test/check/release/action-build.test.ts runs it in a fresh clone (and --no-commit builds), and test/action runs the Action from its build",
  },
  check: { notRun: "the project's guards: .ci/run runs them on a fresh clone of main after npm test, and this test runs beside it" },
  "test:contract": { proof: "npm run test:contract with CONTRACT_BASE_URL at the fresh simulator: exits 0" },
  "test:fresh-clone": { notRun: "this test itself (.ci/run runs it after npm test)" },
  fuzz: { proof: "npm run fuzz -- --seconds 20 --runs 30 --seed 19: exits 0 (a fixed seed: this proves the command, finding bugs is npm run fuzz's own job)" },
  bench: { proof: "BENCH_QUICK=1 npm run bench: exits 0 and prints every bench's table" },
  "pack:release": { proof: "npm run pack:release: exits 0 and writes the tarball, whose manifest has no lifecycle script" },
};

/**
 * Commands the docs show that are not this repository's npm scripts, by their first words: each is
 * proven elsewhere, or is a consumer's own command.
 */
export const OTHER_COMMANDS: Record<string, Proof> = {
  "npm install": { proof: "the fresh clone's npm ci installs the same lock file" },
  "npm ci": { proof: "the fresh clone starts with it" },
  "npm exec dms": { proof: "test/check/cli/pack.test.ts runs the installed package's dms bin" },
  "npx node": { proof: "test/fresh-clone/fresh-clone.test.ts runs npx node tools/docs/doc-facts.ts --check in the fresh clone" },
  "npx dms": { proof: "test/check/cli/pack.test.ts runs the installed package's dms bin" },
  "npx dms-simulator": { proof: "test/check/cli/pack.test.ts runs the installed package's dms-simulator bin" },
  "npx @stoplight/prism-cli": { proof: "test/check/mock/bare-prism.test.ts runs Prism's own CLI on the bundle, static and dynamic" },
  "npx prism": { proof: "test/check/mock/bare-prism.test.ts runs Prism's own CLI on the bundle, static and dynamic" },
  "npx msw": { notRun: "a consumer's own project step (MSW's worker file); test/msw covers the handlers" },
  "npx vitest": { notRun: "replays one test file; the same file runs in npm test" },
  "npx redocly": { notRun: "named in docs/workflows.md only to warn against it: the npm package `redocly` is a placeholder that exits 0" },
  "npx @redocly/cli": {
    proof:
      "docs/workflows.md's block runs in the fresh-clone test (documented-commands.ts) and test/check/workflows runs respect on the shipped workflows; `npx redocly` would reach a placeholder package",
  },
  "npm test": { notRun: "the suite itself" },
  "npx @modelcontextprotocol/inspector": {
    notRun: "a browser client of the reader's choosing; test/mcp/http.test.ts checks that --allow-origin admits its origin and nothing else",
  },
};

/** The commands a page tells its reader to run: `npm run X`, `npm start`, `npm test`, `npm exec X`, `npx X`. */
export function documentedCommands(markdown: string): string[] {
  const found = new Set<string>();
  for (const match of markdown.matchAll(/\b(npm (?:run|exec) [\w:@/.-]+|npm (?:start|test|install|ci)\b|npx [\w:@/.-]+)/g)) {
    found.add(match[1]!.replace(/@[\d.]+$/, ""));
  }
  return [...found];
}

/** The entry of either table that proves a documented command, if any. */
export function proofOf(command: string): Proof | undefined {
  const script = /^npm run ([\w:.-]+)/.exec(command)?.[1];
  if (script) return SCRIPTS[script];
  if (command === "npm start") return SCRIPTS.start;
  if (command === "npm test") return SCRIPTS.test;
  const words = command.split(" ");
  for (let n = words.length; n > 0; n--) {
    const prefix = words.slice(0, n).join(" ");
    if (OTHER_COMMANDS[prefix]) return OTHER_COMMANDS[prefix];
  }
  return undefined;
}
