// The help texts, built from the command specs (src/cli/specs.ts): the same flag tables the parser
// reads. This module, specs.ts, flags.ts and the flag tables they read are all that `dms --help` loads.
import { flagLines } from "../shared/flag-table.js";
import { commandHelp } from "./flags.js";
import { COMMANDS, CONNECTION, EXAMPLE_IDS, OUTPUT_NOTE } from "./specs.js";

const connection = [CONNECTION.title, ...flagLines(CONNECTION.flags, 32)].join("\n");
const usageOf = (name: keyof typeof COMMANDS) => [name, ...COMMANDS[name].positionals.map((p) => `<${p.name}>`)].join(" ");

const overview = `dms: deploy to the Deployment Management Service and wait for the result, for CI/CD.

Usage: dms <command> [flags]

Commands:
${Object.values(COMMANDS)
  .map((spec) => `  ${usageOf(spec.name as keyof typeof COMMANDS).padEnd(38)}${spec.summary}`)
  .join("\n")}

"dms <command> --help" shows a command's flags, an example and its exit codes.

${connection}

Example:
  export DMS_BASE_URL=https://api.example.com DMS_API_KEY=...
  dms deploy ${EXAMPLE_IDS.deployment} --ref release/2.4 --timeout 20m

Exit codes:
${COMMANDS.deploy.exitCodes.map(([code, meaning]) => `  ${String(code).padEnd(5)}${meaning}`).join("\n")}
`;

export const HELP: Readonly<Record<string, string>> = {
  dms: overview,
  deploy: commandHelp(COMMANDS.deploy, { footer: OUTPUT_NOTE }),
  wait: commandHelp(COMMANDS.wait, { footer: OUTPUT_NOTE }),
  rollback: commandHelp(COMMANDS.rollback, { footer: OUTPUT_NOTE }),
  deployments: commandHelp(COMMANDS.deployments, {}),
  revisions: commandHelp(COMMANDS.revisions, {}),
  simulate: commandHelp(COMMANDS.simulate, {}),
  mcp: commandHelp(COMMANDS.mcp, {}),
};
