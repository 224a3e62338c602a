// --state FILE, a SQLite database: one simulator per file (same process, and two processes started
// at the same moment), the file's mode, owner and symlink kept over 1,000 writes, a write history
// that survives a restart exactly, and files the simulator refuses (rows it could not serve,
// another program's database, a damaged file, a 1.0 state file), each left byte for byte as it was.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import {
  chownSync,
  chmodSync,
  closeSync,
  existsSync,
  lstatSync,
  mkdtempSync,
  openSync,
  readlinkSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { crc32 } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { SEED_IDS, seedState } from "../../../src/simulator/core/seed.js";
import { type SimulatorOptions, startSimulator } from "../../../src/simulator/node/index.js";
import { APPLICATION_ID, loadSqlite, SCHEMA, SCHEMA_VERSION } from "../../../src/simulator/node/sqlite/index.js";
import { ROOT } from "../../support/document.js";
import { Client, startTestSimulator } from "../../simulator/support.js";
import { digest, refusal } from "./state-file.js";

// node:sqlite as the adapter loads it (without its experimental warning).
const { DatabaseSync } = await loadSqlite();

const work = mkdtempSync(join(tmpdir(), "dms-sqlite-state-"));
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  rmSync(work, { recursive: true, force: true });
});

const path = `/v2/deployments/${SEED_IDS.deployment_id}`;

/** The refusal of a start on this file, with this suite's seed of three deployments. */
const refuse = (options: SimulatorOptions) => refusal(options, 3);

/** A state file made by the simulator, with a few writes in it. */
async function madeFile(name: string): Promise<string> {
  const file = join(work, name);
  const { simulator, client } = await startTestSimulator({ stateFile: file, seedDeployments: 3 });
  expect((await client.patch(path, { source_revision_config: { repo_ref: "made" } })).status).toBe(200);
  await simulator.close();
  return file;
}

describe("one simulator per file", () => {
  it("a second simulator on the same file in the same process is refused at start, naming the file; the first goes on", async () => {
    const file = join(work, "same-process.sqlite");
    const first = await startTestSimulator({ stateFile: file, seedDeployments: 3 });
    try {
      const error = await refuse({ stateFile: file });
      expect(error.message).toContain(file);
      expect(error.message).toMatch(/another simulator/);
      expect((await first.client.patch(path, { source_config: { custom_url: "https://first.example.com" } })).status).toBe(200);
    } finally {
      await first.simulator.close();
    }
    const again = await startTestSimulator({ stateFile: file, seedDeployments: 3 });
    expect((await again.client.ok(path)).source_config.custom_url).toBe("https://first.example.com");
    await again.simulator.close();
  });

  function startCli(file: string) {
    const child = spawn(process.execPath, ["dist/simulator/node/cli.js", "--port", "0", "--quiet", "--seed-deployments", "3", "--state", file], {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "pipe"],
    });
    children.push(child);
    let stderr = "";
    child.stderr!.on("data", (chunk) => (stderr += chunk));
    const exited = new Promise<{ code: number | null; stderr: string }>((resolve) => child.once("close", (code) => resolve({ code, stderr })));
    const url = new Promise<string | undefined>((resolve) => {
      createInterface({ input: child.stdout! }).once("line", (line) => resolve(line.trim()));
      exited.then(() => resolve(undefined));
    });
    return { child, url, exited };
  }

  it("two processes started at the same moment on one file, ten times: exactly one serves, the other exits 1 naming the file, and no acknowledged write is lost", async () => {
    const file = join(work, "two-processes.sqlite");
    let expected: string | undefined;
    for (let round = 0; round < 10; round++) {
      // Even rounds race to create the file, odd rounds to open it.
      if (round % 2 === 0) rmSync(file, { force: true });
      const pair = [startCli(file), startCli(file)];
      const urls = await Promise.all(pair.map((p) => p.url));
      const winners = pair.filter((_, i) => urls[i] !== undefined);
      expect(winners, `round ${round}`).toHaveLength(1);
      const loser = pair.find((_, i) => urls[i] === undefined)!;
      const { code, stderr } = await loser.exited;
      expect(code).toBe(1);
      expect(stderr).toContain(file);
      expect(stderr).toMatch(/another simulator/);
      const url = urls.find((u) => u !== undefined)!;
      const headers = { "x-api-key": "k", "content-type": "application/json" };
      if (expected !== undefined && round % 2 === 1) {
        const seen = (await (await fetch(url + path, { headers })).json()) as any;
        expect(seen.source_config.custom_url, `round ${round}`).toBe(expected);
      }
      expected = `https://round-${round}.example.com`;
      const answer = await fetch(url + path, { method: "PATCH", headers, body: JSON.stringify({ source_config: { custom_url: expected } }) });
      expect(answer.status).toBe(200);
      winners[0]!.child.kill("SIGKILL");
      await winners[0]!.exited;
    }
  });
});

describe("a first start stopped halfway", () => {
  it("a file with the schema and not one row (an earlier version's first start, stopped between its two commits) is served from the seed", async () => {
    const file = join(work, "schema-only.sqlite");
    const db = new DatabaseSync(file);
    db.exec(SCHEMA);
    db.exec(`PRAGMA application_id = ${APPLICATION_ID}`);
    db.exec(`PRAGMA user_version = ${SCHEMA_VERSION}`);
    db.close();
    const { simulator, client } = await startTestSimulator({ stateFile: file, seedDeployments: 3 });
    expect((await client.allDeployments()).length).toBe(3);
    expect((await client.patch(path, { source_config: { custom_url: "https://kept.example.com" } })).status).toBe(200);
    await simulator.close();
    const again = await startTestSimulator({ stateFile: file, seedDeployments: 3 });
    expect((await again.client.ok(path)).source_config.custom_url).toBe("https://kept.example.com");
    await again.simulator.close();
  });
});

describe("the file stays what the user made it", () => {
  /** 1,000 PATCHes by 10 writers, each on a deployment of its own, through the simulator's own fetch (the same writes as over HTTP, without the sockets). */
  async function thousandWrites(file: string): Promise<string> {
    const running = await startSimulator({ port: 0, quiet: true, seedDeployments: 10, stateFile: file });
    const client = new Client(running.url);
    const ids = (await client.allDeployments()).map((d) => d.id as string).slice(0, 10);
    expect(ids).toContain(SEED_IDS.deployment_id);
    let last = "";
    let next = 0;
    await Promise.all(
      ids.map(async (id) => {
        while (next < 1000) {
          const n = next++;
          const response = await running.simulator.fetch(`http://localhost/v2/deployments/${id}`, {
            method: "PATCH",
            headers: { "x-api-key": "k", "content-type": "application/json" },
            body: JSON.stringify({ source_config: { custom_url: `https://write-${n}.example.com` } }),
          });
          expect(response.status).toBe(200);
          const url = ((await response.json()) as any).source_config.custom_url;
          if (id === SEED_IDS.deployment_id) last = url;
        }
      }),
    );
    await running.close();
    return last;
  }

  it("a new file and its -wal file are created 0600 (they hold secret values)", async () => {
    const file = join(work, "private.sqlite");
    const { simulator } = await startTestSimulator({ stateFile: file, seedDeployments: 3 });
    try {
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(statSync(`${file}-wal`).mode & 0o777).toBe(0o600);
    } finally {
      await simulator.close();
    }
  });

  it("an existing file keeps its mode and owner, and a symlink keeps pointing at the same file, after 1,000 writes", async () => {
    const file = await madeFile("kept.sqlite");
    chmodSync(file, 0o640);
    const owned = process.getuid?.() === 0;
    if (owned) chownSync(file, 4321, 4321);
    const link = join(work, "link.sqlite");
    symlinkSync(file, link);

    const last = await thousandWrites(link);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readlinkSync(link)).toBe(file);
    const stat = statSync(file);
    expect(stat.mode & 0o777).toBe(0o640);
    if (owned) expect([stat.uid, stat.gid]).toEqual([4321, 4321]);
    // The writes went to the link's target: it alone, opened by its own name, holds them.
    const { simulator, client } = await startTestSimulator({ stateFile: file, seedDeployments: 10 });
    try {
      expect((await client.ok(path)).source_config.custom_url).toBe(last);
    } finally {
      await simulator.close();
    }
  });
});

describe("a restart shows exactly what was acknowledged", () => {
  it("600 revisions of one deployment (500 kept), revisions the clock moved, then one more write: the same deployment and the same history after a restart", async () => {
    const file = join(work, "history.sqlite");
    const first = await startTestSimulator({ stateFile: file, seedDeployments: 3, stepSeconds: 2 });
    for (let n = 0; n < 600; n++) expect((await first.client.patch(path, { source_revision_config: { repo_ref: `ref-${n}` } })).status).toBe(200);
    await first.client.advance(120);
    // The newest revision was DEPLOYED by the clock alone; this write saves it with the deployment.
    expect((await first.client.patch(path, { source_config: { custom_url: "https://after.example.com" } })).status).toBe(200);
    const all = async (client: typeof first.client) => {
      const items: unknown[] = [];
      for (let offset = 0; ; ) {
        const page = await client.ok(`${path}/revisions?limit=100&offset=${offset}`);
        items.push(...page.resources);
        if (page.resources.length < 100) return items;
        offset = page.offset;
      }
    };
    const deployment = await first.client.ok(path);
    const revisions = await all(first.client);
    expect(revisions).toHaveLength(500);
    expect(deployment.active_revision_id).toBe(deployment.latest_revision_id);
    await first.simulator.close();

    const second = await startTestSimulator({ stateFile: file, seedDeployments: 3, stepSeconds: 2 });
    try {
      expect(await second.client.ok(path)).toEqual(deployment);
      expect(await all(second.client)).toEqual(revisions);
    } finally {
      await second.simulator.close();
    }
  });
});

describe("files the simulator refuses, left as they were", () => {
  for (const [label, sql, reason] of [
    [
      "a null revision",
      "UPDATE revisions SET revision = 'null' WHERE position = (SELECT max(position) FROM revisions)",
      /CHECK constraint failed in revisions/,
    ],
    ["a null listener", "UPDATE listeners SET listener = 'null' WHERE position = 1", /CHECK constraint failed in listeners/],
    [
      "a deployment status the document does not have",
      `UPDATE deployments SET deployment = json_set(deployment, '$.status', 'NOPE') WHERE position = 1`,
      /CHECK constraint failed in deployments/,
    ],
    ["a revision of no deployment", "UPDATE revisions SET deployment_id = 'gone' WHERE position = 1", /belongs to no deployment/],
    ["no clock row", "DELETE FROM simulator", /simulator.*no row/],
  ] as const) {
    it(`a file holding ${label} (written past the schema's checks) stops the start, naming the file and what is wrong`, async () => {
      const file = await madeFile(`${label.replace(/\W+/g, "-")}.sqlite`);
      const db = new DatabaseSync(file, { enableForeignKeyConstraints: false });
      db.exec("PRAGMA ignore_check_constraints = ON");
      db.exec(sql);
      db.close();
      const before = digest(file);
      const error = await refuse({ stateFile: file });
      expect(error.message).toContain(file);
      expect(error.message).toMatch(reason);
      expect(error.message).toMatch(/left untouched/);
      expect(digest(file)).toBe(before);
    });
  }

  it("the schema itself refuses a null revision written with the sqlite3 shell's defaults", async () => {
    const file = await madeFile("checked.sqlite");
    const db = new DatabaseSync(file);
    expect(() => db.exec("UPDATE revisions SET revision = 'null'")).toThrow(/CHECK constraint failed/);
    expect(() =>
      db.exec("INSERT INTO revisions (id, deployment_id, revision, remote_reconciled, step_at_ms) VALUES ('x', 'nobody', '{\"id\":\"x\"}', 0, 0)"),
    ).toThrow(/constraint failed/);
    db.close();
  });

  it("another program's SQLite database is refused, naming the file, and left as it was", async () => {
    const file = join(work, "other-program.sqlite");
    const db = new DatabaseSync(file);
    db.exec("CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('mine')");
    db.close();
    const before = digest(file);
    const error = await refuse({ stateFile: file });
    expect(error.message).toContain(file);
    expect(error.message).toMatch(/another program's SQLite database/);
    expect(digest(file)).toBe(before);
  });

  it("a damaged database and a file that is no database are refused, naming the file, and left as they were", async () => {
    const damaged = await madeFile("damaged.sqlite");
    const fd = openSync(damaged, "r+");
    writeSync(fd, Buffer.alloc(8192, 0xa5), 0, 8192, 4096);
    closeSync(fd);
    const text = join(work, "text.sqlite");
    writeFileSync(text, "hello, not a database\n");
    for (const file of [damaged, text]) {
      const before = digest(file);
      const error = await refuse({ stateFile: file });
      expect(error.message).toContain(file);
      expect(error.message).toMatch(/damaged|not a SQLite database/);
      expect(digest(file)).toBe(before);
    }
  });
});

describe("a 1.0 state file (a JSON snapshot and a journal)", () => {
  function v1File(): string {
    const file = join(work, `v1-${Math.random().toString(36).slice(2)}.json`);
    const state = seedState(3, Date.now());
    writeFileSync(file, JSON.stringify(state));
    const record = structuredClone(state.deployments.find((d) => d.deployment.id === SEED_IDS.deployment_id)!);
    record.deployment.source_config = { ...record.deployment.source_config, custom_url: "https://from-the-journal.example.com" };
    const json = Buffer.from(JSON.stringify([{ op: "put_deployment", record }]));
    const line = Buffer.concat([Buffer.from(`${json.length} ${crc32(json).toString(16).padStart(8, "0")} `), json, Buffer.from("\n")]);
    // A last record cut short by a crash, as 1.0 could leave it: ignored.
    writeFileSync(`${file}.journal`, Buffer.concat([line, line.subarray(0, 20)]));
    return file;
  }

  it("given as --state, it is refused with a message that says how to import it, and left as it was", async () => {
    const file = v1File();
    const before = [digest(file), digest(`${file}.journal`)];
    const error = await refuse({ stateFile: file });
    expect(error.message).toContain(file);
    expect(error.message).toMatch(/1\.0 state file/);
    expect(error.message).toContain(`--import-state ${file}`);
    expect([digest(file), digest(`${file}.journal`)]).toEqual(before);
  });

  it("--import-state reads it once into a new SQLite file (snapshot and journal), which later starts use alone", async () => {
    const old = v1File();
    const before = [digest(old), digest(`${old}.journal`)];
    const file = join(work, "imported.sqlite");
    const first = await startTestSimulator({ stateFile: file, importStateFrom: old });
    try {
      expect((await first.client.ok(path)).source_config.custom_url).toBe("https://from-the-journal.example.com");
    } finally {
      await first.simulator.close();
    }
    expect([digest(old), digest(`${old}.journal`)]).toEqual(before);
    const second = await startTestSimulator({ stateFile: file });
    try {
      expect((await second.client.ok(path)).source_config.custom_url).toBe("https://from-the-journal.example.com");
      expect((await second.client.allDeployments()).length).toBe(3);
    } finally {
      await second.simulator.close();
    }
    // Importing into a file that exists is refused: an import never overwrites a state.
    const error = await refuse({ stateFile: file, importStateFrom: old });
    expect(error.message).toMatch(/already exists/);
    expect(existsSync(file)).toBe(true);
  });
});

describe("a Node without node:sqlite", () => {
  /** A Node on this machine older than 22.13 (the machines this is built on ship Node 20), if there is one. */
  function oldNode(): string | undefined {
    for (const candidate of ["/usr/bin/node", "/usr/local/bin/node", "/bin/node"]) {
      if (!existsSync(candidate)) continue;
      const version = spawnSync(candidate, ["-p", "process.versions.node"], { encoding: "utf8" }).stdout.trim();
      const [major = 0, minor = 0] = version.split(".").map(Number);
      if (major < 22 || (major === 22 && minor < 13)) return candidate;
    }
    return undefined;
  }

  it("dms simulate --state and dms-simulator --state say in one line which Node they need (exit 2); without --state the simulator starts", async (context) => {
    const node = oldNode();
    if (!node) context.skip("no Node older than 22.13 on this machine");
    const file = join(work, "old-node.sqlite");
    for (const args of [
      ["dist/cli/main.js", "simulate", "--port", "0", "--state", file],
      ["dist/simulator/node/cli.js", "--port", "0", "--state", file],
    ]) {
      const run = spawnSync(node!, args, { cwd: ROOT, encoding: "utf8", timeout: 60_000 });
      expect(run.status, run.stderr).toBe(2);
      expect(run.stderr.trim().split("\n")).toHaveLength(1);
      expect(run.stderr).toMatch(/needs Node\.js 22\.13 or later .* this is Node\.js 2\d\./);
      expect(existsSync(file)).toBe(false);
    }
    const child = spawn(node!, ["dist/cli/main.js", "simulate", "--port", "0", "--quiet"], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
    children.push(child);
    const url = await new Promise<string>((resolve, reject) => {
      createInterface({ input: child.stdout! }).once("line", resolve);
      child.once("exit", (code) => reject(new Error(`exited ${code}`)));
    });
    expect((await fetch(`${url}${path}`, { headers: { "x-api-key": "k" } })).status).toBe(200);
    child.kill("SIGTERM");
  });
});
