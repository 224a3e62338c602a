// The store as the rest of the core sees it: the Store, and the types of its lists and writes.
export type { DeploymentFilter, RevisionFilter } from "./filters.js";
export type { Page } from "./paging.js";
export type { Plan } from "./plan.js";
export { Store } from "./store.js";
