// The command-line rules every parser shares (src/shared/flag-table.ts), checked on each command line
// that has one-value flags: dms (every command's table, in-process through runDms) and the simulator
// (its table, through runSimulatorCli, which refuses before it listens). The table drives the cases.
import { parseArgs } from "node:util";
import { describe, expect, it } from "vitest";
import { parseOptions, repeatedOneValueFlag } from "../../src/shared/flag-table.js";
import { runSimulatorCli, SimulatorUsageError } from "../../src/simulator/node/cli-main.js";
import { SIMULATOR_FLAGS } from "../../src/simulator/node/flags.js";

const oneValue = Object.entries(SIMULATOR_FLAGS).filter(([, flag]) => flag.type === "string" && !("multiple" in flag && flag.multiple));
const repeatable = Object.entries(SIMULATOR_FLAGS).filter(([, flag]) => "multiple" in flag && flag.multiple);

describe("a one-value flag given twice", () => {
  it("the rule: named for a one-value flag, whatever its values; silent for a switch or a repeatable flag", () => {
    const options = parseOptions(SIMULATOR_FLAGS);
    const tokensOf = (args: string[]) => parseArgs({ args, options, tokens: true }).tokens;
    expect(repeatedOneValueFlag(tokensOf(["--port", "1", "--port=1"]), options)).toBe("--port is given more than once: it takes one value");
    expect(repeatedOneValueFlag(tokensOf(["--quiet", "--quiet"]), options)).toBeUndefined();
    for (const [name] of repeatable) expect(repeatedOneValueFlag(tokensOf([`--${name}`, "a", `--${name}`, "b"]), options)).toBeUndefined();
    // A name that is a property of every object is no flag of the table.
    expect(
      repeatedOneValueFlag(
        [
          { kind: "option", name: "constructor" },
          { kind: "option", name: "constructor" },
        ],
        options,
      ),
    ).toBeUndefined();
  });

  it.each(oneValue.map(([name]) => name))("dms-simulator --%s twice is a usage error naming it, before anything listens", async (name) => {
    const run = runSimulatorCli([`--${name}`, "1", `--${name}`, "2"]);
    await expect(run).rejects.toThrow(SimulatorUsageError);
    await expect(run).rejects.toThrow(`--${name} is given more than once: it takes one value.`);
  });
});
