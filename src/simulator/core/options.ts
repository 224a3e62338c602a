// checkSimulatorOptions: the one check of the options every simulator entry takes (createSimulator,
// startSimulator, the Vite plugin, and the CLI through startSimulator), so a value is refused alike
// wherever it is given, in the words of the entry it was given to. An entry checks only what is its
// own besides (a port, a prefix). The error names the option in a field, so an entry can say it
// its own way (the CLI names the flag) without reading the message. No Node imports.
import { apiKeyProblem } from "../../shared/header-value.js";
import { openApiDocument } from "../../shared/document.js";
import { type FaultKind, type FaultRule, Faults, type Latency, MAX_PENDING_FAULTS } from "./faults.js";
import { describeOperations } from "./validate.js";

/** A latency in milliseconds (0 to 60,000): fixed, or drawn evenly from `minMs` to `maxMs` for each request. */
export type SimulatorLatency = number | { minMs: number; maxMs: number };

/** The next `count` requests of `operation` fail with `fault`. */
export interface SimulatorFault {
  /** An operationId of the document (`getDeployment`), or "*" for every operation; default "*". */
  operation?: string;
  /** How many of the next requests fail (1 to 10,000); default 1. */
  count?: number;
  /** 429 (with Retry-After), 500 or 503 as problem+json, or "drop": the connection is dropped (in-process, fetch rejects with a TypeError, like a network error). */
  fault: FaultKind;
  /** The Retry-After of a 429 or 503, in seconds; default 1. */
  retryAfterSeconds?: number;
}

/** The options the simulator itself takes, whichever entry they are given to. */
export interface SimulatorOptionValues {
  stepSeconds?: number | undefined;
  seedDeployments?: number | undefined;
  apiKeys?: readonly string[] | undefined;
  now?: (() => number) | undefined;
  latency?: SimulatorLatency | undefined;
  faults?: readonly SimulatorFault[] | undefined;
}

/** The options as the core uses them: defaults applied, latency and faults in the control API's form. */
export interface CheckedSimulatorOptions {
  stepSeconds: number | undefined;
  seedDeployments: number | undefined;
  latency: Latency;
  faults: FaultRule[];
}

/** An option the simulator cannot use: `option` names it as given (`latency`, `faults[2]`, `apiKeys[0]`). */
export class SimulatorOptionError extends TypeError {
  override readonly name = "SimulatorOptionError";
  constructor(
    /** The function the option was given to: "createSimulator", "startSimulator", "simulatorPlugin". */
    readonly entry: string,
    readonly option: string,
    /** What is wrong, without the option's name: "must be a finite number >= 0, not -1." */
    readonly reason: string,
    /** For a list option (apiKeys, faults), the item that is wrong. */
    readonly index?: number,
  ) {
    super(`${entry}: ${option} ${reason}`);
  }
}

/** Checks the simulator's options; throws a SimulatorOptionError naming the first one that is wrong. */
export function checkSimulatorOptions(options: SimulatorOptionValues, entry = "createSimulator"): CheckedSimulatorOptions {
  const refuse = (option: string, reason: string, index?: number) => new SimulatorOptionError(entry, option, reason, index);
  const stepSeconds = nonNegative(options.stepSeconds, "stepSeconds", refuse);
  const seedDeployments = nonNegative(options.seedDeployments, "seedDeployments", refuse);
  if (options.now !== undefined && typeof options.now !== "function") throw refuse("now", "must be a function returning milliseconds.");
  const apiKeys = options.apiKeys;
  if (apiKeys !== undefined && !Array.isArray(apiKeys)) throw refuse("apiKeys", "must be an array of non-empty strings.");
  apiKeys?.forEach((key, i) => {
    // A key no client can send as X-Api-Key (a line break, a character above U+00FF) would never match.
    const problem = apiKeyProblem(key);
    if (problem) throw refuse(`apiKeys[${i}]`, `${problem}.`, i);
  });
  // Latency and faults are checked by the control API's own rules, so an option and a control call agree.
  const rules = faultRules();
  const faults = options.faults;
  if (faults !== undefined && (!Array.isArray(faults) || faults.length > MAX_PENDING_FAULTS)) {
    throw refuse("faults", `must be an array of at most ${MAX_PENDING_FAULTS} faults.`);
  }
  let latency: Latency = { ms: 0 };
  if (options.latency !== undefined) {
    const checked = rules.checkLatency(latencyBody(options.latency));
    if ("errors" in checked) throw refuse("latency", `${optionErrors(checked.errors)}.`);
    latency = checked.latency;
  }
  const checkedFaults = (faults ?? []).map((fault, i) => {
    const checked = rules.checkRule(ruleBody(fault));
    if ("errors" in checked) throw refuse(`faults[${i}]`, `${optionErrors(checked.errors)}.`, i);
    return checked.rule;
  });
  return { stepSeconds, seedDeployments, latency, faults: checkedFaults };
}

function nonNegative(value: unknown, option: string, refuse: (option: string, reason: string) => Error): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0) throw refuse(option, `must be a finite number >= 0, not ${String(value)}.`);
  return value;
}

let checker: Faults | undefined;
/** A Faults that only checks (it knows the document's operationIds); made on first use. */
function faultRules(): Faults {
  checker ??= new Faults(new Set(describeOperations(openApiDocument).map((o) => o.operationId)));
  return checker;
}

/** The control API's JSON for a latency option. */
export function latencyBody(latency: SimulatorLatency): unknown {
  if (typeof latency === "object" && latency !== null) return { min_ms: latency.minMs, max_ms: latency.maxMs };
  return { ms: latency };
}

/** The control API's JSON for a fault option. */
export function ruleBody(fault: SimulatorFault): unknown {
  if (typeof fault !== "object" || fault === null) return fault;
  const { retryAfterSeconds, ...rest } = fault;
  return retryAfterSeconds === undefined ? rest : { ...rest, retry_after_seconds: retryAfterSeconds };
}

/** Field errors of a control body as option names: /min_ms -> minMs. */
function optionErrors(errors: { pointer?: string; detail: string }[]): string {
  const name = (pointer = "") => pointer.slice(1).replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
  return errors.map((e) => `${name(e.pointer)} ${e.detail}`.trim()).join("; ");
}
