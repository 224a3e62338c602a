// The control API (/_simulator/...), outside the document: the simulated clock, failures on demand
// (a revision's outcome, and latency and failed requests), and a reset. The same functions back the simulator's methods (advance, failNext, reset).
import { isoTime, LATEST_SIMULATED_MS, LATEST_SIMULATED_TIME } from "./clock.js";
import { type Faults, type FaultsStatus, MAX_PENDING_FAULTS } from "./faults.js";
import { FAILURE_STATUSES, isFailureStatus } from "./lifecycle.js";
import type { State } from "./model.js";
import { ok, problem, type Reply } from "./reply.js";
import type { Store } from "./store.js";
import type { FieldError } from "./validate.js";
import { EVERYTHING, type Writer } from "./writer.js";

/** The most POST /_simulator/advance moves the clock at once: ten years. */
export const MAX_ADVANCE_SECONDS = 10 * 365.25 * 86_400;

export interface SimulatorStatus extends FaultsStatus {
  /** The simulated time. */
  now: string;
  step_seconds: number;
  seed_ids: Record<string, unknown>;
}

export type ControlHandler = (body: any, path: string) => Reply | Promise<Reply>;

export interface ControlContext {
  store: Store;
  writer: Writer;
  /** A fresh seed state, for reset. */
  seed: () => State;
  stepSeconds: number;
  seedIds: Record<string, unknown>;
  faults: Faults;
  /** Puts the latency and faults back to the simulator's options (on reset). */
  resetFaults: () => void;
}

export function controlHandlers({ store, writer, seed, stepSeconds, seedIds, faults, resetFaults }: ControlContext): Record<string, ControlHandler> {
  const notObject = (body: unknown) => !body || typeof body !== "object" || Array.isArray(body);
  const status = (): SimulatorStatus => ({ now: isoTime(store.now()), step_seconds: stepSeconds, seed_ids: seedIds, ...faults.status() });
  const answerStatus = () => ok(status());
  return {
    "GET ": answerStatus,
    "POST reset": (_body, path) =>
      writer.write(
        EVERYTHING,
        path,
        () => ({ changes: [{ op: "replace_state", state: seed() }], result: undefined }),
        () => {
          resetFaults();
          return answerStatus();
        },
      ),
    "POST latency": (body, path) => {
      const checked = faults.checkLatency(body);
      if ("errors" in checked) return problem("validation", 'Send {"ms": N} or {"min_ms": N, "max_ms": M}; see errors.', path, checked.errors);
      faults.setLatency(checked.latency);
      return answerStatus();
    },
    "POST faults": (body, path) => {
      const checked = faults.checkRule(body);
      if ("errors" in checked) return problem("validation", 'Send {"operation", "count", "fault"}; see errors.', path, checked.errors);
      if (!faults.add(checked.rule)) {
        return problem("validation", `At most ${MAX_PENDING_FAULTS} fault rules can be pending; clear them with POST /_simulator/faults/clear.`, path, [
          { pointer: "", code: "max_items", detail: `at most ${MAX_PENDING_FAULTS} fault rules can be pending` },
        ]);
      }
      return answerStatus();
    },
    "POST faults/clear": () => {
      faults.clear();
      faults.setLatency({ ms: 0 });
      return answerStatus();
    },
    "POST advance": (body, path) => {
      const seconds = notObject(body) ? undefined : body.seconds;
      if (typeof seconds !== "number" || !Number.isFinite(seconds) || seconds < 0 || seconds > MAX_ADVANCE_SECONDS) {
        const error: FieldError = {
          pointer: "/seconds",
          code: typeof seconds !== "number" ? "type" : seconds < 0 ? "minimum" : Number.isFinite(seconds) ? "maximum" : "not_finite",
          detail: `must be a number of seconds from 0 to ${MAX_ADVANCE_SECONDS} (ten years)`,
        };
        return problem("validation", 'Send {"seconds": N} with N from 0 to ten years of seconds.', path, [error]);
      }
      return writer.write(
        "clock",
        path,
        () => {
          // Each advance is bounded, and so is their sum: simulated time stays a valid date.
          const room = Math.max(0, Math.floor((LATEST_SIMULATED_MS - store.now()) / 1000));
          if (seconds > room) {
            return problem("validation", `The simulated clock cannot pass ${LATEST_SIMULATED_TIME}.`, path, [
              { pointer: "/seconds", code: "maximum", detail: `must be at most ${room}: the simulated clock cannot pass ${LATEST_SIMULATED_TIME}` },
            ]);
          }
          return { changes: [store.planAdvance(seconds)], result: undefined };
        },
        answerStatus,
      );
    },
    "POST fail-next": (body, path) => {
      const errors: FieldError[] = [];
      if (notObject(body) || typeof body.deployment_id !== "string" || body.deployment_id === "") {
        errors.push({
          pointer: "/deployment_id",
          code: notObject(body) || body.deployment_id === undefined ? "required" : "type",
          detail: "must be the id of a deployment",
        });
      }
      if (notObject(body) || !isFailureStatus(body.status)) {
        errors.push({
          pointer: "/status",
          code: notObject(body) || body.status === undefined ? "required" : "enum",
          detail: `must be one of ${FAILURE_STATUSES.join(", ")}`,
        });
      }
      if (errors.length > 0) return problem("validation", 'Send {"deployment_id", "status"}; see errors.', path, errors);
      // A deployment id is a UUID: the same deployment in any case.
      const deploymentId = (body.deployment_id as string).toLowerCase();
      return writer.write(
        deploymentId,
        path,
        () => {
          const record = store.getDeployment(deploymentId, undefined);
          return record ? store.planFailNext(record, body.status) : problem("not-found", `There is no deployment ${body.deployment_id}.`, path);
        },
        () => ok({ deployment_id: deploymentId, status: body.status }),
      );
    },
  };
}
