// State files a person or another program left in a state the simulator must not serve: tables and
// columns changed by hand, a trigger (which could change rows behind every write, so that the disk
// holds what memory does not), a file or folder that cannot be written (a read-only file system,
// mounted here), a disk too full for a new file's first state. Each stops the start with one
// StateFileError naming the file and what is wrong, before anything in the file changes.
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSimulator } from "../../../src/simulator/node/index.js";
import { loadSqlite, SCHEMA } from "../../../src/simulator/node/sqlite/index.js";
import { SCHEMA_TABLES } from "../../../src/simulator/node/sqlite/schema.js";
import { SEED_IDS, seedState } from "../../../src/simulator/core/seed.js";
import { startTestSimulator } from "../../simulator/support.js";
import { digest, refusal } from "./state-file.js";

const { DatabaseSync } = await loadSqlite();
const work = mkdtempSync(join(tmpdir(), "dms-state-hostile-"));
let made = "";

beforeAll(async () => {
  made = join(work, "made.sqlite");
  const running = await startSimulator({ port: 0, quiet: true, seedDeployments: 2, stateFile: made });
  await running.close();
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("a state file whose schema was changed by hand", () => {
  // [what was done, the SQL, what the message says]
  const cases: [string, string, RegExp][] = [
    ["a table dropped", "DROP TABLE listeners", /its table listeners is missing/],
    [
      "a column renamed",
      "ALTER TABLE listeners RENAME COLUMN listener TO body",
      /its table listeners is not the simulator's \(no column listener; a column body it does not have\)/,
    ],
    ["a column added", "ALTER TABLE deployments ADD COLUMN note TEXT", /its table deployments is not the simulator's \(a column note it does not have\)/],
    [
      "a trigger that deletes revisions behind every deployment write",
      "CREATE TRIGGER forget AFTER UPDATE ON deployments BEGIN DELETE FROM revisions WHERE deployment_id = new.id; END",
      /it has a trigger \(forget\)/,
    ],
    [
      "a trigger that refuses every write",
      "CREATE TRIGGER nope BEFORE INSERT ON revisions BEGIN SELECT RAISE(ABORT, 'nope'); END",
      /it has a trigger \(nope\)/,
    ],
  ];
  it.each(cases)("%s: refused, naming the file and the change, the file left byte for byte", async (name, sql, reason) => {
    const file = join(work, `${name.replace(/\W+/g, "-")}.sqlite`);
    copyFileSync(made, file);
    const db = new DatabaseSync(file);
    db.exec(sql);
    db.close();
    const before = digest(file);
    const error = await refusal({ stateFile: file });
    expect(error.message).toContain(file);
    expect(error.message).toMatch(reason);
    expect(error.message).toMatch(/left untouched/);
    expect(error.message.split("\n")).toHaveLength(1);
    expect(digest(file)).toBe(before);
  });

  it("SCHEMA_TABLES, read from the schema's text, names every table and column SQLite makes of it", () => {
    const db = new DatabaseSync(":memory:");
    db.exec(SCHEMA);
    const columns = (table: string) =>
      db
        .prepare(`SELECT name FROM pragma_table_info('${table}')`)
        .all()
        .map((c) => String(c.name));
    const tables = db
      .prepare("SELECT name FROM sqlite_schema WHERE type = 'table'")
      .all()
      .map((row) => String(row.name));
    expect(new Map(tables.map((table) => [table, columns(table)]))).toEqual(new Map(SCHEMA_TABLES));
    db.close();
  });
});

describe("a disk that cannot take the file", () => {
  const point = join(work, "mount");
  let why = "";
  beforeAll(() => {
    mkdirSync(point);
    try {
      execFileSync("mount", ["-t", "tmpfs", "-o", "size=48k,mode=0700", "tmpfs", point], { stdio: "pipe" });
    } catch (error) {
      why = (error as Error).message.split("\n")[0]!;
    }
  });
  afterAll(() => {
    try {
      execFileSync("umount", ["-l", point], { stdio: "pipe" });
    } catch {
      // Not mounted (mount was refused).
    }
  });

  // [seed size, where the first start runs out of space]: the seed of 30 deployments fills the disk
  // in the transaction that creates the file, the seed of 2 in the first write after it.
  it.for([
    [30, "creating the file"],
    [2, "the first write after it"],
  ] as const)(
    "a new file on a disk too small for the seed of %i (full while %s): one error naming the file and the full disk; the file is let go",
    async ([seedDeployments], context) => {
      if (why) context.skip(`needs root to mount a tmpfs: ${why}`);
      const file = join(point, "new.sqlite");
      const error = await startSimulator({ port: 0, quiet: true, seedDeployments, stateFile: file }).then(
        async (running) => {
          await running.close();
          throw new Error("the simulator started on a full disk");
        },
        (e: unknown) => e as Error,
      );
      expect(error.message).toContain(file);
      expect(error.message).toMatch(/disk is full|SQLITE_FULL/);
      expect(error.message.split("\n")).toHaveLength(1);
      // Nothing holds the file any more: a start on it is not refused as "another simulator", and
      // the file system is not busy (a plain umount would fail while the connection lived on).
      rmSync(file, { force: true });
      rmSync(`${file}-wal`, { force: true });
      execFileSync("umount", [point], { stdio: "pipe" });
      execFileSync("mount", ["-t", "tmpfs", "-o", "size=48k,mode=0700", "tmpfs", point], { stdio: "pipe" });
    },
  );

  it("a read-only file system: an existing file and a new one are refused by name, before SQLite reports a disk I/O error", async (context) => {
    if (why) context.skip(`needs root to mount a tmpfs: ${why}`);
    execFileSync("umount", [point], { stdio: "pipe" });
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=512k,mode=0700", "tmpfs", point], { stdio: "pipe" });
    const existing = join(point, "state.sqlite");
    copyFileSync(made, existing);
    const before = digest(existing);
    execFileSync("mount", ["-o", "remount,ro", point], { stdio: "pipe" });
    const cases: [string, RegExp][] = [
      [existing, /cannot be used: it cannot be written \(EROFS: its file system is read-only\)/],
      [
        join(point, "new.sqlite"),
        /cannot be used: its folder .* cannot be written \(EROFS: its file system is read-only\), and SQLite keeps its write-ahead log there/,
      ],
    ];
    for (const [file, reason] of cases) {
      const error = await refusal({ stateFile: file });
      expect(error.message).toContain(file);
      expect(error.message).toMatch(reason);
      expect(error.message).not.toMatch(/I\/O error|SQLITE_IOERR/);
    }
    expect(digest(existing)).toBe(before);
  });
});

describe("an empty state file path", () => {
  // An empty value would start a simulator that keeps nothing, or imports nothing, as if none was given.
  it.each([
    [{ stateFile: "" }, /startSimulator: stateFile must be a file path \(a non-empty string\), got ""/],
    [{ stateFile: join(work, "never.sqlite"), importStateFrom: "" }, /startSimulator: importStateFrom must be a file path/],
  ])("startSimulator(%j) is a TypeError naming the option", async (options, message) => {
    await expect(startSimulator({ port: 0, quiet: true, ...options })).rejects.toThrow(message);
  });

  it.each([
    [["--state", ""], "--state needs a FILE, and was given an empty value."],
    [["--state", join(work, "never.sqlite"), "--import-state", ""], "--import-state needs a FILE, and was given an empty value."],
  ])("dms-simulator %j is a usage error naming the flag", async (args, message) => {
    const { runSimulatorCli, SimulatorUsageError } = await import("../../../src/simulator/node/cli-main.js");
    const error = await runSimulatorCli(["--port", "0", "--quiet", ...args]).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(SimulatorUsageError);
    expect((error as Error).message).toBe(message);
  });
});

describe("a state file moved, replaced or deleted under a running simulator", () => {
  // Writes into the file the connection still holds would be acknowledged and then found by no
  // restart: each is refused with a 500 instead, and memory keeps what the disk has.
  const cases: [string, (file: string) => void][] = [
    ["deleted", (file) => rmSync(file)],
    ["moved away", (file) => renameSync(file, `${file}.moved`)],
    [
      "replaced by another file",
      (file) => {
        copyFileSync(made, `${file}.other`);
        renameSync(`${file}.other`, file);
      },
    ],
  ];
  it.each(cases)("%s: a write answers 500 problem+json and changes nothing", async (name, change) => {
    const file = join(work, `under-${name.replace(/\W+/g, "-")}.sqlite`);
    const { simulator, client } = await startTestSimulator({ stateFile: file, seedDeployments: 2 });
    try {
      const path = `/v2/deployments/${SEED_IDS.deployment_id}`;
      expect((await client.patch(path, { source_config: { custom_url: "https://before.example.com" } })).status).toBe(200);
      change(file);
      const refused = await client.patch(path, { source_config: { custom_url: "https://after.example.com" } });
      expect(refused.status).toBe(500);
      expect(refused.body).toMatchObject({ detail: "The simulator could not save the change. Nothing was changed." });
      expect((await client.ok(path)).source_config.custom_url).toBe("https://before.example.com");
    } finally {
      await simulator.close();
    }
  });
});

describe("a 1.0 state file whose records lack a field every row is written with", () => {
  // [what is changed in the 1.0 snapshot, the message]: SQLite's "cannot be bound to parameter 3" before.
  const cases: [string, (state: any) => void, RegExp][] = [
    [
      "a deployment without deployment_type",
      (state) => delete state.deployments[0].deployment_type,
      /deployment ".*" has "deployment_type" that is not a string/,
    ],
    ["a deployment whose tag_value_ids is not a list", (state) => (state.deployments[0].tag_value_ids = "a,b"), /has "tag_value_ids" that is not a list/],
    [
      "a revision without step_at_ms",
      (state) => delete state.deployments[0].revisions[0].step_at_ms,
      /revision ".*" of deployment ".*" has "step_at_ms" that is not a number/,
    ],
  ];
  it.each(cases)("%s: refused by name, nothing imported", async (name, change, reason) => {
    const state: any = seedState(2, Date.now());
    change(state);
    const from = join(work, `v1-${name.replace(/\W+/g, "-")}.json`);
    writeFileSync(from, JSON.stringify(state));
    const error = await refusal({ stateFile: join(work, `into-${name.replace(/\W+/g, "-")}.sqlite`), importStateFrom: from });
    expect(error.message).toContain(from);
    expect(error.message).toMatch(reason);
    expect(error.message).toMatch(/Nothing was imported/);
  });

  it("records written before fail_next and fail_with existed are imported, with no failure pending", async () => {
    const state: any = seedState(2, Date.now());
    delete state.deployments[0].fail_next;
    delete state.deployments[0].revisions[0].fail_with;
    const from = join(work, "v1-no-failures.json");
    writeFileSync(from, JSON.stringify(state));
    const running = await startSimulator({ port: 0, quiet: true, stateFile: join(work, "into-no-failures.sqlite"), importStateFrom: from });
    await running.close();
  });
});
