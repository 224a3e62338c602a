// A local server's port, read from a flag, an environment variable or an option: a whole number
// from 0 (a free one) to 65535, refused by the name it came from. Left to node:net, a bad one is
// "options.port should be >= 0 and < 65536. Received type number (NaN)", which names neither.
// No Node imports and no other import (the docs server's tool loads it as it is).

/** The rule, said once for every place a port is given. */
const RULE = "a port number from 0 to 65535 (0 picks a free one)";

/** Whether a value is a port a server can listen on. */
export function isPort(value: unknown): value is number {
  return typeof value === "number" && Number.isInteger(value) && value >= 0 && value <= 65535;
}

/** A port written as text (`--port 4011`, `PORT=4011`); a RangeError naming `name` otherwise. */
export function parsePort(name: string, raw: string): number {
  const text = raw.trim();
  if (!/^\d{1,5}$/.test(text) || !isPort(Number(text))) throw new RangeError(`${name} takes ${RULE}, not ${JSON.stringify(raw)}`);
  return Number(text);
}

/** A port given as an option of `where` (startSimulator, startMock); a TypeError naming it otherwise. */
export function checkPortOption(where: string, value: unknown): void {
  if (value !== undefined && !isPort(value))
    throw new TypeError(`${where}: port must be ${RULE}, got ${typeof value === "string" ? JSON.stringify(value) : String(value)}`);
}
