// The simulated clock's rules, in one place: simulated time is the clock plus the offset that
// POST /_simulator/advance added; it stays within the dates the document can write (RFC 3339
// date-times end at year 9999), and it never runs behind the newest time the data carries, so a
// clock earlier than the seed (`now: () => 0`, fake timers set in the past) still moves revisions
// instead of stamping them in the future where they never step. No Node imports.

/** The latest simulated time: one year before RFC 3339's last date, room for real time and steps to go on. */
export const LATEST_SIMULATED_MS = Date.parse("9999-01-01T00:00:00.000Z");
export const LATEST_SIMULATED_TIME = new Date(LATEST_SIMULATED_MS).toISOString();

/** The clock plus the offset, kept within 1970-01-01 and LATEST_SIMULATED_MS (a clock that answers NaN reads as 1970). */
export function boundedTime(clockMs: number, offsetMs: number): number {
  const t = clockMs + offsetMs;
  if (!Number.isFinite(t)) return t > 0 ? LATEST_SIMULATED_MS : 0;
  return Math.min(Math.max(t, 0), LATEST_SIMULATED_MS);
}

/** An ISO date-time that is always valid: the time is bounded first. */
export function isoTime(ms: number): string {
  return new Date(boundedTime(ms, 0)).toISOString();
}
