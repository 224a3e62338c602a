// Checks of option values, so that a bad option fails at once with a TypeError naming it instead of
// later as an empty header, endless retries (NaN) or a timer that fires at once.

/** setTimeout fires at once for longer delays than this (a 32-bit signed count of milliseconds). */
export const MAX_TIMER_MS = 2 ** 31 - 1;

function shown(value: unknown): string {
  return typeof value === "string" ? JSON.stringify(value) : String(value);
}

function fail(where: string, name: string, rule: string, value: unknown): never {
  throw new TypeError(`${where}: ${name} must be ${rule}, got ${shown(value)}`);
}

export function checkNonEmptyString(where: string, name: string, value: unknown): string {
  if (typeof value !== "string" || value.trim() === "") fail(where, name, "a non-empty string", value);
  return value;
}

export function checkHttpUrl(where: string, name: string, value: unknown): string {
  let url: URL | undefined;
  try {
    url = typeof value === "string" ? new URL(value) : undefined;
  } catch {
    url = undefined;
  }
  if (url?.protocol !== "http:" && url?.protocol !== "https:") fail(where, name, "an absolute http:// or https:// URL", value);
  return value as string;
}

export function checkWholeNumber(where: string, name: string, value: unknown): number {
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0) fail(where, name, "a whole number >= 0", value);
  return value;
}

/** A delay: finite, >= 0 (or > 0 with `positive`), and short enough for setTimeout. */
export function checkDelay(where: string, name: string, value: unknown, positive = false): number {
  const ok = typeof value === "number" && Number.isFinite(value) && (positive ? value > 0 : value >= 0) && value <= MAX_TIMER_MS;
  if (!ok) fail(where, name, `a number of milliseconds ${positive ? "> 0" : ">= 0"} and <= ${MAX_TIMER_MS}`, value);
  return value as number;
}

export function checkFunction(where: string, name: string, value: unknown): void {
  if (typeof value !== "function") fail(where, name, "a function", value);
}
