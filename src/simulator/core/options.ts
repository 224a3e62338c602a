// checkSimulatorOptions: the one check of the options every simulator entry takes (createSimulator,
// startSimulator, the Vite plugin, and the CLI through startSimulator), so a value is refused alike
// wherever it is given, in the words of the entry it was given to. An entry checks only what is its
// own besides (a port, a prefix). The error names the option in a field, so an entry can say it
// its own way (the CLI names the flag) without reading the message. No Node imports.
import { checkTenantHeader } from "../../gate/tenant.js";
import { apiKeyProblem } from "../../shared/header-value.js";
import { ERROR_SHAPES, type ErrorShape } from "../../shared/problems.js";
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

/**
 * What an API key may act on, as the service scopes its keys: `"any"` (the simulator's default: any
 * tenant, all of them when no X-Tenant-Id is sent), `"organization"` (every request must name its
 * workspace in X-Tenant-Id, else 403 as the service answers), or one workspace (`{ tenantId }`:
 * requests act in it, and naming another is 403).
 */
export type KeyScope = "any" | "organization" | { tenantId: string };

/** An accepted X-Api-Key with its scope. */
export interface SimulatorApiKey {
  key: string;
  scope: KeyScope;
}

/** The options the simulator itself takes, whichever entry they are given to. */
export interface SimulatorOptionValues {
  stepSeconds?: number | undefined;
  seedDeployments?: number | undefined;
  apiKeys?: readonly (string | SimulatorApiKey)[] | undefined;
  /** The scope of every key given as a string (and of any key when `apiKeys` is not given); default "any". */
  keyScope?: KeyScope | undefined;
  /** "problem" (the default): errors as application/problem+json; "service": in the service's own FastAPI shapes. */
  errors?: ErrorShape | undefined;
  now?: (() => number) | undefined;
  latency?: SimulatorLatency | undefined;
  faults?: readonly SimulatorFault[] | undefined;
}

/** The options as the core uses them: defaults applied, latency and faults in the control API's form. */
export interface CheckedSimulatorOptions {
  /** Accepted keys and their scopes; undefined accepts any non-empty key, with `keyScope`. */
  apiKeys: readonly SimulatorApiKey[] | undefined;
  keyScope: KeyScope;
  errors: ErrorShape;
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
  const keyScope = options.keyScope === undefined ? "any" : checkScope(options.keyScope, "keyScope", refuse);
  const apiKeys = options.apiKeys;
  if (apiKeys !== undefined && !Array.isArray(apiKeys)) throw refuse("apiKeys", "must be an array of non-empty strings or { key, scope } objects.");
  const checkedKeys = apiKeys?.map((given, i): SimulatorApiKey => {
    const isObject = typeof given === "object" && given !== null;
    const key = isObject ? (given as SimulatorApiKey).key : given;
    // A key no client can send as X-Api-Key (a line break, a character above U+00FF) would never match.
    const problem = apiKeyProblem(key);
    if (problem) throw refuse(isObject ? `apiKeys[${i}].key` : `apiKeys[${i}]`, `${problem}.`, i);
    return { key, scope: isObject ? checkScope((given as SimulatorApiKey).scope, `apiKeys[${i}].scope`, refuse, i) : keyScope };
  });
  const errors = options.errors ?? "problem";
  if (!ERROR_SHAPES.includes(errors)) throw refuse("errors", `must be ${ERROR_SHAPES.map((e) => `"${e}"`).join(" or ")}, not ${JSON.stringify(errors)}.`);
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
  return { apiKeys: checkedKeys, keyScope, errors, stepSeconds, seedDeployments, latency, faults: checkedFaults };
}

/** A key scope: "any", "organization" or { tenantId: a UUID }. */
function checkScope(scope: unknown, option: string, refuse: (option: string, reason: string, index?: number) => Error, index?: number): KeyScope {
  if (scope === "any" || scope === "organization") return scope;
  if (typeof scope === "object" && scope !== null && typeof (scope as { tenantId?: unknown }).tenantId === "string") {
    const tenantId = (scope as { tenantId: string }).tenantId;
    if (!checkTenantHeader(tenantId)) return { tenantId: tenantId.toLowerCase() };
  }
  throw refuse(option, `must be "any", "organization" or { tenantId: a workspace id (a UUID) }, not ${JSON.stringify(scope) ?? String(scope)}.`, index);
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
