// Starts the Prism mock in-process on a random port for a test, on generated/openapi.json.
// `front: true` puts the mock's problem+json front (scripts/mock-front.mjs) in front of it, which is
// exactly what `npm start` serves.
import { startPrismServer } from "../../scripts/prism-server.mjs";
import { startMock } from "../../scripts/mock-front.mjs";

export interface RunningPrism {
  baseUrl: string;
  close(): Promise<void>;
}

export async function startPrism(options: { front?: boolean } = {}): Promise<RunningPrism> {
  if (options.front) return startMock({ port: 0, host: "127.0.0.1" });
  return startPrismServer({ port: 0, host: "127.0.0.1" });
}
