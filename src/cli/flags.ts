// What a dms command is as data (its arguments, flag groups, example, exit codes) and its help text,
// built from the same flag tables the parser reads (src/shared/flag-table.ts). Data and pure
// functions only: `dms --help` loads this module.
import { type FlagTable, flagLines, flagSyntax } from "../shared/flag-table.js";

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

/** Every flag of a command, its groups merged. */
export function commandFlags(spec: CommandSpec): FlagTable {
  return Object.assign({}, ...spec.groups.map((g) => g.flags)) as FlagTable;
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
