// The simulator's entry point in Node ("deployment-management-api/simulator"): the in-process core
// (createSimulator) and the same core on a port (startSimulator). Browsers get core.ts instead.
export * from "./core.js";
export { startSimulator, type RunningSimulator, type SimulatorOptions } from "./node/start.js";
export { createStateFilePersistence, StateFileError } from "./node/state-file.js";
