// A command line's flags as one table (name, type, placeholder, description, default, environment
// variable) that its parser (util.parseArgs), its help and docs/cli.md all read, so the three cannot
// drift apart: the tables of `dms` (src/cli/specs.ts) and of `dms-simulator`
// (src/simulator/node/flags.ts). Data and pure functions only: a command's `--help` loads this module.

export interface Flag {
  readonly type: "string" | "boolean";
  /** Repeatable: the values arrive as an array. */
  readonly multiple?: true;
  /** The value's name in the help, such as REF or DURATION (string flags only). */
  readonly placeholder?: string;
  readonly description: string;
  /** The default as shown to people, such as "15m" (the command applies it). */
  readonly default?: string;
  /** The environment variable read when the flag is not given. */
  readonly env?: string;
}

/** Flags by name, without the leading "--", in the order the help shows them. */
export type FlagTable = Readonly<Record<string, Flag>>;

/** What util.parseArgs takes for a table, typed so that `values` is typed flag by flag. */
export type ParseOptions<T extends FlagTable> = {
  -readonly [K in keyof T]: T[K]["multiple"] extends true ? { type: T[K]["type"]; multiple: true } : { type: T[K]["type"] };
};

export function parseOptions<T extends FlagTable>(table: T): ParseOptions<T> {
  const options: Record<string, { type: "string" | "boolean"; multiple?: true }> = {};
  for (const [name, flag] of Object.entries(table)) options[name] = flag.multiple ? { type: flag.type, multiple: true } : { type: flag.type };
  return options as ParseOptions<T>;
}

/** One token of util.parseArgs's `tokens: true` output, as far as the rule below reads it. */
export interface FlagToken {
  readonly kind: string;
  readonly name?: string;
}

/**
 * The one rule for a flag that takes one value given twice (`--ref a --ref b`, `--port 1 --port 2`):
 * util.parseArgs keeps the last without a word, and which one was meant is a guess, so every command
 * line refuses it. A switch given twice means what it means once; a repeatable flag collects both.
 * Returns the message naming the flag, or undefined.
 */
export function repeatedOneValueFlag(
  tokens: readonly FlagToken[],
  options: Readonly<Record<string, { readonly type: "string" | "boolean"; readonly multiple?: boolean }>>,
): string | undefined {
  const seen = new Set<string>();
  for (const token of tokens) {
    if (token.kind !== "option" || token.name === undefined) continue;
    const option = Object.hasOwn(options, token.name) ? options[token.name] : undefined;
    if (option?.type !== "string" || option.multiple) continue;
    if (seen.has(token.name)) return `--${token.name} is given more than once: it takes one value`;
    seen.add(token.name);
  }
  return undefined;
}

/** "--ref REF", "--json", "--secret NAME=VALUE". */
export function flagSyntax(name: string, flag: Flag): string {
  return flag.type === "string" ? `--${name} ${flag.placeholder ?? "VALUE"}` : `--${name}`;
}

/** The description with its default, repeatability and environment variable. */
function flagDetails(flag: Flag): string {
  const extras = [
    flag.default !== undefined ? `default ${flag.default}` : undefined,
    flag.multiple ? "repeatable" : undefined,
    flag.env !== undefined ? `env ${flag.env}` : undefined,
  ].filter(Boolean);
  return extras.length === 0 ? flag.description : `${flag.description} (${extras.join("; ")})`;
}

/** The help's lines for some flags, their descriptions in one column. */
export function flagLines(table: FlagTable, width = 30): string[] {
  return Object.entries(table).map(([name, flag]) => {
    const syntax = flagSyntax(name, flag);
    return `  ${syntax.padEnd(width - 2)}${syntax.length >= width - 2 ? "  " : ""}${flagDetails(flag)}`;
  });
}

/** The one-line synopsis of some flags: "[--port N] [--allowed-host NAME]... [--quiet]". */
export function flagsSynopsis(table: FlagTable): string {
  return Object.entries(table)
    .map(([name, flag]) => `[${flagSyntax(name, flag)}]${flag.multiple ? "..." : ""}`)
    .join(" ");
}

/** A markdown table of some flags, for docs/cli.md (kept in step by a test). */
export function flagsMarkdown(table: FlagTable): string {
  const cell = (text: string) => text.replace(/\|/g, "\\|");
  const rows = Object.entries(table).map(
    ([name, flag]) =>
      `| \`${cell(flagSyntax(name, flag))}\` | ${flag.type}${flag.multiple ? ", repeatable" : ""} | ${cell(flag.description)} | ${flag.default ?? ""} | ${flag.env ?? ""} |`,
  );
  return ["| Flag | Type | Description | Default | Environment |", "|---|---|---|---|---|", ...rows].join("\n");
}
