// Nothing a client sends can stop `npm start`, and Prism answers only through the front. Each case
// here stopped the mock's process, or reached Prism around the front, before Prism ran in-process
// behind the gate (src/mock/prism.ts). `npm start` runs for real, as a child process.
import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROBLEM_TYPES } from "../../src/shared/problems.js";
import { DEPLOYMENT, KEY, type MockProcess, raw, startMockProcess } from "./support.js";

let mock: MockProcess;
beforeAll(async () => {
  mock = await startMockProcess();
});
afterAll(async () => {
  await mock?.stop();
});

const json = { ...KEY, "content-type": "application/json" };

async function stillServes() {
  expect(mock.child.exitCode, mock.output()).toBeNull();
  expect((await raw(mock.baseUrl, { path: "/v2/listeners", headers: KEY })).status).toBe(200);
}

/** The TCP ports a process listens on (Linux /proc: its socket inodes among the listening sockets). */
function listeningPorts(pid: number): number[] {
  const inodes = new Set<string>();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const link = readlinkSync(`/proc/${pid}/fd/${fd}`);
      const inode = /^socket:\[(\d+)\]$/.exec(link)?.[1];
      if (inode) inodes.add(inode);
    } catch {
      // Closed meanwhile.
    }
  }
  const ports: number[] = [];
  for (const table of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    for (const line of readFileSync(table, "utf8").split("\n").slice(1)) {
      const columns = line.trim().split(/\s+/);
      // local_address is column 1 (ADDR:PORT in hex), st column 3 (0A = LISTEN), inode column 9.
      if (columns[3] === "0A" && inodes.has(columns[9] ?? "")) ports.push(Number.parseInt(columns[1]!.split(":")[1]!, 16));
    }
  }
  return ports;
}

describe("requests that stopped the mock", () => {
  it("answers a patch with field names outside Latin-1 with a 422 naming them, and keeps serving", async () => {
    const body = JSON.stringify({ 名前: 1, "emoji😀": 2, source_config: { "ключ€": true } });
    const answer = await raw(mock.baseUrl, { method: "PATCH", path: DEPLOYMENT, headers: json, body });
    expect(answer.status, answer.text).toBe(422);
    expect(answer.json().type).toBe(PROBLEM_TYPES.validation.type);
    expect(
      answer
        .json()
        .errors.map((e: { pointer: string }) => e.pointer)
        .sort(),
    ).toEqual(["/emoji😀", "/source_config/ключ€", "/名前"]);
    // The debugging header survives too, escaped to ASCII.
    expect(JSON.parse(String(answer.headers["sl-violations"])).length).toBe(3);
    await stillServes();
  });

  it("answers broken %-escapes in the path and the query without stopping", async () => {
    for (const path of ["/v2/deployments/%E0%A4%A", "/v2/deployments?status=%E0%A4%A", "/v2/deployments?limit=%ZZ", "/%", "/v2/listeners/%C0%AF"]) {
      const answer = await raw(mock.baseUrl, { path, headers: KEY });
      expect(answer.status, `${path}: ${answer.text.slice(0, 200)}`).toBeLessThan(500);
    }
    await stillServes();
  });
});

describe("Prism behind the front only", () => {
  it.runIf(process.platform === "linux")("listens on one port, the front's: Prism has none of its own", async () => {
    const ports = listeningPorts(mock.child.pid!);
    expect(ports).toEqual([Number(new URL(mock.baseUrl).port)]);
  });
});
