// The simulator's entry point in Node ("deployment-management-api/simulator"): the in-process core
// (createSimulator) and the same core on a port (startSimulator). Browser bundlers get the core
// entry instead (src/simulator/core/index.ts, through the package's "browser" export condition).
// The state file's module is re-exported through declared types only, so the entry's declarations
// name nothing from @types/node and type-check in a project without it.
import type { Persistence } from "../core/changes.js";
import { createSqlitePersistence as sqlitePersistence, StateFileError as StateFileErrorClass } from "./sqlite/index.js";

export * from "../core/index.js";
export { startSimulator, type RunningSimulator, type SimulatorOptions } from "./start.js";

/**
 * The persistence of `startSimulator({ stateFile })`, for `createSimulator({ persistence })` in Node:
 * the state in a SQLite database (node:sqlite, Node 22.13 or later). `importFrom` names a 1.0 state
 * file to import into `file`, which must not exist yet.
 */
export function createStateFilePersistence(file: string, options: { importFrom?: string } = {}): Persistence {
  return sqlitePersistence(file, options);
}

/** Thrown at start when the state file cannot be used; the message names the file, which is left untouched. */
export const StateFileError: new (file: string, reason: string) => Error & { readonly file: string } = StateFileErrorClass;
export type StateFileError = InstanceType<typeof StateFileError>;
