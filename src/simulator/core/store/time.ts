// The simulated clock as the store sees it (the clock itself: ../clock.ts): the time now, never
// behind the newest created_at; the next created_at; and the steps of the revisions that are due.
import { boundedTime } from "../clock.js";
import { isInProgress, stepRevision } from "../lifecycle.js";
import { type Live, markStepped, touch } from "./live.js";

/**
 * The simulated time: the clock plus the offset, bounded, and never behind the newest created_at.
 * A clock that reads earlier (a clock set before the seed, fake timers moved back) raises the
 * offset instead, so time goes on from there and nothing stalls.
 */
export function simulatedNow(live: Live, clock: () => number): number {
  const t = boundedTime(clock(), live.state.clock_offset_ms);
  if (!(t < live.createdHighWater)) return t;
  live.state.clock_offset_ms += live.createdHighWater - t;
  return live.createdHighWater;
}

/** The next created_at: strictly after every one handed out, and not before `now`. */
export function nextCreatedMs(live: Live, now: number): number {
  live.createdHighWater = Math.max(now, live.createdHighWater + 1);
  return live.createdHighWater;
}

/** Moves every revision that is due (in place: the clock's steps are not saved, they follow from the clock). */
export function stepDueRevisions(live: Live, clock: () => number): void {
  const t = simulatedNow(live, clock);
  if (t < live.nextDueMs) return;
  let nextDue = Infinity;
  for (const [record, owner] of live.moving) {
    if (stepRevision(owner, record, t, live.stepMs)) {
      touch(live, owner);
      markStepped(live, owner.deployment.id, record.revision.id);
      if (!isInProgress(record.revision.status)) {
        live.moving.delete(record);
        continue;
      }
    }
    nextDue = Math.min(nextDue, record.step_at_ms + live.stepMs);
  }
  live.nextDueMs = nextDue;
}
