// The one statement of each command's flags: a table (name, type, placeholder, description,
// default, environment variable) that the parser (util.parseArgs), `--help` and docs/cli.md all
// read. Data and pure functions only: `dms --help` loads this module.

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

export interface FlagGroup {
  /** A heading in the help, such as "Waiting:"; none for the command's main flags. */
  readonly title?: string;
  readonly flags: FlagTable;
}

export interface Positional {
  readonly name: string;
  readonly description: string;
}

export interface CommandSpec {
  readonly name: string;
  /** One line, for `dms --help`. */
  readonly summary: string;
  readonly positionals: readonly Positional[];
  /** Paragraphs between the usage line and the flags. */
  readonly description: string;
  readonly groups: readonly FlagGroup[];
  /** Lines after the flags. */
  readonly notes?: string;
  /** Command lines for the help's example, each a shell line. */
  readonly example: readonly string[];
  readonly exitCodes: readonly (readonly [code: number, meaning: string])[];
}

/** What util.parseArgs takes for a table, typed so that `values` is typed flag by flag. */
export type ParseOptions<T extends FlagTable> = {
  -readonly [K in keyof T]: T[K]["multiple"] extends true ? { type: T[K]["type"]; multiple: true } : { type: T[K]["type"] };
};

export function parseOptions<T extends FlagTable>(table: T): ParseOptions<T> {
  const options: Record<string, { type: "string" | "boolean"; multiple?: true }> = {};
  for (const [name, flag] of Object.entries(table)) options[name] = flag.multiple ? { type: flag.type, multiple: true } : { type: flag.type };
  return options as ParseOptions<T>;
}

/** Every flag of a command, its groups merged. */
export function commandFlags(spec: CommandSpec): FlagTable {
  return Object.assign({}, ...spec.groups.map((g) => g.flags)) as FlagTable;
}

/** "--ref REF", "--json", "--secret NAME=VALUE". */
export function flagSyntax(name: string, flag: Flag): string {
  return flag.type === "string" ? `--${name} ${flag.placeholder ?? "VALUE"}` : `--${name}`;
}

/** The description with its default, repeatability and environment variable. */
export function flagDetails(flag: Flag): string {
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

/** The help text of a command. */
export function commandHelp(spec: CommandSpec, shared: { footer?: string }): string {
  const usage = ["dms", spec.name, ...spec.positionals.map((p) => `<${p.name}>`), "[flags]"].join(" ");
  const width = Math.max(...spec.groups.flatMap((g) => Object.entries(g.flags).map(([n, f]) => flagSyntax(n, f).length))) + 4;
  const sections = [`Usage: ${usage}`, spec.description];
  const groups = spec.groups.map((group) => [...(group.title ? [group.title] : []), ...flagLines(group.flags, width)].join("\n"));
  sections.push(groups.join("\n"));
  if (spec.notes) sections.push(spec.notes);
  sections.push(`Example:\n${spec.example.map((line) => `  ${line}`).join("\n")}`);
  if (shared.footer) sections.push(shared.footer);
  sections.push(`Exit codes:\n${spec.exitCodes.map(([code, meaning]) => `  ${String(code).padEnd(5)}${meaning}`).join("\n")}`);
  return `${sections.join("\n\n")}\n`;
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
