// A tool's arguments: its input schema, built from an operation's parameters and body fields (plus
// a few arguments of the tool's own), and the reading of what an agent sent. Every value bound for
// the service is checked by the validators compiled from the document at build time, the same
// ones the simulator runs, before anything is sent; what is wrong comes back as a list of fields
// and details in the servers' words.
import type { operations } from "../../generated/schema.js";
import { compiledValidator } from "../../generated/validators.js";
import { issuesOf } from "../schemas/standard.js";
import { type JsonSchema, parameterOf, requestBodyOf } from "./json-schema.js";

/** One argument that is wrong: its name (a dotted path inside the body fields) and what is wrong with it. */
export interface ArgumentIssue {
  field: string;
  detail: string;
}

/** Arguments that cannot be sent: the tool answers with an error naming each field, and sends nothing. */
export class ArgumentError extends Error {
  override readonly name = "ArgumentError";
  constructor(readonly issues: readonly ArgumentIssue[]) {
    super(issues.map((i) => `${i.field} ${i.detail}`).join("; "));
  }
}

type OperationId = keyof operations;
/** One section (path or query) of an operation's parameters, as the generated types give it. */
type ParameterSection<O extends OperationId, S extends "path" | "query"> = operations[O]["parameters"] extends { [k in S]?: infer X }
  ? [NonNullable<X>] extends [never]
    ? Record<never, never>
    : NonNullable<X>
  : Record<never, never>;
/** The names of an operation's path and query parameters; any name where the operation is not known. */
type ParameterName<O extends OperationId> = OperationId extends O
  ? string
  : Extract<keyof ParameterSection<O, "path"> | keyof ParameterSection<O, "query">, string>;
/** An operation's JSON body, as the generated types give it (none: an empty object). */
type BodyOf<O extends OperationId> = operations[O] extends { requestBody: { content: { "application/json": infer B } } } ? B : Record<never, never>;

/** An argument of the tool itself (not sent to the service as it is): its schema and its check. */
export interface OwnArgument<T = unknown> {
  schema: JsonSchema;
  required?: boolean;
  /** The detail when the value is wrong, or undefined when it is a T. */
  check(value: unknown): string | undefined;
  /** Never set: it carries the checked value's type to ReadArguments. */
  readonly checked?: T;
}

type OwnArguments = Readonly<Record<string, OwnArgument>>;

export interface ArgumentsSpec<O extends OperationId = OperationId, Own extends OwnArguments = OwnArguments> {
  /** The operation whose parameters (and body fields, with `body`) are arguments. */
  operationId: O;
  /** Names of the operation's parameters taken as arguments. */
  parameters: readonly ParameterName<O>[];
  /** The operation's JSON body fields are arguments too (at the top level, beside the parameters). */
  body?: boolean;
  own?: Own;
}

/** What readArguments hands a tool: checked by the document's validators, so typed by the document's types. */
export interface ReadArguments<O extends OperationId = OperationId, Own extends OwnArguments = OwnArguments> {
  path: ParameterSection<O, "path">;
  query: Partial<ParameterSection<O, "query">>;
  /** The body fields sent, when the spec has a body. */
  body: BodyOf<O>;
  own: { [K in keyof Own]?: Own[K] extends OwnArgument<infer T> ? T : never };
}

/** A tool's arguments, with the types its readArguments answers are read with. */
export function argumentsSpec<O extends OperationId, Own extends OwnArguments = Record<never, never>>(spec: ArgumentsSpec<O, Own>): ArgumentsSpec<O, Own> {
  return spec;
}

/** The tool's input schema: an object of the parameters, the body fields and the tool's own arguments. */
export function inputSchema(spec: ArgumentsSpec): JsonSchema {
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  for (const name of spec.parameters) {
    const parameter = parameterOf(spec.operationId, name);
    properties[name] = parameter.schema;
    if (parameter.required) required.push(name);
  }
  if (spec.body) Object.assign(properties, requestBodyOf(spec.operationId).properties);
  for (const [name, argument] of Object.entries(spec.own ?? {})) {
    properties[name] = argument.schema;
    if (argument.required) required.push(name);
  }
  return { type: "object", properties, ...(required.length > 0 ? { required } : {}), additionalProperties: false };
}

/** A JSON object (not null, not an array): what a tool's arguments and the members read from them must be. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A dotted name for an issue's path: `source_config.resource_spec.cpu`, `secrets[0].name`. */
function dotted(path: readonly unknown[]): string {
  let out = "";
  for (const raw of path) {
    const segment = typeof raw === "object" && raw !== null && "key" in raw ? raw.key : raw;
    out += typeof segment === "number" ? `[${segment}]` : `${out === "" ? "" : "."}${String(segment)}`;
  }
  return out;
}

/** Reads and checks the arguments against the spec, or throws an ArgumentError naming every wrong one. */
export function readArguments<O extends OperationId, Own extends OwnArguments>(
  spec: ArgumentsSpec<O, Own>,
  args: unknown,
  tool: string,
): ReadArguments<O, Own> {
  const issues: ArgumentIssue[] = [];
  const read: Record<"path" | "query" | "body" | "own", Record<string, unknown>> = { path: {}, query: {}, body: {}, own: {} };
  if (args === undefined || args === null) args = {};
  if (!isPlainObject(args)) throw new ArgumentError([{ field: "(arguments)", detail: "must be an object" }]);
  const bodyProperties = spec.body ? requestBodyOf(spec.operationId).properties : undefined;
  const bodyFields = isPlainObject(bodyProperties) ? Object.keys(bodyProperties) : [];
  const parameters: readonly string[] = spec.parameters;
  const known = [...parameters, ...bodyFields, ...Object.keys(spec.own ?? {})];
  for (const [name, value] of Object.entries(args)) {
    if (parameters.includes(name)) {
      const parameter = parameterOf(spec.operationId, name);
      const validate = compiledValidator(`parameter:${spec.operationId}:${parameter.in}:${name}`);
      if (!validate(value)) {
        for (const issue of issuesOf(validate.errors, value)) issues.push({ field: dotted([name, ...(issue.path ?? [])]), detail: issue.message });
      }
      read[parameter.in][name] = value;
    } else if (bodyFields.includes(name)) {
      read.body[name] = value;
    } else if (spec.own && Object.hasOwn(spec.own, name)) {
      const detail = spec.own[name]!.check(value);
      if (detail) issues.push({ field: name, detail });
      read.own[name] = value;
    } else {
      issues.push({ field: name, detail: `is not an argument of ${tool} (its arguments: ${known.join(", ")})` });
    }
  }
  for (const name of parameters) {
    if (parameterOf(spec.operationId, name).required && !Object.hasOwn(args, name)) issues.push({ field: name, detail: "is required" });
  }
  for (const [name, argument] of Object.entries(spec.own ?? {})) {
    if (argument.required && !Object.hasOwn(args, name)) issues.push({ field: name, detail: "is required" });
  }
  if (spec.body && Object.keys(read.body).length > 0) {
    const validate = compiledValidator(`body:${spec.operationId}`);
    if (!validate(read.body)) {
      for (const issue of issuesOf(validate.errors, read.body)) issues.push({ field: dotted(issue.path ?? []) || "(body)", detail: issue.message });
    }
  }
  if (issues.length > 0) throw new ArgumentError(issues);
  // Every value was checked above by the document's own validators (or the argument's check): it is
  // what the generated types say.
  return read as unknown as ReadArguments<O, Own>;
}

/** A boolean argument. */
export function booleanArgument(description: string, defaultValue: boolean): OwnArgument<boolean> {
  return {
    schema: { type: "boolean", default: defaultValue, description },
    check: (value) => (typeof value === "boolean" ? undefined : "must be true or false"),
  };
}

/** A number of seconds between min and max. */
export function secondsArgument(description: string, defaultValue: number, min: number, max: number): OwnArgument<number> {
  return {
    schema: { type: "number", minimum: min, maximum: max, default: defaultValue, description },
    check: (value) =>
      typeof value === "number" && Number.isFinite(value) && value >= min && value <= max ? undefined : `must be a number from ${min} to ${max}`,
  };
}

/** One of a few strings. */
export function choiceArgument<C extends string>(description: string, choices: readonly C[], defaultValue: C): OwnArgument<C> {
  return {
    schema: { type: "string", enum: [...choices], default: defaultValue, description },
    check: (value) => (choices.some((choice) => choice === value) ? undefined : `must be one of ${choices.map((c) => JSON.stringify(c)).join(", ")}`),
  };
}

/** An argument checked as another operation's parameter (rollback's revision_id is getRevision's). */
export function parameterArgument(operationId: string, name: string, options: { required?: boolean; description?: string } = {}): OwnArgument<string> {
  const parameter = parameterOf(operationId, name);
  const validate = compiledValidator(`parameter:${operationId}:${parameter.in}:${name}`);
  return {
    schema: options.description ? { ...parameter.schema, description: options.description } : parameter.schema,
    ...(options.required ? { required: true } : {}),
    check: (value) => (validate(value) ? undefined : issuesOf(validate.errors, value)[0]!.message),
  };
}
