// The state file's tables: one row per deployment, revision and listener and one for the clock and
// the rest. The schema is checked by SQLite on every write (STRICT tables, CHECK constraints), and
// its enumerations come from the document's generated constants. docs/simulator.md shows it too.
import { DEPLOYMENT_STATUSES, DEPLOYMENT_TYPES, REVISION_STATUSES } from "../../../../generated/constants.js";
import { FAILURE_STATUSES } from "../../core/lifecycle.js";

/** "DMSS" in the header's application_id: this file is a simulator state. */
export const APPLICATION_ID = 0x444d5353;
/** The schema's version in the header's user_version. */
export const SCHEMA_VERSION = 1;

const list = (values: readonly string[]) => values.map((v) => `'${v}'`).join(", ");
const boolean = (column: string) => `${column} INTEGER NOT NULL CHECK (${column} IN (0, 1))`;
const jsonObject = (column: string) => `json_valid(${column}) AND json_type(${column}) = 'object'`;

/** The schema, as one script. */
export const SCHEMA = `
CREATE TABLE simulator (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  clock_offset_ms REAL NOT NULL,
  last_created_ms REAL NOT NULL,
  providers TEXT NOT NULL CHECK (json_valid(providers) AND json_type(providers) = 'array'),
  connections TEXT NOT NULL CHECK (${jsonObject("connections")}),
  repositories TEXT NOT NULL CHECK (${jsonObject("repositories")} AND json_type(repositories, '$.scm') = 'object' AND json_type(repositories, '$.forge') = 'object')
) STRICT;
CREATE TABLE deployments (
  position INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE CHECK (id <> ''),
  deployment TEXT NOT NULL CHECK (${jsonObject("deployment")} AND deployment ->> '$.id' = id
    AND json_type(deployment, '$.name') = 'text' AND json_type(deployment, '$.tenant_id') = 'text'
    AND deployment ->> '$.status' IN (${list(DEPLOYMENT_STATUSES)})
    AND json_type(deployment, '$.source_revision_config') = 'object'),
  deployment_type TEXT NOT NULL CHECK (deployment_type IN (${list(DEPLOYMENT_TYPES)})),
  ${boolean("remote_reconciled")},
  tag_value_ids TEXT NOT NULL CHECK (json_valid(tag_value_ids) AND json_type(tag_value_ids) = 'array'),
  fail_next TEXT CHECK (fail_next IN (${list(FAILURE_STATUSES)}))
) STRICT;
CREATE TABLE revisions (
  position INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE CHECK (id <> ''),
  deployment_id TEXT NOT NULL REFERENCES deployments (id) ON DELETE CASCADE,
  revision TEXT NOT NULL CHECK (${jsonObject("revision")} AND revision ->> '$.id' = id
    AND revision ->> '$.status' IN (${list(REVISION_STATUSES)})
    AND json_type(revision, '$.created_at') = 'text' AND json_type(revision, '$.updated_at') = 'text'
    AND json_type(revision, '$.source_revision_config') = 'object'),
  ${boolean("remote_reconciled")},
  step_at_ms REAL NOT NULL,
  fail_with TEXT CHECK (fail_with IN (${list(FAILURE_STATUSES)}))
) STRICT;
CREATE INDEX revisions_of_deployment ON revisions (deployment_id, position);
CREATE TABLE listeners (
  position INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE CHECK (id <> ''),
  listener TEXT NOT NULL CHECK (${jsonObject("listener")} AND listener ->> '$.id' = id)
) STRICT;
`;

/**
 * The tables of SCHEMA and their columns, read from its text (a column is a line of two spaces, a
 * name and a type), so that a file whose tables were changed by hand is refused by name.
 */
export const SCHEMA_TABLES: ReadonlyMap<string, readonly string[]> = new Map(
  [...SCHEMA.matchAll(/^CREATE TABLE (\w+) \(\n([\s\S]*?)\n\) STRICT;$/gm)].map(([, table, body]) => [
    table!,
    [...body!.matchAll(/^ {2}(\w+) (?:INTEGER|REAL|TEXT)\b/gm)].map(([, column]) => column!),
  ]),
);
