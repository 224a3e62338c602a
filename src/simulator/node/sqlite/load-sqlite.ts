// node:sqlite, loaded on first use so that the rest of the package runs on a Node without it, and
// without the experimental warning Node 22 prints for it (without hiding any other warning). Both
// threads load it here: the main thread at start (and tests), the worker for its connection.
// Node runs this file in the worker as it is (worker.ts imports it by URL), so it imports nothing
// from its siblings.
import { createRequire } from "node:module";

/** This Node has no node:sqlite (it needs 22.13 or later); only --state needs it. */
export class SqliteUnavailableError extends Error {
  override readonly name = "SqliteUnavailableError";
  constructor() {
    super(`--state needs Node.js 22.13 or later (it keeps the state with node:sqlite); this is Node.js ${process.versions.node}.`);
  }
}

type Sqlite = typeof import("node:sqlite");
let loaded: Sqlite | undefined;

/** node:sqlite, loaded once per thread; SqliteUnavailableError when this Node has none. */
export async function loadSqlite(): Promise<Sqlite> {
  if (loaded) return loaded;
  const emitWarning = process.emitWarning;
  process.emitWarning = (warning: string | Error, ...rest: unknown[]) => {
    const text = typeof warning === "string" ? warning : warning.message;
    if (warningType(warning, rest[0]) === "ExperimentalWarning" && /SQLite/i.test(text)) return;
    Reflect.apply(emitWarning, process, [warning, ...rest]);
  };
  try {
    // By require, not import(): a missing builtin throws here rather than when the module graph links.
    const sqlite: Sqlite = createRequire(import.meta.url)("node:sqlite");
    loaded = sqlite;
    return sqlite;
  } catch {
    throw new SqliteUnavailableError();
  } finally {
    process.emitWarning = emitWarning;
  }
}

/** The type of a warning given to process.emitWarning(warning, type) or (warning, { type }). */
function warningType(warning: string | Error, typeOrOptions: unknown): string | undefined {
  if (typeof typeOrOptions === "string") return typeOrOptions;
  if (typeof typeOrOptions === "object" && typeOrOptions !== null && "type" in typeOrOptions && typeof typeOrOptions.type === "string")
    return typeOrOptions.type;
  return typeof warning === "string" ? undefined : warning.name;
}
