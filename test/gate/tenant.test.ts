// The X-Tenant-Id check shared by the simulator and the mock's front.
import { describe, expect, it } from "vitest";
import { checkTenantHeader } from "../../src/gate/tenant.js";

describe("checkTenantHeader", () => {
  it("accepts a UUID in any case, and no header", () => {
    expect(checkTenantHeader("7b1e2c3d-4f5a-4b6c-8d7e-9f0a1b2c3d4e")).toBeUndefined();
    expect(checkTenantHeader("7B1E2C3D-4F5A-4B6C-8D7E-9F0A1B2C3D4E")).toBeUndefined();
    expect(checkTenantHeader(undefined)).toBeUndefined();
    expect(checkTenantHeader(null)).toBeUndefined();
  });

  it("refuses an empty value with a detail that says how to act without a tenant", () => {
    expect(checkTenantHeader("")).toEqual({ parameter: "X-Tenant-Id", code: "format", detail: expect.stringContaining("leave the header out") });
  });

  it.each(["acme", " 7b1e2c3d-4f5a-4b6c-8d7e-9f0a1b2c3d4e", "7b1e2c3d-4f5a-4b6c-8d7e-9f0a1b2c3d4e,7b1e2c3d-4f5a-4b6c-8d7e-9f0a1b2c3d4e", "*"])(
    "refuses %j",
    (value) => {
      expect(checkTenantHeader(value)).toEqual({ parameter: "X-Tenant-Id", code: "format", detail: "must be a tenant id (a UUID)" });
    },
  );
});
