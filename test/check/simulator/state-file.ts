// What the state-file suites share: a file's digest (to prove a refused file was left byte for byte)
// and the StateFileError a start on a refused file ends in.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { expect } from "vitest";
import { type SimulatorOptions, StateFileError, startSimulator } from "../../../src/simulator/node/index.js";

export const digest = (file: string): string => createHash("sha256").update(readFileSync(file)).digest("hex");

/** Starts a simulator with these options (a small seed unless they say otherwise) and returns the StateFileError it is refused with. */
export async function refusal(options: SimulatorOptions, seedDeployments = 2): Promise<StateFileError> {
  const error = await startSimulator({ port: 0, quiet: true, seedDeployments, ...options }).then(
    async (running) => {
      await running.close();
      return undefined;
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(StateFileError);
  return error as StateFileError;
}
