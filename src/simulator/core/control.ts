// The control API (/_simulator/...), outside the document: the simulated clock, failures on demand
// (a revision's outcome, and latency and failed requests), and a reset. The same functions back the simulator's methods (advance, failNext, reset).
import { isoTime, LATEST_SIMULATED_MS, LATEST_SIMULATED_TIME } from "./clock.js";
import { type Faults, type FaultsStatus, MAX_PENDING_FAULTS } from "./faults.js";
import { FAILURE_STATUSES, isFailureStatus } from "./lifecycle.js";
import type { State } from "./model.js";
import { ok, problem, type Reply } from "./reply.js";
import type { Store } from "./store/index.js";
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

/** The control API: each action's method and path under /_simulator. Routers and the simulator's methods both go by this table. */
export const CONTROL_ROUTES = {
  status: { method: "GET", path: "" },
  reset: { method: "POST", path: "reset" },
  advance: { method: "POST", path: "advance" },
  failNext: { method: "POST", path: "fail-next" },
  latency: { method: "POST", path: "latency" },
  faults: { method: "POST", path: "faults" },
  clearFaults: { method: "POST", path: "faults/clear" },
} as const satisfies Record<string, { method: "GET" | "POST"; path: string }>;

export type ControlActionName = keyof typeof CONTROL_ROUTES;

/** One control action: the parsed JSON body (undefined for a GET) and the request path, to an answer. */
export type ControlAction = (body: unknown, path: string) => Reply | Promise<Reply>;
export type ControlActions = { [K in ControlActionName]: ControlAction };

/** A field of a JSON object body; undefined when the body is not an object. */
function field(body: unknown, name: string): unknown {
  return typeof body === "object" && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>)[name] : undefined;
}

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

export function controlActions({ store, writer, seed, stepSeconds, seedIds, faults, resetFaults }: ControlContext): ControlActions {
  const status = (): SimulatorStatus => ({ now: isoTime(store.now()), step_seconds: stepSeconds, seed_ids: seedIds, ...faults.status() });
  const answerStatus = () => ok(status());
  return {
    status: answerStatus,
    reset: (_body, path) =>
      writer.write(
        EVERYTHING,
        path,
        () => ({ changes: [{ op: "replace_state", state: seed() }], result: undefined }),
        () => {
          resetFaults();
          return answerStatus();
        },
      ),
    latency: (body, path) => {
      const checked = faults.checkLatency(body);
      if ("errors" in checked) return problem("validation", 'Send {"ms": N} or {"min_ms": N, "max_ms": M}; see errors.', path, checked.errors);
      faults.setLatency(checked.latency);
      return answerStatus();
    },
    faults: (body, path) => {
      const checked = faults.checkRule(body);
      if ("errors" in checked) return problem("validation", 'Send {"operation", "count", "fault"}; see errors.', path, checked.errors);
      if (!faults.add(checked.rule)) {
        return problem("validation", `At most ${MAX_PENDING_FAULTS} fault rules can be pending; clear them with POST /_simulator/faults/clear.`, path, [
          { pointer: "", code: "max_items", detail: `at most ${MAX_PENDING_FAULTS} fault rules can be pending` },
        ]);
      }
      return answerStatus();
    },
    clearFaults: () => {
      faults.clear();
      faults.setLatency({ ms: 0 });
      return answerStatus();
    },
    advance: (body, path) => {
      const seconds = field(body, "seconds");
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
    failNext: (body, path) => {
      const errors: FieldError[] = [];
      const givenId = field(body, "deployment_id");
      const status = field(body, "status");
      if (typeof givenId !== "string" || givenId === "") {
        errors.push({ pointer: "/deployment_id", code: givenId === undefined ? "required" : "type", detail: "must be the id of a deployment" });
      }
      if (!isFailureStatus(status)) {
        errors.push({ pointer: "/status", code: status === undefined ? "required" : "enum", detail: `must be one of ${FAILURE_STATUSES.join(", ")}` });
      }
      if (typeof givenId !== "string" || !isFailureStatus(status) || errors.length > 0) {
        return problem("validation", 'Send {"deployment_id", "status"}; see errors.', path, errors);
      }
      // A deployment id is a UUID: the same deployment in any case.
      const deploymentId = givenId.toLowerCase();
      return writer.write(
        deploymentId,
        path,
        () => {
          const record = store.getDeployment(deploymentId, undefined);
          return record ? store.planFailNext(record, status) : problem("not-found", `There is no deployment ${givenId}.`, path);
        },
        () => ok({ deployment_id: deploymentId, status }),
      );
    },
  };
}
