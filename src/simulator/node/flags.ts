// The one statement of dms-simulator's flags (and so of `dms simulate`'s): the table its parser
// (cli-main.ts), its `--help`, `dms simulate --help` and docs/cli.md all read. Data only: `dms
// --help` loads this module.
import type { FlagTable } from "../../shared/flag-table.js";

export const SIMULATOR_FLAGS = {
  port: { type: "string", placeholder: "N", description: "the port; 0 picks a free one", default: "4011", env: "PORT" },
  host: { type: "string", placeholder: "HOST", description: "the address to listen on", default: "127.0.0.1" },
  state: { type: "string", placeholder: "FILE", description: "keep the state in FILE across restarts", env: "SIMULATOR_STATE" },
  "import-state": { type: "string", placeholder: "FILE", description: "import this 1.0 state file into the new --state file" },
  "step-seconds": { type: "string", placeholder: "S", description: "seconds per revision state", default: "2", env: "SIMULATOR_STEP_SECONDS" },
  "seed-deployments": { type: "string", placeholder: "N", description: "deployments in the seed", default: "30", env: "SIMULATOR_SEED_DEPLOYMENTS" },
  "allowed-host": { type: "string", multiple: true, placeholder: "NAME", description: "another Host name to answer besides the loopback ones" },
  "cors-origin": { type: "string", multiple: true, placeholder: "ORIGIN", description: "another browser origin allowed besides loopback ones" },
  latency: { type: "string", placeholder: "MS|MIN-MAX", description: "wait before each API answer: 200, or a range such as 100-800" },
  fail: {
    type: "string",
    multiple: true,
    placeholder: "OPERATION:FAULT[:COUNT]",
    description: "fail the next COUNT (default 1) requests of OPERATION (an operationId, or *) with 429, 500, 503 or drop",
  },
  errors: {
    type: "string",
    placeholder: "SHAPE",
    description: "error bodies: problem (application/problem+json) or service (the service's own FastAPI shapes)",
    default: "problem",
  },
  "key-scope": {
    type: "string",
    placeholder: "SCOPE",
    description: "what each API key may act on: any, organization (X-Tenant-Id required) or a workspace's id",
    default: "any",
  },
  quiet: { type: "boolean", description: "no request log" },
} as const satisfies FlagTable;
