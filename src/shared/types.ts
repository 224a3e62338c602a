// Names for the document's schemas, so application code does not spell out components["schemas"][...].
// Every alias points into generated/schema.d.ts; nothing here restates a schema.
import type { TERMINAL_REVISION_STATUSES } from "../../generated/constants.js";
import type { components, paths } from "../../generated/schema.js";

type Schemas = components["schemas"];

export type Deployment = Schemas["Deployment"];
export type DeploymentPatch = Schemas["DeploymentPatch"];
export type DeploymentPage = Schemas["DeploymentPage"];
export type DeploymentStatus = Schemas["DeploymentStatus"];
export type DeploymentType = Schemas["DeploymentType"];
export type Source = Schemas["DeploymentSource"];
export type RevisionSource = Schemas["RevisionSource"];
export type SourceConfig = Schemas["SourceConfig"];
export type SourceRevisionConfig = Schemas["SourceRevisionConfig"];
/**
 * A deployment's resource spec. The schema itself admits null (where it is used, null means the
 * service's defaults, and stating that on the schema keeps mock generators on their feet); the
 * name stands for the spec, as it did before, and `SourceConfig["resource_spec"]` keeps the null.
 */
export type ResourceSpec = NonNullable<Schemas["ResourceSpec"]>;
export type Secret = Schemas["Secret"];
export type SecretReference = Schemas["SecretReference"];
export type Revision = Schemas["Revision"];
/** @deprecated The revision list returns whole revisions since 1.0.0: use `Revision`. */
export type RevisionListItem = Revision;
export type RevisionPage = Schemas["RevisionPage"];
export type RevisionStatus = Schemas["RevisionStatus"];
export type Listener = Schemas["Listener"];
export type ListenerPatch = Schemas["ListenerPatch"];
export type ListenerPage = Schemas["ListenerPage"];
export type ComputeConfig = Schemas["ComputeConfig"];
export type OAuthProvider = Schemas["OAuthProvider"];
export type AgentConnection = Schemas["AgentConnection"];
export type AgentConnectionList = Schemas["AgentConnectionList"];
export type Repository = Schemas["Repository"];
export type Problem = Schemas["Problem"];
export type ProblemFieldError = Schemas["ProblemFieldError"];

/** The terminal revision states, as a type: the revision will not change any more. */
export type TerminalRevisionStatus = (typeof TERMINAL_REVISION_STATUSES)[number];

export type { components, operations, paths } from "../../generated/schema.js";

/** Every path of the API. */
export type ApiPath = keyof paths;
