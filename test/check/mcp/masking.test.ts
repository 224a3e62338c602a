// The masking rule across every MCP tool and dms command, the whole plan (test/support/masking-suite.ts
// says what is checked): every enum value of the document as the key through every tool and every
// command, every string of the simulator's seed through one tool and one command in turn, and every
// value as a secret and quoted back. The fast lane (test/mcp/masking.test.ts) runs a sample.
import { MASKING_VALUES, maskingSuite } from "../../support/masking-suite.js";

maskingSuite("one masking rule: every tool and command, the key and a secret set to each enum value and seed string", {
  everySurface: (value) => MASKING_VALUES.enums.includes(value),
  stride: 1,
});
