// Latency and faults on demand: a delay before every answer of the API (fixed, or drawn from a
// range), and the next N requests of an operation (or of every operation) failing with 429 (with
// Retry-After), 500 or 503, or with the connection dropped. They exist so that a frontend's loading
// and error states can be reached without hand-written handlers; a 5xx from the simulator is only
// ever one that was asked for here. Faults live in memory only: they are not part of the saved
// state, and a reset takes them back to the simulator's options. No Node imports.
import { problem, type Reply } from "./reply.js";
import type { FieldError } from "./validate.js";
import { toPointer } from "../../shared/walk.js";

/** The most milliseconds of latency (one minute): a longer delay is a hang, not a slow network. */
const MAX_LATENCY_MS = 60_000;
/** The most requests one fault rule fails. */
const MAX_FAULT_COUNT = 10_000;
/** The most fault rules pending at once. */
export const MAX_PENDING_FAULTS = 100;
/** The longest Retry-After a fault may carry (one day). */
const MAX_RETRY_AFTER_SECONDS = 86_400;

const FAULT_KINDS = [429, 500, 503, "drop"] as const;
/** What a failed request gets: that status as problem+json, or its connection dropped. */
export type FaultKind = (typeof FAULT_KINDS)[number];

/** A latency in milliseconds: fixed, or drawn evenly from `min_ms` to `max_ms` for each request. */
export type Latency = { ms: number } | { min_ms: number; max_ms: number };

/** A fault rule as the control API takes it (POST /_simulator/faults). */
export interface FaultRule {
  /** The operationId whose requests fail, or "*" for every operation; default "*". */
  operation: string;
  /** How many of the next requests fail; default 1. */
  count: number;
  fault: FaultKind;
  /** The Retry-After of a 429 or 503, in seconds; default 1. */
  retry_after_seconds?: number;
}

/** What GET /_simulator shows of the faults. */
export interface FaultsStatus {
  latency: Latency;
  /** The rules still pending, in the order they apply; `count` is what is left. */
  faults: FaultRule[];
}

/** The answer a dropped connection stands for: the transport closes the connection instead of answering. */
const DROPPED: Reply = Object.freeze({ status: 0, drop: true });

export class Faults {
  private latency: Latency = { ms: 0 };
  private pending: FaultRule[] = [];

  constructor(
    private readonly operationIds: ReadonlySet<string>,
    private readonly random: () => number = Math.random,
  ) {}

  status(): FaultsStatus {
    return { latency: { ...this.latency }, faults: this.pending.map((r) => ({ ...r })) };
  }

  /** Checks a latency (control API body or createSimulator option); the errors name its fields. */
  checkLatency(body: unknown): { latency: Latency } | { errors: FieldError[] } {
    const errors: FieldError[] = [];
    if (!isObject(body)) return { errors: [{ pointer: "", code: "type", detail: 'must be {"ms": N} or {"min_ms": N, "max_ms": M}' }] };
    unknownFields(body, ["ms", "min_ms", "max_ms"], errors);
    const ms = (name: string) => {
      const value = body[name];
      if (value === undefined) return undefined;
      if (!isInteger(value, 0, MAX_LATENCY_MS)) {
        errors.push({
          pointer: `/${name}`,
          code: typeof value === "number" ? "maximum" : "type",
          detail: `must be a whole number of milliseconds from 0 to ${MAX_LATENCY_MS}`,
        });
        return undefined;
      }
      return value as number;
    };
    const fixed = ms("ms");
    const min = ms("min_ms");
    const max = ms("max_ms");
    if (errors.length > 0) return { errors };
    if (body.ms !== undefined && (body.min_ms !== undefined || body.max_ms !== undefined)) {
      return { errors: [{ pointer: "/ms", code: "invalid", detail: "give either ms or min_ms and max_ms, not both" }] };
    }
    if (fixed !== undefined) return { latency: { ms: fixed } };
    if (min === undefined || max === undefined) {
      const missing = body.min_ms === undefined && body.max_ms === undefined ? "/ms" : min === undefined ? "/min_ms" : "/max_ms";
      return { errors: [{ pointer: missing, code: "required", detail: "is required: give ms, or both min_ms and max_ms" }] };
    }
    if (min > max) return { errors: [{ pointer: "/max_ms", code: "minimum", detail: `must be at least min_ms (${min})` }] };
    return { latency: { min_ms: min, max_ms: max } };
  }

  /** Checks a fault rule; the errors name its fields. */
  checkRule(body: unknown): { rule: FaultRule } | { errors: FieldError[] } {
    if (!isObject(body)) return { errors: [{ pointer: "", code: "type", detail: 'must be {"operation", "count", "fault"}' }] };
    const errors: FieldError[] = [];
    unknownFields(body, ["operation", "count", "fault", "retry_after_seconds"], errors);
    const operation = body.operation ?? "*";
    if (typeof operation !== "string" || (operation !== "*" && !this.operationIds.has(operation))) {
      errors.push({
        pointer: "/operation",
        code: typeof operation === "string" ? "enum" : "type",
        detail: 'must be an operationId of the document, or "*" for every operation',
      });
    }
    const count = body.count ?? 1;
    if (!isInteger(count, 1, MAX_FAULT_COUNT)) {
      errors.push({ pointer: "/count", code: typeof count === "number" ? "maximum" : "type", detail: `must be a whole number from 1 to ${MAX_FAULT_COUNT}` });
    }
    const fault = body.fault;
    if (!(FAULT_KINDS as readonly unknown[]).includes(fault)) {
      errors.push({ pointer: "/fault", code: fault === undefined ? "required" : "enum", detail: 'must be 429, 500, 503 or "drop"' });
    }
    const retryAfter = body.retry_after_seconds;
    if (retryAfter !== undefined) {
      if (fault !== 429 && fault !== 503) {
        errors.push({ pointer: "/retry_after_seconds", code: "invalid", detail: "is for a 429 or 503 fault only" });
      } else if (!isInteger(retryAfter, 0, MAX_RETRY_AFTER_SECONDS)) {
        errors.push({ pointer: "/retry_after_seconds", code: "type", detail: `must be a whole number of seconds from 0 to ${MAX_RETRY_AFTER_SECONDS}` });
      }
    }
    if (errors.length > 0) return { errors };
    const rule: FaultRule = { operation: operation as string, count: count as number, fault: fault as FaultKind };
    if (fault === 429 || fault === 503) rule.retry_after_seconds = (retryAfter as number | undefined) ?? 1;
    return { rule };
  }

  setLatency(latency: Latency): void {
    this.latency = latency;
  }

  /** Adds a rule after the pending ones; false when MAX_PENDING_FAULTS are pending already. */
  add(rule: FaultRule): boolean {
    if (this.pending.length >= MAX_PENDING_FAULTS) return false;
    this.pending.push({ ...rule });
    return true;
  }

  clear(): void {
    this.pending = [];
  }

  /** Milliseconds to wait before answering this request (0: answer at once). */
  delay(): number {
    const l = this.latency;
    if ("ms" in l) return l.ms;
    return Math.round(l.min_ms + this.random() * (l.max_ms - l.min_ms));
  }

  /** The injected answer of this request of `operationId`, counting it against the first matching rule; undefined when none applies. */
  take(operationId: string, instance: string): Reply | undefined {
    const i = this.pending.findIndex((r) => r.operation === "*" || r.operation === operationId);
    if (i < 0) return undefined;
    const rule = this.pending[i]!;
    rule.count--;
    if (rule.count <= 0) this.pending.splice(i, 1);
    return faultReply(rule, instance);
  }
}

function faultReply(rule: FaultRule, instance: string): Reply {
  const asked = "(a fault asked for with POST /_simulator/faults)";
  switch (rule.fault) {
    case "drop":
      return DROPPED;
    case 500:
      return problem("internal", `The simulator failed this request on purpose ${asked}.`, instance);
    case 429:
    case 503: {
      const seconds = rule.retry_after_seconds ?? 1;
      const kind = rule.fault === 429 ? "rate-limited" : "service-unavailable";
      const reply = problem(kind, `Retry after ${seconds} second${seconds === 1 ? "" : "s"} ${asked}.`, instance);
      return { ...reply, headers: { "retry-after": String(seconds) } };
    }
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isInteger(value: unknown, min: number, max: number): boolean {
  return typeof value === "number" && Number.isInteger(value) && value >= min && value <= max;
}

function unknownFields(body: Record<string, unknown>, known: string[], errors: FieldError[]): void {
  for (const name of Object.keys(body)) {
    if (!known.includes(name)) errors.push({ pointer: toPointer([name]), code: "unknown_field", detail: "is not a field of this request" });
  }
}
