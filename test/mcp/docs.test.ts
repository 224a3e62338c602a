// docs/mcp.md kept in step with the server: its tool table names every tool, says which change
// something and which --read-only serves, as the tools' own hints do; each agent's configuration
// is valid JSON that runs `dms mcp` with the key in env, never in the arguments.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { TOOLS, toolsFor } from "../../src/mcp/index.js";
import { ROOT } from "../support/document.js";

const page = await readFile(join(ROOT, "docs/mcp.md"), "utf8");
const jsonBlocks = [...page.matchAll(/^```json\n([\s\S]*?)^```$/gm)].map((m) => JSON.parse(m[1]!));

describe("docs/mcp.md", () => {
  it("its tool table is the tool set, with each tool's effect and read-only presence", () => {
    const table = /<!-- tools -->\n([\s\S]*?)\n<!-- \/tools -->/.exec(page)![1]!;
    const rows = table
      .split("\n")
      .slice(2)
      .map((row) => row.split(" | ").map((cell) => cell.replace(/^\| |`/g, "").trim()));
    const readOnly = new Set(toolsFor(true).map((t) => t.name));
    expect(rows.map((r) => r[0])).toEqual(TOOLS.map((t) => t.name));
    for (const [name, , changes, served] of rows) {
      const tool = TOOLS.find((t) => t.name === name)!;
      expect(changes!.startsWith("yes"), name).toBe(!tool.annotations.readOnlyHint);
      expect(served!.replace(/ \|$/, ""), name).toBe(readOnly.has(name!) ? "served" : "left out");
    }
  });

  it("configures Claude Code, Claude Desktop, Cursor and VS Code, the key in env and never in args", () => {
    const servers = jsonBlocks.map((config) => ({ config, entries: Object.values<any>(config.mcpServers ?? config.servers ?? {}) }));
    expect(servers.filter((s) => s.config.mcpServers)).toHaveLength(3);
    expect(servers.filter((s) => s.config.servers)).toHaveLength(1);
    for (const { entries } of servers) {
      expect(entries).toHaveLength(1);
      const [server] = entries;
      expect([server.command, ...server.args].join(" ")).toMatch(/(\bdms|dist\/cli\/main\.js) mcp$/);
      expect(Object.keys(server.env)).toEqual(["DMS_BASE_URL", "DMS_API_KEY"]);
      expect(server.args.join(" ")).not.toMatch(/api-key|DMS_API_KEY/);
    }
    expect(page).toMatch(/claude mcp add dms --env DMS_BASE_URL=\S+ --env DMS_API_KEY="\$DMS_API_KEY" -- npx dms mcp/);
  });
});
