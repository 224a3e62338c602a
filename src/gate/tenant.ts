// The X-Tenant-Id header as both local servers read it. The document declares it as an optional
// API-key-like header (a UUID), so a schema validator never looks at its value; an empty or
// malformed value must not quietly mean "no tenant" (which shows every tenant's resources), so it
// is a field error. No Node imports.
import type { FieldErrorCode } from "../shared/problems.js";
import { isUuid } from "../shared/uuid.js";

const TENANT_HEADER = "X-Tenant-Id";

export interface TenantHeaderError {
  parameter: typeof TENANT_HEADER;
  code: FieldErrorCode;
  detail: string;
}

/** The field error for an X-Tenant-Id value that is not a tenant id; undefined when it is one or absent. */
export function checkTenantHeader(value: string | null | undefined): TenantHeaderError | undefined {
  if (value === null || value === undefined || isUuid(value)) return undefined;
  return {
    parameter: TENANT_HEADER,
    code: "format",
    detail: value === "" ? "must be a tenant id (a UUID), not empty; leave the header out to act without a tenant" : "must be a tenant id (a UUID)",
  };
}
