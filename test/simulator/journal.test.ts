// The state file's journal, with faults on purpose: a file system layer that writes fewer bytes than
// asked, runs out of space, is read-only or fails fsync, around the real node:fs on a temp dir.
// Every test checks what is on disk afterwards by loading it again with a fresh persistence.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applyChange, indexState, StorageError, type Persistence, type StateChange } from "../../src/simulator/core/changes.js";
import type { DeploymentRecord, Listener, State } from "../../src/simulator/core/model.js";
import { nodeFs, type FsLayer } from "../../src/simulator/node/fs-layer.js";
import { createStateFilePersistence, encodeRecord, journalPath, snapshotText, StateFileError } from "../../src/simulator/node/state-file.js";

const work = mkdtempSync(join(tmpdir(), "dms-journal-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));
let fileCount = 0;
/** A fresh state file path in its own directory (so temp-file checks see only its own files). */
function newFile(): string {
  const dir = join(work, `case-${++fileCount}`);
  mkdirSync(dir);
  return join(dir, "state.json");
}

function baseState(): State {
  return {
    format: "dms-simulator-state",
    version: 1,
    clock_offset_ms: 0,
    last_created_ms: 0,
    deployments: [record("seeded", "first")],
    listeners: [],
    providers: [],
    connections: {},
    repositories: { scm: {}, forge: {} },
  };
}

/** A deployment record as the core would put it; only the fields persistence looks at are real. */
function record(id: string, url: string, padding = 0): DeploymentRecord {
  return {
    deployment: { id, name: id, source_config: { custom_url: url }, notes: "x".repeat(padding) },
    deployment_type: "dev_free",
    remote_reconciled: true,
    tag_value_ids: [],
    revisions: [],
    fail_next: null,
  } as unknown as DeploymentRecord;
}

const put = (id: string, url: string, padding = 0): StateChange[] => [{ op: "put_deployment", record: record(id, url, padding) }];

/** The core's side of the contract: apply a write to memory only once its append resolved. */
class Core {
  constructor(
    readonly persistence: Persistence,
    public state: State,
  ) {
    persistence.attach(() => this.state);
  }
  async write(changes: StateChange[]): Promise<void> {
    await this.persistence.append(changes);
    for (const change of changes) this.state = applyChange(this.state, change);
  }
}

/** Starts a persistence the way the core does: load, or save the base state on a fresh start. */
async function open(file: string, options: Parameters<typeof createStateFilePersistence>[1] = {}) {
  const warnings: string[] = [];
  const persistence = createStateFilePersistence(file, { warn: (line) => warnings.push(line), ...options });
  const loaded = await persistence.load();
  const core = new Core(persistence, loaded ?? baseState());
  if (!loaded) await core.write([{ op: "replace_state", state: core.state }]);
  return { persistence, core, warnings };
}

async function reload(file: string): Promise<{ state: State | undefined; warnings: string[] }> {
  const warnings: string[] = [];
  const persistence = createStateFilePersistence(file, { warn: (line) => warnings.push(line) });
  const state = await persistence.load();
  await persistence.close();
  return { state, warnings };
}

const urls = (state: State | undefined) => Object.fromEntries((state?.deployments ?? []).map((d) => [d.deployment.id, d.deployment.source_config?.custom_url]));
const size = (path: string) => (existsSync(path) ? readFileSync(path).length : 0);
const flipBit = (bytes: Buffer, at: number) => bytes.writeUInt8(bytes.readUInt8(at) ^ 0x01, at);
const tempFiles = (file: string) => readdirSync(join(file, "..")).filter((name) => name.endsWith(".tmp"));

type Fault = { code: string } | { shortBy: number } | { maxBytes: number } | "zero";
interface FaultPlan {
  open?: (path: string) => Fault | undefined;
  write?: (path: string, length: number) => Fault | undefined;
  fsync?: (path: string) => Fault | undefined;
  ftruncate?: (path: string) => Fault | undefined;
  /** Called before each fsync; a test holds it open to let appends pile up. */
  beforeFsync?: (path: string) => Promise<void>;
}

function errnoError(code: string, op: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: injected fault, ${op}`), { code });
}

/** node:fs with faults: each hook may fail a call with an errno code, or shorten a write. */
function faultyFs(plan: FaultPlan): FsLayer & { counts: Record<string, number> } {
  const paths = new Map<number, string>();
  const counts: Record<string, number> = { write: 0, fsync: 0 };
  const fail = (fault: Fault | undefined, op: string) => {
    if (fault && typeof fault === "object" && "code" in fault) throw errnoError(fault.code, op);
  };
  return {
    ...nodeFs,
    counts,
    async open(path, flags) {
      fail(plan.open?.(path), "open");
      const fd = await nodeFs.open(path, flags);
      paths.set(fd, path);
      return fd;
    },
    async write(fd, buffer, offset, length, position) {
      counts.write!++;
      const fault = plan.write?.(paths.get(fd)!, length);
      fail(fault, "write");
      if (fault === "zero") return 0;
      if (fault && "shortBy" in fault) length = Math.max(1, length - fault.shortBy);
      if (fault && "maxBytes" in fault) length = Math.min(length, fault.maxBytes);
      return nodeFs.write(fd, buffer, offset, length, position);
    },
    async fsync(fd) {
      counts.fsync!++;
      await plan.beforeFsync?.(paths.get(fd)!);
      fail(plan.fsync?.(paths.get(fd)!), "fsync");
      return nodeFs.fsync(fd);
    },
    async ftruncate(fd, length) {
      fail(plan.ftruncate?.(paths.get(fd)!), "ftruncate");
      return nodeFs.ftruncate(fd, length);
    },
    async close(fd) {
      paths.delete(fd);
      return nodeFs.close(fd);
    },
  };
}

async function rejection(promise: Promise<unknown>): Promise<StorageError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(StorageError);
  return error as StorageError;
}

describe("journal: what is acknowledged is on disk", () => {
  it("a fresh start saves the base state; writes survive a reload; the start folds the journal into the snapshot", async () => {
    const file = newFile();
    const { core, persistence } = await open(file);
    await core.write(put("a", "https://a.example"));
    await core.write([
      { op: "put_listener", listener: { id: "l1", version: "1.0.0" } as Listener },
      { op: "set_clock", clock_offset_ms: 5000, last_created_ms: 42 },
    ]);
    await core.write(put("seeded", "second"));
    await persistence.close();
    expect(existsSync(file)).toBe(false); // everything is in the journal until the next start
    expect(size(journalPath(file))).toBeGreaterThan(0);

    const { state, warnings } = await reload(file);
    expect(state).toEqual(core.state);
    expect(state!.deployments.map((d) => d.deployment.id)).toEqual(["seeded", "a"]);
    expect(warnings).toEqual([]);
    // Folded at start: the snapshot holds it all, the journal is empty.
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual(core.state);
    expect(size(journalPath(file))).toBe(0);
    expect(tempFiles(file)).toEqual([]);
    expect((await reload(file)).state).toEqual(core.state);
  });

  it("a state file written whole by earlier versions (no journal) loads as it is", async () => {
    const file = newFile();
    const old = baseState();
    old.deployments.push(record("old", "https://old.example"));
    writeFileSync(file, JSON.stringify(old));
    const { core, persistence } = await open(file);
    expect(core.state).toEqual(old);
    await persistence.close();
    expect(existsSync(journalPath(file))).toBe(false);
  });

  it("concurrent appends share fsyncs (group commit) and keep their order", async () => {
    const file = newFile();
    let release!: () => void;
    let hold = false;
    const fs = faultyFs({
      // Hold the first journal fsync until all 20 appends are queued behind it.
      beforeFsync: (path) => (hold && path.endsWith(".journal") ? ((hold = false), new Promise((r) => (release = r))) : Promise.resolve()),
    });
    const { core, persistence } = await open(file, { fs });
    hold = true;
    const before = fs.counts.fsync!;
    const answered: string[] = [];
    const writes = Array.from({ length: 20 }, (_, i) => core.write(put(`d${i}`, `https://${i}.example`)).then(() => answered.push(`d${i}`)));
    await new Promise((r) => setTimeout(r, 20));
    expect(answered).toEqual([]);
    release();
    await Promise.all(writes);
    expect(answered).toEqual(Array.from({ length: 20 }, (_, i) => `d${i}`));
    // One fsync for the first append, one for the 19 queued behind it.
    expect(fs.counts.fsync! - before).toBe(2);
    await persistence.close();
    const { state } = await reload(file);
    expect(state!.deployments.map((d) => d.deployment.id)).toEqual(["seeded", ...Array.from({ length: 20 }, (_, i) => `d${i}`)]);
  });

  it("short writes are continued until the whole record is written", async () => {
    const file = newFile();
    const fs = faultyFs({ write: () => ({ maxBytes: 7 }) });
    const { core, persistence } = await open(file, { fs });
    await Promise.all([core.write(put("a", "https://a.example", 300)), core.write(put("b", "https://b.example"))]);
    expect(fs.counts.write).toBeGreaterThan(50);
    await persistence.close();
    expect((await reload(file)).state).toEqual(core.state);
  });

  it("indexed replay gives the same state as a scan", () => {
    const changes: StateChange[] = [
      ...put("a", "1"),
      ...put("b", "2"),
      ...put("a", "3"),
      { op: "replace_state", state: baseState() },
      ...put("c", "4"),
      ...put("seeded", "5"),
      { op: "put_listener", listener: { id: "l" } as Listener },
      { op: "put_listener", listener: { id: "l", version: "2" } as Listener },
    ];
    let scanned = baseState();
    let indexed = baseState();
    const index = indexState(indexed);
    for (const change of structuredClone(changes)) scanned = applyChange(scanned, change);
    for (const change of structuredClone(changes)) indexed = applyChange(indexed, change, index);
    expect(indexed).toEqual(scanned);
    expect(index.deployments).toEqual(
      new Map([
        ["seeded", 0],
        ["c", 1],
      ]),
    );
  });

  it("the snapshot text is JSON.stringify of the state, built in pieces", () => {
    const state = baseState();
    for (let i = 0; i < 3000; i++) state.deployments.push(record(`d${i}`, `https://${i}.example`, 500));
    const pieces = [...snapshotText(state)];
    expect(pieces.length).toBeGreaterThan(1);
    expect(pieces.join("")).toBe(JSON.stringify(state));
  });
});

describe("journal: a write that cannot be saved changes nothing on disk", () => {
  it("ENOSPC part-way through a write: 507, the partial record is cut away, later writes go on", async () => {
    const file = newFile();
    let full = false;
    let calls = 0;
    // The first call writes a few bytes, the next finds the disk full.
    const fs = faultyFs({ write: (path) => (full && path.endsWith(".journal") ? (calls++ === 0 ? { maxBytes: 10 } : { code: "ENOSPC" }) : undefined) });
    const { core, persistence } = await open(file, { fs });
    await core.write(put("kept", "https://kept.example"));
    const onDisk = readFileSync(journalPath(file));
    full = true;
    const error = await rejection(core.write(put("lost", "https://lost.example")));
    expect(error.status).toBe(507);
    expect(error.code).toBe("ENOSPC");
    expect(error.message).toMatch(/disk is full/);
    expect(readFileSync(journalPath(file))).toEqual(onDisk);
    expect(urls(core.state)).not.toHaveProperty("lost");
    full = false;
    await core.write(put("after", "https://after.example"));
    await persistence.close();
    expect(urls((await reload(file)).state)).toEqual({ seeded: "first", kept: "https://kept.example", after: "https://after.example" });
  });

  it("a write that makes no progress is an error, not a loop", async () => {
    const file = newFile();
    let stuck = false;
    const fs = faultyFs({ write: (path) => (stuck && path.endsWith(".journal") ? "zero" : undefined) });
    const { core, persistence } = await open(file, { fs });
    const onDisk = readFileSync(journalPath(file));
    stuck = true;
    expect((await rejection(core.write(put("lost", "x")))).status).toBe(500);
    expect(readFileSync(journalPath(file))).toEqual(onDisk);
    await persistence.close();
  });

  it("EROFS when opening the journal: 500 naming the code; nothing created; works once writable", async () => {
    const file = newFile();
    writeFileSync(file, JSON.stringify(baseState()));
    let readOnly = true;
    const fs = faultyFs({ open: (path) => (readOnly && path.endsWith(".journal") ? { code: "EROFS" } : undefined) });
    const { core, persistence } = await open(file, { fs });
    const error = await rejection(core.write(put("lost", "x")));
    expect(error.status).toBe(500);
    expect(error.code).toBe("EROFS");
    expect(error.message).toContain(journalPath(file));
    expect(existsSync(journalPath(file))).toBe(false);
    readOnly = false;
    await core.write(put("kept", "y"));
    await persistence.close();
    expect(urls((await reload(file)).state)).toEqual({ seeded: "first", kept: "y" });
  });

  it("fsync fails (EIO): 500, and the record that may not be durable is cut away", async () => {
    const file = newFile();
    let failing = false;
    const fs = faultyFs({ fsync: (path) => (failing && path.endsWith(".journal") ? { code: "EIO" } : undefined) });
    const { core, persistence } = await open(file, { fs });
    await core.write(put("kept", "k"));
    const onDisk = readFileSync(journalPath(file));
    failing = true;
    const error = await rejection(core.write(put("lost", "l")));
    expect([error.status, error.code]).toEqual([500, "EIO"]);
    failing = false;
    expect(readFileSync(journalPath(file))).toEqual(onDisk);
    await persistence.close();
    expect(urls((await reload(file)).state)).toEqual({ seeded: "first", kept: "k" });
  });

  it("a failure in the middle of a group commit rejects that whole batch only; earlier and later batches are kept", async () => {
    const file = newFile();
    let release!: () => void;
    let hold = false;
    let failNextWrite = false;
    const fs = faultyFs({
      beforeFsync: (path) => (hold && path.endsWith(".journal") ? ((hold = false), new Promise((r) => (release = r))) : Promise.resolve()),
      write: (path) => (failNextWrite && path.endsWith(".journal") ? ((failNextWrite = false), { code: "EIO" }) : undefined),
    });
    const { core, persistence } = await open(file, { fs });
    hold = true;
    const first = core.write(put("first", "1"));
    await new Promise((r) => setTimeout(r, 10)); // the first batch is now waiting in fsync
    const batch = ["b1", "b2", "b3"].map((id) => core.write(put(id, id)));
    failNextWrite = true;
    release();
    await first;
    for (const write of batch) expect((await rejection(write)).code).toBe("EIO");
    await core.write(put("later", "l"));
    await persistence.close();
    expect(urls((await reload(file)).state)).toEqual({ seeded: "first", first: "1", later: "l" });
  });

  it("when the failed write cannot be cut away either, every later write is refused", async () => {
    const file = newFile();
    let failing = false;
    const fs = faultyFs({
      fsync: (path) => (failing && path.endsWith(".journal") ? { code: "EIO" } : undefined),
      ftruncate: (path) => (failing && path.endsWith(".journal") ? { code: "EIO" } : undefined),
    });
    const { core, persistence, warnings } = await open(file, { fs });
    failing = true;
    await rejection(core.write(put("lost", "l")));
    failing = false;
    const refused = await rejection(core.write(put("refused", "r")));
    expect(refused.status).toBe(500);
    expect(refused.message).toMatch(/could not be cut back.*refused from now on.*restart/);
    expect(warnings.join("\n")).toMatch(/refused from now on/);
    await persistence.close();
  });

  it("a change that cannot be written as JSON is refused before anything is written", async () => {
    const file = newFile();
    const { core, persistence } = await open(file);
    const onDisk = readFileSync(journalPath(file));
    let deep: any = {};
    const root = deep;
    for (let i = 0; i < 100_000; i++) deep = deep.next = {};
    const bad = record("deep", "d");
    (bad.deployment as any).extra = root;
    expect((await rejection(core.write([{ op: "put_deployment", record: bad }]))).status).toBe(500);
    expect(readFileSync(journalPath(file))).toEqual(onDisk);
    await core.write(put("fine", "f"));
    await persistence.close();
    expect(urls((await reload(file)).state)).toEqual({ seeded: "first", fine: "f" });
  });
  it("a number JSON cannot hold (Infinity, NaN) is refused rather than saved as null", async () => {
    const file = newFile();
    const { core, persistence } = await open(file);
    const onDisk = readFileSync(journalPath(file));
    const error = await rejection(core.write([{ op: "set_clock", clock_offset_ms: Number.POSITIVE_INFINITY, last_created_ms: 1 }]));
    expect(error.status).toBe(500);
    expect(error.message).toMatch(/"clock_offset_ms" is Infinity, which JSON cannot hold/);
    expect(readFileSync(journalPath(file))).toEqual(onDisk);
    await persistence.close();
    expect((await reload(file)).state).toEqual(core.state);
  });
});

describe("journal: damage found at start", () => {
  /** A state file and a journal of three writes, closed without a start in between. */
  async function threeWrites(): Promise<{ file: string }> {
    const file = newFile();
    writeFileSync(file, JSON.stringify(baseState()));
    const { core, persistence } = await open(file);
    for (const id of ["one", "two", "three"]) await core.write(put(id, id));
    await persistence.close();
    return { file };
  }

  it("a torn last record (cut short by a crash) is ignored with a warning and cut away", async () => {
    const { file } = await threeWrites();
    const journal = journalPath(file);
    const whole = readFileSync(journal);
    writeFileSync(journal, whole.subarray(0, whole.length - 5));
    const { state, warnings } = await reload(file);
    expect(urls(state)).toEqual({ seeded: "first", one: "one", two: "two" });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(journal);
    expect(warnings[0]).toMatch(/cut short.*ignored/);
    // The start folded the good records into the snapshot and emptied the journal.
    expect(size(journal)).toBe(0);
    expect(urls((await reload(file)).state)).toEqual({ seeded: "first", one: "one", two: "two" });
  });

  it("a last record that fails its checksum is torn too; appends after it land cleanly", async () => {
    const { file } = await threeWrites();
    const journal = journalPath(file);
    const bytes = readFileSync(journal);
    flipBit(bytes, bytes.length - 3); // inside the last record's JSON
    writeFileSync(journal, bytes);
    // A read-only snapshot directory would stop the fold; make the fold fail so the torn tail stays on disk.
    let foldFails = true;
    const fs = faultyFs({ open: (path) => (foldFails && path.endsWith(".tmp") ? { code: "EROFS" } : undefined) });
    const { core, persistence, warnings } = await open(file, { fs });
    expect(warnings.join("\n")).toMatch(/checksum does not match/);
    expect(warnings.join("\n")).toMatch(/could not fold/);
    expect(size(journal)).toBe(bytes.length); // nothing changed yet
    foldFails = false;
    await core.write(put("four", "four"));
    await persistence.close();
    const { state, warnings: again } = await reload(file);
    expect(again).toEqual([]);
    expect(urls(state)).toEqual({ seeded: "first", one: "one", two: "two", four: "four" });
  });

  it("a zero-filled tail (what a power cut can leave after the file grew) is a torn record too", async () => {
    const { file } = await threeWrites();
    const journal = journalPath(file);
    writeFileSync(journal, Buffer.concat([readFileSync(journal), Buffer.alloc(4096)]));
    const { state, warnings } = await reload(file);
    expect(urls(state)).toEqual({ seeded: "first", one: "one", two: "two", three: "three" });
    expect(warnings.join("\n")).toMatch(/ends before its newline.*ignored/);
  });

  it("a journal without its snapshot that does not start from a whole state stops the start", async () => {
    const file = newFile();
    const journalBytes = encodeRecord(put("a", "a"));
    writeFileSync(journalPath(file), journalBytes);
    await expect(createStateFilePersistence(file).load()).rejects.toThrow(/holds changes but there is no state file .* to apply them to/);
    expect(readFileSync(journalPath(file))).toEqual(journalBytes);
  });

  it("a damaged record that is not the last stops the start, names the file, and touches nothing", async () => {
    const { file } = await threeWrites();
    const journal = journalPath(file);
    const bytes = readFileSync(journal);
    const firstEnd = bytes.indexOf(0x0a);
    flipBit(bytes, firstEnd - 2);
    writeFileSync(journal, bytes);
    const snapshot = readFileSync(file);
    const error = await createStateFilePersistence(file, { warn: () => {} })
      .load()
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(StateFileError);
    expect((error as Error).message).toContain(journal);
    expect((error as Error).message).toMatch(/byte 0 is damaged \(its checksum does not match\) and is not the last one.*left untouched/);
    expect(readFileSync(journal)).toEqual(bytes);
    expect(readFileSync(file)).toEqual(snapshot);
  });

  it("a record with an intact checksum but changes this program never writes stops the start", async () => {
    const file = newFile();
    writeFileSync(file, JSON.stringify(baseState()));
    const bogus = encodeRecord([{ op: "drop_everything" } as unknown as StateChange]);
    writeFileSync(journalPath(file), Buffer.concat([encodeRecord(put("a", "a")), bogus]));
    await expect(createStateFilePersistence(file).load()).rejects.toThrow(/record at byte \d+ holds a change the simulator does not know/);
  });

  for (const [label, content] of [
    ["not JSON", '{"format": "dms-simulator-state", "deployments": [tru'],
    ["JSON of another shape", '{"hello": "world"}'],
  ]) {
    it(`a snapshot holding ${label} stops the start naming the file; both files untouched`, async () => {
      const file = newFile();
      writeFileSync(file, content!);
      const journalBytes = encodeRecord(put("a", "a"));
      writeFileSync(journalPath(file), journalBytes);
      const error = await createStateFilePersistence(file)
        .load()
        .then(
          () => undefined,
          (e: unknown) => e,
        );
      expect(error).toBeInstanceOf(StateFileError);
      expect((error as Error).message).toContain(`state file ${file} cannot be used`);
      expect(readFileSync(file, "utf8")).toBe(content);
      expect(readFileSync(journalPath(file))).toEqual(journalBytes);
    });
  }

  it("stale temporary files of this state file are removed at start, others are left", async () => {
    const file = newFile();
    const dir = join(file, "..");
    writeFileSync(join(dir, ".state.json.123.1.tmp"), "half a snapshot");
    writeFileSync(join(dir, ".state.json.456.tmp"), "an older temp");
    writeFileSync(join(dir, ".other.json.1.tmp"), "not ours");
    await reload(file);
    expect(tempFiles(file)).toEqual([".other.json.1.tmp"]);
  });
});

describe("journal: compaction", () => {
  it("folds the journal into the snapshot past compactBytes, keeps every write, also those queued meanwhile, and leaves no temp file", async () => {
    const file = newFile();
    let snapshots = 0;
    const fs = faultyFs({});
    const counting: FsLayer = { ...fs, rename: async (from, to) => (snapshots++, fs.rename(from, to)) };
    const { core, persistence, warnings } = await open(file, { fs: counting, compactBytes: 4000 });
    // Waves of five: the next wave is queued while the fold after the previous one is running.
    for (let wave = 0; wave < 24; wave++) {
      await Promise.all(Array.from({ length: 5 }, (_, k) => wave * 5 + k).map((i) => core.write(put(`d${i % 40}`, `https://${i}.example`, 100))));
    }
    await persistence.close();
    expect(warnings).toEqual([]);
    expect(snapshots).toBeGreaterThan(3);
    expect(size(journalPath(file))).toBeLessThan(4000 + 2000);
    expect(tempFiles(file)).toEqual([]);
    const { state } = await reload(file);
    expect(state).toEqual(core.state);
    expect(urls(state).d39).toBe("https://119.example");
  });

  it("a compaction that fails (ENOSPC on the temp file) loses nothing and leaves no temp file", async () => {
    const file = newFile();
    const fs = faultyFs({ write: (path) => (path.endsWith(".tmp") ? { code: "ENOSPC" } : undefined) });
    const { core, persistence, warnings } = await open(file, { fs, compactBytes: 1000 });
    for (let i = 0; i < 10; i++) await core.write(put(`d${i}`, `u${i}`, 200));
    await persistence.close();
    expect(warnings.join("\n")).toMatch(/could not fold the journal.*nothing is lost/);
    expect(tempFiles(file)).toEqual([]);
    expect((await reload(file)).state).toEqual(core.state);
  });
});

describe("journal: the edges of the interface", () => {
  it("an append with no changes writes nothing and still loads", async () => {
    const file = newFile();
    const { core, persistence } = await open(file);
    const onDisk = readFileSync(journalPath(file));
    await core.write([]);
    expect(readFileSync(journalPath(file))).toEqual(onDisk);
    await persistence.close();
    expect((await reload(file)).state).toEqual(core.state);
  });

  it("an append before load() is refused, so it cannot write over a journal not read yet", async () => {
    const file = newFile();
    const persistence = createStateFilePersistence(file);
    expect((await rejection(persistence.append(put("a", "a")))).message).toMatch(/not loaded yet/);
    expect(existsSync(journalPath(file))).toBe(false);
  });

  it("a state getter that throws during a fold is reported, and writes go on", async () => {
    const file = newFile();
    const warnings: string[] = [];
    const persistence = createStateFilePersistence(file, { compactBytes: 500, warn: (line) => warnings.push(line) });
    await persistence.load();
    persistence.attach(() => {
      throw new Error("no state here");
    });
    for (let i = 0; i < 5; i++) await persistence.append(put(`d${i}`, "u", 300));
    await persistence.close();
    expect(warnings.join("\n")).toMatch(/could not fold the journal into the snapshot \(no state here\)/);
  });

  it("compactBytes must be a positive number", () => {
    expect(() => createStateFilePersistence(newFile(), { compactBytes: Number.NaN })).toThrow(/compactBytes must be a number > 0/);
  });
});

describe("journal on a real full disk (a 64 KiB tmpfs)", () => {
  const mountPoint = join(work, "tiny");
  let mounted = false;
  let why = "";
  beforeAll(() => {
    try {
      mkdirSync(mountPoint);
      execFileSync("mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", mountPoint], { stdio: "pipe" });
      mounted = true;
    } catch (error) {
      why = (error as Error).message.split("\n")[0]!;
    }
  });
  afterAll(() => {
    if (mounted) execFileSync("umount", [mountPoint]);
  });

  it("fills the disk until ENOSPC answers 507; the file then loads with every acknowledged write", async (context) => {
    if (!mounted) {
      console.warn(`Skipping the tmpfs test: cannot mount a tmpfs here (${why}).`);
      return context.skip();
    }
    const file = join(mountPoint, "state.json");
    const { core, persistence } = await open(file);
    const acknowledged: string[] = [];
    let error: StorageError | undefined;
    for (let i = 0; i < 200 && !error; i++) {
      await core.write(put(`d${i}`, `https://${i}.example`, 900)).then(
        () => acknowledged.push(`d${i}`),
        (e: StorageError) => (error = e),
      );
    }
    expect(error).toBeInstanceOf(StorageError);
    expect(error?.status).toBe(507);
    expect(acknowledged.length).toBeGreaterThan(10);
    await persistence.close();
    const { state } = await reload(file);
    expect(state).toEqual(core.state);
    expect(state?.deployments.map((d) => d.deployment.id)).toEqual(["seeded", ...acknowledged]);
    expect(readdirSync(mountPoint).filter((name) => name.endsWith(".tmp"))).toEqual([]);
  });
});
