// Every fenced shell block of README.md, CONTRIBUTING.md and docs/*.md, run as written, or listed
// with the reason it cannot be. BLOCKS names each block by its page and the start of its first
// line; test/fresh-clone/documented-blocks.test.ts (npm test) fails on a block that is in neither
// list, and test/fresh-clone/fresh-clone.test.ts runs the ones marked `run` on the fresh clone and
// checks what each is for (a deploy ends DEPLOYED, a Respect run reports its workflow passed).
//
// Run as written, with these changes only, each for the reason given:
// - ports: the documented ones (4010 mock, 4011 simulator, 4012 dms mcp, 8080 docs) become free
//   ones, so runs never meet each other or another program; a server line that names no port gets
//   PORT=<its free port> (or Prism's -p), which a reader's default would be;
// - a line that starts a server and stays in the foreground (`npm start`) runs in the background
//   until the next server line on its port or the block's end, as a reader's second terminal would,
//   and the next line waits until it answers;
// - `# comments` and the `$ ` prompt of a transcript go; a transcript's printed lines are the
//   expected output.
// Blocks for a project that installed the package (npx dms, ./node_modules/.bin/dms,
// node_modules/deployment-management-api/…) run in a folder whose node_modules links the clone's
// dependencies and the clone itself as deployment-management-api, its bins in node_modules/.bin,
// as `npm install deployment-management-api` leaves them.
import { spawn } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export interface ShellBlock {
  page: string;
  /** 0-based, among the page's shell blocks. */
  index: number;
  text: string;
}

const FENCE = /^```(sh|bash|shell|console|zsh)[ \t]*\n([\s\S]*?)^```/gm;

/** The fenced shell blocks of a Markdown page. */
export function shellBlocks(page: string, markdown: string): ShellBlock[] {
  return [...markdown.matchAll(FENCE)].map((match, index) => ({ page, index, text: match[2]!.replace(/\n$/, "") }));
}

export type Server = "mock" | "simulator";

export interface Ran {
  code: number | null;
  output: string;
}

export type BlockEntry =
  | {
      page: string;
      /** The start of the block's first line. */
      starts: string;
      run: {
        /** Where: the clone itself, or a project that installed the package. */
        in: "clone" | "project";
        /** Servers started first, as a reader who followed the page would have them. */
        needs?: Server[];
        /** Lines left out, each with its reason (matched by their start). */
        skip?: Record<string, string>;
        /** What the block is for, checked on its output. */
        proves: string;
        check: (ran: Ran) => void;
      };
    }
  | { page: string; starts: string; notRun: string };

function expectIn(ran: Ran, ...texts: (string | RegExp)[]): void {
  for (const text of texts) {
    const found = typeof text === "string" ? ran.output.includes(text) : text.test(ran.output);
    if (!found) throw new Error(`expected ${text} in the output:\n${ran.output.slice(-6000)}`);
  }
}

/** Each JSON object line of the output (curl's answers), parsed. */
function jsonLines(ran: Ran): any[] {
  return ran.output
    .split("\n")
    .filter((line) => line.startsWith("{") || line.startsWith("["))
    .map((line) => JSON.parse(line));
}

const NOT_RUN_SUITE = "the suite itself: .ci/run runs it on a fresh clone, beside this test";

export const BLOCKS: BlockEntry[] = [
  {
    page: "README.md",
    starts: "npm install && npm start",
    run: {
      in: "clone",
      skip: { "npm test": NOT_RUN_SUITE, "npm run check": "the project's guards: .ci/run runs them on a fresh clone after npm test" },
      proves: "npm install succeeds on the clone, and npm start answers on its port",
      check: (ran) => expectIn(ran, "Mock of the Deployment Management API listening on"),
    },
  },
  {
    page: "README.md",
    starts: "curl -H 'X-Api-Key: dev' 'http://127.0.0.1:4010/v2/deployments?limit=2'",
    run: {
      in: "clone",
      needs: ["mock"],
      proves: "the mock lists two deployments; npm run docs and npm run simulate answer on their ports",
      check: (ran) => {
        const [page] = jsonLines(ran);
        if (page?.resources?.length !== 2) throw new Error(`expected a page of 2:\n${ran.output}`);
        expectIn(ran, "Docs on http://127.0.0.1:", "simulator listening at");
      },
    },
  },
  {
    page: "README.md",
    starts: "DMS_BASE_URL=http://127.0.0.1:4011 DMS_API_KEY=dev npm run dms -- deploy",
    run: { in: "clone", needs: ["simulator"], proves: "the deploy ends DEPLOYED", check: (ran) => expectIn(ran, /revision \S+ DEPLOYED after/) },
  },
  {
    page: "CONTRIBUTING.md",
    starts: "$ npm run api:diff",
    notRun: "a transcript of a run after a breaking edit the reader makes; npm run api:diff itself runs in the fresh-clone test (commands.ts, SCRIPTS)",
  },
  {
    page: "docs/cli.md",
    starts: "npm install --save-dev deployment-management-api",
    notRun:
      "installs from the npm registry and deploys to a real service (api.example.com); test/check/cli/pack.test.ts installs the packed package and runs its dms bin",
  },
  {
    page: "docs/cli.md",
    starts: "$ dms rollback 3f2b8c1e-5a47-4d6b-9e21-7c0a4f8e1b52 --dry-run",
    run: {
      in: "project",
      needs: ["simulator"],
      proves: "the dry run prints the lines the page shows, and sends nothing",
      check: (ran) => expectIn(ran, "dry run of rollback, nothing was sent", "would send:    PATCH /v2/deployments/3f2b8c1e-5a47-4d6b-9e21-7c0a4f8e1b52"),
    },
  },
  {
    page: "docs/cli.md",
    starts: "dms rollback 3f2b8c1e-5a47-4d6b-9e21-7c0a4f8e1b52 --timeout 20m",
    run: {
      in: "project",
      needs: ["simulator"],
      proves: "both rollbacks end DEPLOYED (the second, --json, says so in its result line)",
      check: (ran) => expectIn(ran, /revision \S+ DEPLOYED after/, /"event":"result".*"status":"DEPLOYED"/),
    },
  },
  {
    page: "docs/cli.md",
    starts: "DMS_BASE_URL=http://127.0.0.1:4011 DMS_API_KEY=dev npx dms mcp --read-only",
    run: {
      in: "project",
      needs: ["simulator"],
      proves: "dms mcp serves the read-only tools on stdio (its stdin is closed here, so it ends)",
      check: (ran) => expectIn(ran, "dms mcp: serving the read-only tools"),
    },
  },
  {
    page: "docs/cli.md",
    starts: "./node_modules/.bin/dms simulate --port 4011",
    run: {
      in: "project",
      proves: "the first deploy exits 0 (DEPLOYED), the second 1 (BUILD_FAILED), and revisions lists both",
      check: (ran) => expectIn(ran, "exit 0", "exit 1", /DEPLOYED/, /BUILD_FAILED/),
    },
  },
  {
    page: "docs/client.md",
    starts: "npm install deployment-management-api",
    notRun: "installs from the npm registry; test/check/cli/pack.test.ts installs the packed package the same way",
  },
  {
    page: "docs/contract-suite.md",
    starts: "CONTRACT_BASE_URL=http://127.0.0.1:8080 CONTRACT_API_KEY=my-key npm run test:contract",
    notRun:
      "aims at the reader's own server (8080, my-key); the fresh-clone test runs the same npm run test:contract with CONTRACT_BASE_URL at the fresh simulator (commands.ts, SCRIPTS)",
  },
  {
    page: "docs/docs-page.md",
    starts: "npm run docs",
    run: { in: "clone", proves: "the docs server answers on its port", check: (ran) => expectIn(ran, "Docs on http://127.0.0.1:") },
  },
  {
    page: "docs/mcp.md",
    starts: "npm install --save-dev deployment-management-api @modelcontextprotocol/sdk",
    notRun: "installs from the npm registry; test/check/cli/pack.test.ts installs the packed package",
  },
  { page: "docs/mcp.md", starts: "claude mcp add dms --env", notRun: "needs Claude Code's CLI (claude) and a real service" },
  {
    page: "docs/mcp.md",
    starts: "DMS_BASE_URL=https://api.example.com npx dms mcp --port 4012 &",
    notRun: "needs Claude Code's CLI (claude) and a real service",
  },
  {
    page: "docs/mcp.md",
    starts: "npx dms mcp --port 4012 --allow-origin",
    run: {
      in: "project",
      proves: "dms mcp answers on its port with the origin admitted",
      check: (ran) => expectIn(ran, /dms mcp: serving the tools of .* at http:\/\/127\.0\.0\.1:\d+\/mcp/),
    },
  },
  {
    page: "docs/mcp.md",
    starts: "./node_modules/.bin/dms simulate --port 4011 --step-seconds 1 &",
    notRun: "its second line needs Claude Code's CLI (claude)",
  },
  {
    page: "docs/mcp.md",
    starts: "curl -s -X POST -H 'Content-Type: application/json'",
    run: { in: "clone", needs: ["simulator"], proves: "the simulator takes the fault for the next revision", check: (ran) => expectIn(ran, "BUILD_FAILED") },
  },
  {
    page: "docs/mock.md",
    starts: "npm install",
    run: {
      in: "clone",
      proves: "each npm start line answers on its port, with its flags",
      check: (ran) =>
        expectIn(
          ran,
          "Mock of the Deployment Management API listening on",
          "also answers Host: dev.example.test",
          "CORS also for: http://app.example.test:3000",
        ),
    },
  },
  {
    page: "docs/mock.md",
    starts: "curl -H 'X-Api-Key: dev' 'http://127.0.0.1:4010/v2/deployments?limit=2'",
    run: {
      in: "clone",
      needs: ["mock"],
      proves: "every call answers JSON without an error: the lists, the resources, both PATCHes",
      check: (ran) => {
        const answers = jsonLines(ran);
        if (answers.length !== 12) throw new Error(`expected 12 answers, got ${answers.length}:\n${ran.output}`);
        const failed = answers.filter((a) => !Array.isArray(a) && typeof a.status === "number" && a.status >= 400);
        if (failed.length > 0) throw new Error(`problems:\n${JSON.stringify(failed)}`);
      },
    },
  },
  {
    page: "docs/mock.md",
    starts: "# another example of the same response",
    run: {
      in: "clone",
      needs: ["mock"],
      proves: "Prefer picks the named example and the documented status",
      check: (ran) => expectIn(ran, '"source":"external_docker"', '"resources":[]', '"status":"BUILD_FAILED"', /HTTP\/1\.1 404/, '"status":"DEPLOYED"'),
    },
  },
  {
    page: "docs/mock.md",
    starts: "$ curl -H 'X-Api-Key: dev' 'http://127.0.0.1:4010/v2/deployments?limit=500'",
    run: {
      in: "clone",
      needs: ["mock"],
      proves: "the answer is the problem the page prints",
      check: (ran) => {
        const [problem] = jsonLines(ran);
        const shown = {
          type: "urn:deployment-management-api:problem:validation",
          title: "Request validation failed",
          status: 422,
          detail: "The request has 1 invalid field.",
          instance: "/v2/deployments",
          errors: [{ parameter: "limit", code: "maximum", detail: "must be <= 100" }],
        };
        if (JSON.stringify(problem) !== JSON.stringify(shown)) throw new Error(`expected ${JSON.stringify(shown)}, got ${ran.output}`);
      },
    },
  },
  {
    page: "docs/mock.md",
    starts: "npx @stoplight/prism-cli@5.14.2 mock",
    run: { in: "project", proves: "bare Prism serves the bundle on its port", check: (ran) => expectIn(ran, /Prism is listening on/) },
  },
  {
    page: "docs/reliability.md",
    starts: 'FUZZ_SEED=19 FUZZ_PATH="22:284" npx vitest run',
    notRun: "replays one failing case by the seed and path a fuzz run prints (these are an illustration); the file runs in npm run check",
  },
  {
    page: "docs/reliability.md",
    starts: "npm run fuzz -- --minutes 10",
    notRun: "ten minutes, or thousands of runs each: the fresh-clone test runs npm run fuzz with a short budget and a fixed seed (commands.ts, SCRIPTS)",
  },
  {
    page: "docs/simulator.md",
    starts: "npm run simulate",
    run: {
      in: "clone",
      proves: "the simulator answers a page of two deployments",
      check: (ran) => {
        const [page] = jsonLines(ran);
        if (page?.resources?.length !== 2) throw new Error(`expected a page of 2:\n${ran.output}`);
      },
    },
  },
  {
    page: "docs/simulator.md",
    starts: "npx dms-simulator --port 4011 --state .simulator.sqlite",
    run: {
      in: "project",
      proves: "the simulator starts on a new state file",
      check: (ran) => expectIn(ran, "State file .simulator.sqlite does not exist yet"),
    },
  },
  {
    page: "docs/simulator.md",
    starts: "sqlite3 .simulator.sqlite",
    notRun: "needs the sqlite3 command-line tool (not a dependency) and the state file of the block before it, stopped",
  },
  {
    page: "docs/simulator.md",
    starts: "BASE=http://127.0.0.1:4011; KEY='X-Api-Key: ci'",
    run: {
      in: "clone",
      needs: ["simulator"],
      proves: "after the advance, the active revision is the one the PATCH created",
      check: (ran) => {
        const ids = ran.output.match(/"[0-9a-f-]{36}"/g) ?? [];
        if (ids.length !== 2 || ids[0] !== ids[1]) throw new Error(`expected the PATCH's revision twice:\n${ran.output}`);
      },
    },
  },
  {
    page: "docs/simulator.md",
    starts: "npx dms-simulator --latency 100-800",
    run: { in: "project", proves: "the fault is taken and listed", check: (ran) => expectIn(ran, '"operation":"getDeployment"', '"fault":429') },
  },
  {
    page: "docs/workflows.md",
    starts: "npx dms simulate --port 4011 --step-seconds 1 &",
    run: { in: "project", proves: "Respect reports the deployRef workflow passed", check: (ran) => expectIn(ran, /Workflows: 1 passed, 1 total/) },
  },
  {
    page: "docs/workflows.md",
    starts: 'DMS_API_KEY="$(cat ~/.config/dms/key)" npx @redocly/cli@2.77.0 respect',
    notRun: "runs against a real service (api.example.com) with a real key",
  },
];

/** The entry of a block, if any: the same page, and its first line starts so. */
export function entryOf(block: ShellBlock): BlockEntry | undefined {
  const first = block.text.split("\n")[0]!;
  return BLOCKS.find((entry) => entry.page === block.page && first.startsWith(entry.starts));
}

export interface Ports {
  mock: number;
  simulator: number;
  mcp: number;
  docs: number;
}

const DOCUMENTED_PORTS: Record<string, keyof Ports> = { "4010": "mock", "4011": "simulator", "4012": "mcp", "8080": "docs" };

/** A line that starts a server and stays in the foreground, and the port it listens on. */
function foregroundServer(line: string, ports: Ports): { line: string; port: number } | undefined {
  if (/&\s*(SIMULATOR=\$!)?\s*$/.test(line)) return undefined;
  const named = /(?:--port |PORT=|-p )(\d+)/.exec(line)?.[1];
  const port = (role: keyof Ports) => (named ? Number(named) : ports[role]);
  if (/^(PORT=\d+ )?npm start\b/.test(line)) return { line: named ? line : `PORT=${ports.mock} ${line}`, port: port("mock") };
  if (/^(PORT=\d+ )?npm run simulate\b/.test(line)) return { line: named ? line : `PORT=${ports.simulator} ${line}`, port: port("simulator") };
  if (/^(PORT=\d+ )?npm run docs\b/.test(line)) return { line: named ? line : `PORT=${ports.docs} ${line}`, port: port("docs") };
  if (/npx dms-simulator\b/.test(line)) return { line: named ? line : `PORT=${ports.simulator} ${line}`, port: port("simulator") };
  if (/prism-cli@[\d.]+ mock\b/.test(line)) return { line: named ? line : `${line} -p ${ports.mock}`, port: port("mock") };
  if (/dms mcp --port/.test(line)) return { line, port: port("mcp") };
  return undefined;
}

/** The block as a bash script: ports made free, foreground servers in the background, waits added. */
export function scriptOf(block: ShellBlock, entry: Extract<BlockEntry, { run: unknown }>, ports: Ports, prelude = ""): string {
  let text = block.text;
  for (const [documented, role] of Object.entries(DOCUMENTED_PORTS))
    text = text
      .replaceAll(`:${documented}`, `:${ports[role]}`)
      .replaceAll(`--port ${documented}`, `--port ${ports[role]}`)
      .replaceAll(`PORT=${documented}`, `PORT=${ports[role]}`);
  // Logical lines: a trailing backslash joins the next.
  const lines: string[] = [];
  for (const raw of text.split("\n")) {
    const previous = lines.at(-1);
    if (previous?.endsWith("\\")) lines[lines.length - 1] = `${previous.slice(0, -1)} ${raw.trim()}`;
    else lines.push(raw);
  }
  const out = [
    "set -u",
    "PIDS=()",
    // A server's process group, so that npm and what it started go together.
    // biome-ignore lint/suspicious/noTemplateCurlyInString: bash's own parameter expansion
    'stop_port() { local pid=${SERVERS[$1]:-}; if [ -n "$pid" ]; then kill -- -$pid 2>/dev/null; wait $pid 2>/dev/null; unset "SERVERS[$1]"; fi; }',
    "declare -A SERVERS",
    'wait_port() { for _ in $(seq 1 600); do (exec 3<>/dev/tcp/127.0.0.1/$1) 2>/dev/null && return 0; sleep 0.2; done; echo "NEVER ANSWERED on port $1"; }',
    // A foreground server writes to its own log, shown when the block ends: written into the same
    // pipe as curl, a log line could land between an answer and the newline curl writes after it.
    "SERVER_LOGS=$(mktemp -d)",
    // biome-ignore lint/suspicious/noTemplateCurlyInString: bash's own parameter expansion
    'trap \'for p in "${SERVERS[@]}"; do kill -- -$p 2>/dev/null; done; for p in "${PIDS[@]}"; do kill $p 2>/dev/null; done; cat "$SERVER_LOGS"/*.log 2>/dev/null; rm -rf "$SERVER_LOGS"\' EXIT',
    prelude,
  ];
  const transcript = lines[0]!.startsWith("$ ");
  for (const original of lines) {
    let line = original.replace(/\s+#.*$/, "").replace(/^#.*$/, "");
    if (transcript) {
      if (!line.startsWith("$ ")) continue;
      line = line.slice(2);
    }
    if (line.trim() === "") continue;
    if (Object.keys(entry.run.skip ?? {}).some((start) => line.trim().startsWith(start))) continue;
    const server = foregroundServer(line.trim(), ports);
    if (server) {
      out.push(
        `stop_port ${server.port}`,
        `set -m; ( ${server.line} ) >> "$SERVER_LOGS/${server.port}.log" 2>&1 & SERVERS[${server.port}]=$!; set +m`,
        `wait_port ${server.port}`,
      );
      continue;
    }
    out.push(line);
    // A server started in the background as written: the next line waits until it answers.
    const background = /&\s*(SIMULATOR=\$!)?\s*$/.test(line.trim()) ? /(?:--port |:)(\d{4,5})\b/.exec(line)?.[1] : undefined;
    if (background) out.push(`PIDS+=($!)`, `wait_port ${background}`);
  }
  // Time for a server's first lines to reach the log before the block ends.
  out.push("sleep 0.5");
  return out.join("\n");
}

/** Makes `project` a folder that installed the package: node_modules links the clone's, and the clone as the package. */
export function makeProject(clone: string, project: string): void {
  const modules = join(project, "node_modules");
  mkdirSync(join(modules, ".bin"), { recursive: true });
  writeFileSync(join(project, "package.json"), `${JSON.stringify({ name: "reader-project", private: true, type: "module" }, null, 2)}\n`);
  for (const name of readdirSync(join(clone, "node_modules"))) {
    if (name === ".bin") continue;
    symlinkSync(join(clone, "node_modules", name), join(modules, name));
  }
  for (const name of readdirSync(join(clone, "node_modules", ".bin"))) symlinkSync(join(clone, "node_modules", ".bin", name), join(modules, ".bin", name));
  symlinkSync(clone, join(modules, "deployment-management-api"));
  const bins = JSON.parse(readFileSync(join(clone, "package.json"), "utf8")).bin as Record<string, string>;
  for (const [name, path] of Object.entries(bins)) symlinkSync(join(clone, path), join(modules, ".bin", name));
}

/** Runs one block's script with bash in `cwd`; bounded. */
export function runScript(script: string, cwd: string, env: NodeJS.ProcessEnv, timeoutMs = 240_000): Promise<Ran> {
  return new Promise((resolve) => {
    const child = spawn("bash", ["-c", script], { cwd, env, stdio: ["ignore", "pipe", "pipe"], detached: true });
    let output = "";
    child.stdout.on("data", (chunk) => (output = (output + chunk).slice(-400_000)));
    child.stderr.on("data", (chunk) => (output = (output + chunk).slice(-400_000)));
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid!, "SIGKILL");
      } catch {
        // Ended.
      }
    }, timeoutMs);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

/** The pages whose shell blocks are listed. */
export function documentedPages(root: string): string[] {
  return ["README.md", "CONTRIBUTING.md", ...readdirSync(join(root, "docs")).map((name) => `docs/${name}`)].filter((p) => p.endsWith(".md")).sort();
}

/** Every shell block of every page. */
export function allBlocks(root: string): ShellBlock[] {
  return documentedPages(root).flatMap((page) => shellBlocks(page, readFileSync(join(root, page), "utf8")));
}

/**
 * Runs every block marked `run`, in the clone or a project beside it, each with the servers it needs
 * started first (npm start, npm run simulate in the clone), and returns the failures (empty when all
 * passed) and what each run proved.
 */
export async function runDocumentedBlocks(
  clone: string,
  work: string,
  env: NodeJS.ProcessEnv,
  freePort: () => Promise<number>,
  only: (block: ShellBlock) => boolean = () => true,
): Promise<{ failures: string[]; proved: string[] }> {
  const project = join(work, "project");
  makeProject(clone, project);
  // curl prints an answer without a newline; one answer per line, so that each can be read.
  writeFileSync(join(work, ".curlrc"), 'write-out = "\\n"\n');
  const failures: string[] = [];
  const proved: string[] = [];
  for (const block of allBlocks(clone)) {
    const entry = entryOf(block);
    if (!entry || !("run" in entry) || !only(block)) continue;
    const ports: Ports = { mock: await freePort(), simulator: await freePort(), mcp: await freePort(), docs: await freePort() };
    const needs = (entry.run.needs ?? [])
      .map((server) =>
        server === "mock"
          ? `set -m; ( cd ${JSON.stringify(clone)} && PORT=${ports.mock} npm start ) > /dev/null 2>&1 & SERVERS[${ports.mock}]=$!; set +m; wait_port ${ports.mock}`
          : `set -m; ( cd ${JSON.stringify(clone)} && PORT=${ports.simulator} npm run simulate -- --quiet --step-seconds 0.2 ) > /dev/null 2>&1 & SERVERS[${ports.simulator}]=$!; set +m; wait_port ${ports.simulator}`,
      )
      .join("\n");
    // What a reader following the pages has exported (docs/cli.md): the simulator and a key.
    const exported = `export DMS_BASE_URL=\${DMS_BASE_URL:-http://127.0.0.1:${ports.simulator}} DMS_API_KEY=\${DMS_API_KEY:-dev}`;
    const script = scriptOf(block, entry, ports, `${exported}\n${needs}`);
    const cwd = entry.run.in === "clone" ? clone : project;
    const runEnv = { ...env, CURL_HOME: work, PATH: entry.run.in === "project" ? `${join(project, "node_modules", ".bin")}:${env.PATH}` : env.PATH };
    const ran = await runScript(script, cwd, runEnv);
    const label = `${block.page} block ${block.index + 1} (${entry.starts})`;
    try {
      if (ran.output.includes("NEVER ANSWERED")) throw new Error(`a server never answered:\n${ran.output.slice(-4000)}`);
      entry.run.check(ran);
      proved.push(`${label}: ${entry.run.proves}`);
    } catch (error) {
      failures.push(`${label}: ${(error as Error).message}`);
    }
  }
  return { failures, proved };
}
