// Reading the command line: util.parseArgs in strict mode, with its errors turned into usage
// errors that name the flag, and the value parsers shared by the commands.
import { parseArgs, type ParseArgsConfig } from "node:util";
import { type FlagTable, type ParseOptions, parseOptions, repeatedOneValueFlag } from "../shared/flag-table.js";
import { isUuid } from "../shared/uuid.js";
import type { CommandSpec } from "./flags.js";
import { terminalSafe } from "./terminal-text.js";

/** A bad command line or configuration: reported with exit code 2, before anything is sent. */
export class UsageError extends Error {
  override readonly name = "UsageError";
}

type Options = NonNullable<ParseArgsConfig["options"]>;
type StrictConfig<O extends Options> = { args: string[]; options: O; strict: true; allowPositionals: true };
export type ParsedCommandLine<O extends Options> = ReturnType<typeof parseArgs<StrictConfig<O>>>;

/**
 * Parses `args` against the command's flags and checks the number of positionals. Positional values
 * are never echoed in messages: a mistyped `--secret NAME VALUE` leaves the value as a positional.
 */
function parseCommandLine<O extends Options>(args: string[], options: O, positionals: string[]): ParsedCommandLine<O> {
  let parsed: ParsedCommandLine<O>;
  let tokens: NonNullable<ReturnType<typeof parseArgs>["tokens"]>;
  try {
    ({ tokens, ...parsed } = parseArgs<StrictConfig<O> & { tokens: true }>({ args, options, strict: true, allowPositionals: true, tokens: true }));
  } catch (error) {
    throw new UsageError(describeParseError(error as Error & { code?: string }));
  }
  // A flag that takes one value, given twice: a deploy must not guess its ref or its key (the shared rule).
  const repeated = repeatedOneValueFlag(tokens, options);
  if (repeated) throw new UsageError(repeated);
  if (parsed.positionals.length !== positionals.length) {
    const expected = positionals.length === 0 ? "no arguments" : positionals.map((p) => `<${p}>`).join(" ");
    throw new UsageError(`expected ${expected}, got ${parsed.positionals.length} argument(s)`);
  }
  return parsed;
}

type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;
/** The flags of every group of a spec, as one table type. */
export type SpecFlags<S extends CommandSpec> = UnionToIntersection<S["groups"][number]["flags"]> & FlagTable;

/** Parses `args` against the spec's flag table and positionals (the table the help shows). */
export function parseCommand<S extends CommandSpec>(args: string[], spec: S): ParsedCommandLine<ParseOptions<SpecFlags<S>>> {
  const table = Object.assign({}, ...spec.groups.map((g) => g.flags)) as SpecFlags<S>;
  return parseCommandLine(
    args,
    parseOptions(table),
    spec.positionals.map((p) => p.name),
  );
}

/**
 * A value of the command line as a message quotes it: control characters escaped, and cut after 80
 * characters (a value pasted by mistake may be a whole file).
 */
export function shownValue(raw: string): string {
  const chars = [...raw];
  return terminalSafe(chars.length > 80 ? `${chars.slice(0, 80).join("")}…` : raw);
}

/**
 * An id argument (deployment-id, revision-id): a UUID, in lower case (the form the service
 * writes), or a usage error naming the argument, before anything is sent.
 */
export function parseUuid(argument: string, raw: string): string {
  if (!isUuid(raw)) {
    throw new UsageError(`<${argument}> "${shownValue(raw)}" is not a UUID (such as 6b0d8a52-3c1e-4f7a-9b2d-1e5f3a7c9d01)`);
  }
  return raw.toLowerCase();
}

function describeParseError(error: Error & { code?: string }): string {
  const flag = /'(-[^' ]*)/.exec(error.message)?.[1];
  switch (error.code) {
    case "ERR_PARSE_ARGS_UNKNOWN_OPTION":
      return `unknown flag ${flag}`;
    case "ERR_PARSE_ARGS_INVALID_OPTION_VALUE":
      return error.message.includes("does not take an argument")
        ? `${flag} takes no value`
        : `${flag} needs a value (to pass one that starts with "-", write ${flag}=VALUE)`;
    default:
      return error.message.split("\n")[0] ?? String(error);
  }
}

const UNITS_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** A duration flag such as `20m`, `5s`, `1.5h`, `250ms`; a bare number is seconds. Must be more than 0. */
export function parseDuration(flag: string, raw: string | undefined, fallbackMs: number): number {
  if (raw === undefined) return fallbackMs;
  const match = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(raw.trim());
  // Whole milliseconds, as timers take them: 0.1ms would be 0, a timer that fires at once.
  const ms = match ? Math.round(Number(match[1]) * UNITS_MS[match[2] ?? "s"]!) : NaN;
  if (!(ms >= 1) || !Number.isFinite(ms) || ms > 2 ** 31 - 1) {
    throw new UsageError(
      `${flag} "${shownValue(raw)}" is not a duration: use a number with ms, s, m or h, from 1ms to 24 days, such as 20m (a bare number is seconds)`,
    );
  }
  return ms;
}

/** A whole number flag of at least 1. */
export function parseCount(flag: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined) return fallback;
  const n = /^\d+$/.test(raw.trim()) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(n) || n < 1) throw new UsageError(`${flag} "${shownValue(raw)}" is not a whole number of at least 1`);
  return n;
}

/** A comma-separated list of values that must each be one of `allowed`, in any case (`ready` is READY). */
export function parseChoices<T extends string>(flag: string, raw: string, allowed: readonly T[], what: string): T[] {
  return raw
    .split(",")
    .map((v) => v.trim())
    .map((value) => {
      const match = allowed.find((choice) => choice.toLowerCase() === value.toLowerCase());
      if (match === undefined) throw new UsageError(`${flag} "${shownValue(value)}" is not ${what}: use ${allowed.join(", ")}`);
      return match;
    });
}

/** A string flag that, when given, must not be empty. */
export function nonEmpty(flag: string, raw: string | undefined): string | undefined {
  if (raw !== undefined && raw.trim() === "") throw new UsageError(`${flag} is empty`);
  return raw;
}
