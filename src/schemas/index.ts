// deployment-management-api/schemas: a Standard Schema v1 validator for every schema of the
// document, one named export each, typed by generated/schema.d.ts:
//   const result = DeploymentPatch["~standard"].validate(formValues);
//   if (result.issues) … else result.value  // a DeploymentPatch
// Each wraps the validator compiled at build time for that schema (generated/schemas/<Name>.js, no
// ajv at run time, no eval); a bundler that sees one import keeps that schema's module only.
// A test checks that this list names every schema of the document.
import type { components } from "../../generated/schema.js";
import { type DmsSchema, standardSchema } from "./standard.js";
import validateDeploymentStatus from "../../generated/schemas/DeploymentStatus.js";
import validateDeploymentType from "../../generated/schemas/DeploymentType.js";
import validateDeploymentSource from "../../generated/schemas/DeploymentSource.js";
import validateImagePullSecret from "../../generated/schemas/ImagePullSecret.js";
import validateVolume from "../../generated/schemas/Volume.js";
import validateVolumeMount from "../../generated/schemas/VolumeMount.js";
import validateEnvVar from "../../generated/schemas/EnvVar.js";
import validateResourceRequirements from "../../generated/schemas/ResourceRequirements.js";
import validateContainer from "../../generated/schemas/Container.js";
import validateResourceSpec from "../../generated/schemas/ResourceSpec.js";
import validateListenerConfig from "../../generated/schemas/ListenerConfig.js";
import validateSourceConfig from "../../generated/schemas/SourceConfig.js";
import validateSourceRevisionConfig from "../../generated/schemas/SourceRevisionConfig.js";
import validateSecret from "../../generated/schemas/Secret.js";
import validateSecretReference from "../../generated/schemas/SecretReference.js";
import validateDeployment from "../../generated/schemas/Deployment.js";
import validateDeploymentPage from "../../generated/schemas/DeploymentPage.js";
import validateProblemFieldError from "../../generated/schemas/ProblemFieldError.js";
import validateProblem from "../../generated/schemas/Problem.js";
import validateRevisionSource from "../../generated/schemas/RevisionSource.js";
import validateResourceSpecInput from "../../generated/schemas/ResourceSpecInput.js";
import validateListenerConfigInput from "../../generated/schemas/ListenerConfigInput.js";
import validateSourceConfigInput from "../../generated/schemas/SourceConfigInput.js";
import validateSourceRevisionConfigInput from "../../generated/schemas/SourceRevisionConfigInput.js";
import validateSecretInput from "../../generated/schemas/SecretInput.js";
import validateSecretReferenceInput from "../../generated/schemas/SecretReferenceInput.js";
import validateDeploymentPatch from "../../generated/schemas/DeploymentPatch.js";
import validateRevisionStatus from "../../generated/schemas/RevisionStatus.js";
import validateRevision from "../../generated/schemas/Revision.js";
import validateRevisionPage from "../../generated/schemas/RevisionPage.js";
import validateComputeConfig from "../../generated/schemas/ComputeConfig.js";
import validateListener from "../../generated/schemas/Listener.js";
import validateListenerPage from "../../generated/schemas/ListenerPage.js";
import validateComputeConfigInput from "../../generated/schemas/ComputeConfigInput.js";
import validateListenerPatch from "../../generated/schemas/ListenerPatch.js";
import validateOAuthProvider from "../../generated/schemas/OAuthProvider.js";
import validateAgentConnection from "../../generated/schemas/AgentConnection.js";
import validateAgentConnectionList from "../../generated/schemas/AgentConnectionList.js";
import validateRepository from "../../generated/schemas/Repository.js";

export type { DmsSchema, StandardIssue, StandardResult, StandardSchemaV1 } from "./standard.js";

type Schemas = components["schemas"];

export const DeploymentStatus: DmsSchema<Schemas["DeploymentStatus"]> = /* @__PURE__ */ standardSchema(validateDeploymentStatus);
export const DeploymentType: DmsSchema<Schemas["DeploymentType"]> = /* @__PURE__ */ standardSchema(validateDeploymentType);
export const DeploymentSource: DmsSchema<Schemas["DeploymentSource"]> = /* @__PURE__ */ standardSchema(validateDeploymentSource);
export const ImagePullSecret: DmsSchema<Schemas["ImagePullSecret"]> = /* @__PURE__ */ standardSchema(validateImagePullSecret);
export const Volume: DmsSchema<Schemas["Volume"]> = /* @__PURE__ */ standardSchema(validateVolume);
export const VolumeMount: DmsSchema<Schemas["VolumeMount"]> = /* @__PURE__ */ standardSchema(validateVolumeMount);
export const EnvVar: DmsSchema<Schemas["EnvVar"]> = /* @__PURE__ */ standardSchema(validateEnvVar);
export const ResourceRequirements: DmsSchema<Schemas["ResourceRequirements"]> = /* @__PURE__ */ standardSchema(validateResourceRequirements);
export const Container: DmsSchema<Schemas["Container"]> = /* @__PURE__ */ standardSchema(validateContainer);
export const ResourceSpec: DmsSchema<Schemas["ResourceSpec"]> = /* @__PURE__ */ standardSchema(validateResourceSpec);
export const ListenerConfig: DmsSchema<Schemas["ListenerConfig"]> = /* @__PURE__ */ standardSchema(validateListenerConfig);
export const SourceConfig: DmsSchema<Schemas["SourceConfig"]> = /* @__PURE__ */ standardSchema(validateSourceConfig);
export const SourceRevisionConfig: DmsSchema<Schemas["SourceRevisionConfig"]> = /* @__PURE__ */ standardSchema(validateSourceRevisionConfig);
export const Secret: DmsSchema<Schemas["Secret"]> = /* @__PURE__ */ standardSchema(validateSecret);
export const SecretReference: DmsSchema<Schemas["SecretReference"]> = /* @__PURE__ */ standardSchema(validateSecretReference);
export const Deployment: DmsSchema<Schemas["Deployment"]> = /* @__PURE__ */ standardSchema(validateDeployment);
export const DeploymentPage: DmsSchema<Schemas["DeploymentPage"]> = /* @__PURE__ */ standardSchema(validateDeploymentPage);
export const ProblemFieldError: DmsSchema<Schemas["ProblemFieldError"]> = /* @__PURE__ */ standardSchema(validateProblemFieldError);
export const Problem: DmsSchema<Schemas["Problem"]> = /* @__PURE__ */ standardSchema(validateProblem);
export const RevisionSource: DmsSchema<Schemas["RevisionSource"]> = /* @__PURE__ */ standardSchema(validateRevisionSource);
export const ResourceSpecInput: DmsSchema<Schemas["ResourceSpecInput"]> = /* @__PURE__ */ standardSchema(validateResourceSpecInput);
export const ListenerConfigInput: DmsSchema<Schemas["ListenerConfigInput"]> = /* @__PURE__ */ standardSchema(validateListenerConfigInput);
export const SourceConfigInput: DmsSchema<Schemas["SourceConfigInput"]> = /* @__PURE__ */ standardSchema(validateSourceConfigInput);
export const SourceRevisionConfigInput: DmsSchema<Schemas["SourceRevisionConfigInput"]> = /* @__PURE__ */ standardSchema(validateSourceRevisionConfigInput);
export const SecretInput: DmsSchema<Schemas["SecretInput"]> = /* @__PURE__ */ standardSchema(validateSecretInput);
export const SecretReferenceInput: DmsSchema<Schemas["SecretReferenceInput"]> = /* @__PURE__ */ standardSchema(validateSecretReferenceInput);
export const DeploymentPatch: DmsSchema<Schemas["DeploymentPatch"]> = /* @__PURE__ */ standardSchema(validateDeploymentPatch);
export const RevisionStatus: DmsSchema<Schemas["RevisionStatus"]> = /* @__PURE__ */ standardSchema(validateRevisionStatus);
export const Revision: DmsSchema<Schemas["Revision"]> = /* @__PURE__ */ standardSchema(validateRevision);
export const RevisionPage: DmsSchema<Schemas["RevisionPage"]> = /* @__PURE__ */ standardSchema(validateRevisionPage);
export const ComputeConfig: DmsSchema<Schemas["ComputeConfig"]> = /* @__PURE__ */ standardSchema(validateComputeConfig);
export const Listener: DmsSchema<Schemas["Listener"]> = /* @__PURE__ */ standardSchema(validateListener);
export const ListenerPage: DmsSchema<Schemas["ListenerPage"]> = /* @__PURE__ */ standardSchema(validateListenerPage);
export const ComputeConfigInput: DmsSchema<Schemas["ComputeConfigInput"]> = /* @__PURE__ */ standardSchema(validateComputeConfigInput);
export const ListenerPatch: DmsSchema<Schemas["ListenerPatch"]> = /* @__PURE__ */ standardSchema(validateListenerPatch);
export const OAuthProvider: DmsSchema<Schemas["OAuthProvider"]> = /* @__PURE__ */ standardSchema(validateOAuthProvider);
export const AgentConnection: DmsSchema<Schemas["AgentConnection"]> = /* @__PURE__ */ standardSchema(validateAgentConnection);
export const AgentConnectionList: DmsSchema<Schemas["AgentConnectionList"]> = /* @__PURE__ */ standardSchema(validateAgentConnectionList);
export const Repository: DmsSchema<Schemas["Repository"]> = /* @__PURE__ */ standardSchema(validateRepository);
