// `npm start -- --allowed-host NAME --cors-origin ORIGIN` (and their environment variables) as
// real child processes: the added names and origins are let in, nothing else is, and a value that
// is not a name or an origin stops the start with a message naming the flag.
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { ROOT } from "../support/document.js";
import { KEY, raw, startMockProcess } from "./support.js";

describe("npm start with added hosts and origins", () => {
  it("takes --allowed-host and --cors-origin, repeated", async () => {
    const mock = await startMockProcess([
      "--allowed-host",
      "dev.example.test",
      "--allowed-host=.lan.test",
      "--cors-origin",
      "https://app.example.test",
      "--cors-origin",
      "http://tool.example.test:8080",
    ]);
    try {
      expect(mock.output()).toContain("also answers Host: dev.example.test, .lan.test");
      for (const host of ["dev.example.test:4010", "box.lan.test", "localhost"]) {
        expect((await raw(mock.baseUrl, { path: "/v2/listeners", headers: { ...KEY, host } })).status, host).toBe(200);
      }
      expect((await raw(mock.baseUrl, { path: "/v2/listeners", headers: { ...KEY, host: "other.example.test" } })).status).toBe(403);
      for (const origin of ["https://app.example.test", "http://tool.example.test:8080", "http://localhost:3000"]) {
        const answer = await raw(mock.baseUrl, { path: "/v2/listeners", headers: { ...KEY, origin } });
        expect(answer.headers["access-control-allow-origin"], origin).toBe(origin);
      }
      const foreign = await raw(mock.baseUrl, { path: "/v2/listeners", headers: { ...KEY, origin: "https://other.example.test" } });
      expect(foreign.headers["access-control-allow-origin"]).toBeUndefined();
    } finally {
      await mock.stop();
    }
  });

  it("takes MOCK_ALLOWED_HOSTS and MOCK_CORS_ORIGINS, comma-separated", async () => {
    const mock = await startMockProcess([], { MOCK_ALLOWED_HOSTS: "a.example.test,b.example.test", MOCK_CORS_ORIGINS: "https://app.example.test" });
    try {
      expect((await raw(mock.baseUrl, { path: "/v2/listeners", headers: { ...KEY, host: "b.example.test" } })).status).toBe(200);
      const answer = await raw(mock.baseUrl, { path: "/v2/listeners", headers: { ...KEY, origin: "https://app.example.test" } });
      expect(answer.headers["access-control-allow-origin"]).toBe("https://app.example.test");
    } finally {
      await mock.stop();
    }
  });

  it.each([
    [["--cors-origin", "*"], /--cors-origin: "\*" would let any page/],
    [["--cors-origin", "app.example.test"], /--cors-origin: "app.example.test" is not an origin/],
    [["--allowed-host", "http://dev.example.test:4010"], /--allowed-host: .* is not a host name/],
    [["--allowed-host"], /--allowed-host/],
    [["--bogus"], /Unknown option '--bogus'/],
  ])("refuses %j with exit code 2 and a message naming the flag", (args, message) => {
    const run = spawnSync(process.execPath, ["tools/run/mock.ts", ...args], {
      cwd: ROOT,
      encoding: "utf8",
      timeout: 20_000,
      env: { ...process.env, PORT: "1" },
    });
    expect(run.status, run.stdout + run.stderr).toBe(2);
    expect(run.stderr).toMatch(message);
    expect(run.stdout).not.toContain("listening");
  });
});
