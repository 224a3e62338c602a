// The simulator's core entry, with nothing from Node: what "deployment-management-api/simulator"
// resolves to in a browser bundle (esbuild, Vite, webpack pick it by the "browser" condition).
export {
  createSimulator,
  SimulatorControlError,
  type CreateSimulatorOptions,
  type Simulator,
  type SimulatorFault,
  type SimulatorLatency,
  type SimulatorStatus,
} from "./simulator.js";
export { SEED_IDS } from "./seed.js";
export { StorageError, type Persistence, type StateChange } from "./changes.js";
export type { State } from "./model.js";
export type { FetchLike } from "./fetch.js";
import type { FetchLike } from "./fetch.js";
/** @deprecated Use `FetchLike`: the old name, kept so that code importing it still compiles. */
export type FetchFunction = FetchLike;
