// The state file as the rest of the package sees it: the persistence of `--state FILE`, its errors,
// and (for tests and tools that read such a file) node:sqlite and the schema's names.
export { createSqlitePersistence, type SqlitePersistenceOptions } from "./persistence.js";
export { StateFileError } from "./errors.js";
export { loadSqlite, SqliteUnavailableError } from "./load-sqlite.js";
export { APPLICATION_ID, SCHEMA, SCHEMA_VERSION } from "./schema.js";
