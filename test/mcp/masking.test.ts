// The masking rule across every MCP tool and dms command, in the fast lane: a sample of the product
// (test/support/masking-suite.ts says what is checked). The key the docs use offline, `dev`, which is
// also a deployment_type, and a status run through every surface; every third other value of the
// document's enums and the seed runs through one tool and one command in turn. The check lane
// (test/check/mcp/masking.test.ts) runs every enum value through every surface.
import { maskingSuite } from "../support/masking-suite.js";

const THROUGH_EVERY_SURFACE = new Set(["dev", "DEPLOYED"]);

maskingSuite("one masking rule (a sample): every tool and command, the key and a secret set to enum values and seed strings", {
  everySurface: (value) => THROUGH_EVERY_SURFACE.has(value),
  stride: 3,
});
