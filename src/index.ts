// The package's main entry: the typed client and its helpers, the schema type aliases and the
// runtime constants generated from the document. Nothing here imports node: modules, so it runs in browsers.
export {
  createDeploymentsClient,
  type DeploymentsClient,
  type DeploymentsClientOptions,
  type PathWith,
  type RequestInitFor,
  type ResultFor,
} from "./client/client.js";
export { DEFAULT_RETRY, parseRetryAfter, type RetryOptions } from "./client/retry.js";
export { DEFAULT_TIMEOUT_MS, RequestTimeoutError } from "./client/timeout.js";
export { MAX_REDIRECTS, RedirectError } from "./client/redirects.js";
export { DEFAULT_MAX_RESPONSE_BYTES, isUnreadPatchSuccess, ResponseTooLargeError } from "./client/response-size.js";
export { ApiError, unwrap, type ApiErrorOptions, type ClientResult } from "./client/errors.js";
export {
  DEFAULT_PAGE_SIZE,
  paginate,
  type ItemOf,
  type PagedPath,
  type PageOf,
  type PaginateArgs,
  type PaginateParams,
} from "./client/paginate.js";
export {
  DEFAULT_WAIT,
  isTerminalRevisionStatus,
  RevisionFailedError,
  RevisionWaitTimeoutError,
  waitForRevision,
  type WaitForRevisionOptions,
} from "./client/wait-for-revision.js";
export {
  checkPatchFitsSource,
  deployRevision,
  NoRevisionCreatedError,
  PatchOutcomeUnknownError,
  SourceMismatchError,
  type DeployedRevision,
} from "./client/deploy-revision.js";
export { SOURCE_RULES, sourceViolations, type SourceRule } from "./shared/source-rules.js";
export {
  findRollbackTarget,
  NoRollbackTargetError,
  rollbackDeployment,
  rollbackPatch,
  type RollbackOptions,
  type RolledBackRevision,
} from "./client/rollback.js";
export { planDeploy, planRollback, type ChangePlan } from "./client/plan.js";
export type * from "./shared/types.js";
export {
  DEPLOYMENT_STATUSES,
  DEPLOYMENT_TYPES,
  FIELD_ERROR_CODES,
  PROBLEM_TYPES,
  REVISION_SOURCES,
  REVISION_STATUSES,
  SOURCES,
  TERMINAL_REVISION_STATUSES,
  type FieldErrorCode,
  type ProblemKind,
} from "../generated/constants.js";
