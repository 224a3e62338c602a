// One rule says what an API key may hold (apiKeyProblem in src/shared/header-value.ts), and every
// place a key enters follows it: the simulator's apiKeys (createSimulator, startSimulator, the CLI and
// the plugin all check options with checkSimulatorOptions) and the Vite plugin's defaultApiKey. One
// table, both entries, the same words.
import { describe, expect, it } from "vitest";
import { apiKeyProblem } from "../../src/shared/header-value.js";
import { checkSimulatorOptions } from "../../src/simulator/core/options.js";
import { simulatorPlugin } from "../../src/vite/index.js";

const REFUSED: [string, unknown][] = [
  ["empty", ""],
  ["blank", "   "],
  ["not a string", 42],
  ["a line break", "dev\nkey"],
  ["a NUL", "dev\u0000"],
  ["a control character", "dev\u0007"],
  ["a character above U+00FF", "dév€"],
  ["a space at the end", "dev "],
];
const ACCEPTED = ["dev", "sk-live_1234", "key with inner space", "clé"];

function simulatorRefusal(key: unknown): string | undefined {
  try {
    checkSimulatorOptions({ apiKeys: [key as string] });
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

function pluginRefusal(key: unknown): string | undefined {
  try {
    simulatorPlugin({ defaultApiKey: key as string });
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

describe("the one API-key rule", () => {
  for (const [what, key] of REFUSED) {
    it(`refuses a key with ${what} alike in the simulator's apiKeys and the plugin's defaultApiKey`, () => {
      const reason = apiKeyProblem(key);
      expect(reason).toBeDefined();
      expect(simulatorRefusal(key)).toContain("apiKeys[0]");
      expect(simulatorRefusal(key)).toContain(reason);
      expect(pluginRefusal(key)).toContain("defaultApiKey");
      expect(pluginRefusal(key)).toContain(reason);
      // The reason never quotes the key.
      if (typeof key === "string" && key.trim() !== "") expect(reason).not.toContain(key);
    });
  }

  it("accepts the same keys in both", () => {
    for (const key of ACCEPTED) {
      expect(apiKeyProblem(key), key).toBeUndefined();
      expect(simulatorRefusal(key), key).toBeUndefined();
      expect(pluginRefusal(key), key).toBeUndefined();
    }
  });
});
