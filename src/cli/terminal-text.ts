// dms's text for the terminal: the rule is shared with the MCP server (src/shared/terminal-text.ts).
export { jsonSafe, terminalSafe, usageErrorLines } from "../shared/terminal-text.js";
