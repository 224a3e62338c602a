// The local-server access rules, as plain functions: which Host headers, origins and writes a
// server on a developer's machine accepts.
import { describe, expect, it } from "vitest";
import {
  corsHeaders,
  isAllowedHost,
  isAllowedOrigin,
  isCrossSiteWrite,
  isJsonContentType,
  isPreflight,
  parseAllowedHost,
  parseCorsOrigin,
  preflightHeaders,
} from "../../src/gate/policy.js";

describe("isAllowedHost", () => {
  it.each([
    "localhost",
    "localhost:4010",
    "127.0.0.1",
    "127.0.0.1:4011",
    "[::1]",
    "[::1]:4010",
    "LOCALHOST:80",
    "app.localhost:5173",
    "a.b.localhost",
    "localhost.",
  ])("accepts the loopback name %s", (host) => expect(isAllowedHost(host)).toBe(true));

  it.each([
    "evil.example",
    "evil.example:4010",
    "localhost.evil.example",
    "127.0.0.1.nip.io",
    "127.0.0.2",
    "0.0.0.0:4010",
    "[::2]:4010",
    "192.168.1.10:4010",
    "",
    "localhost:abc",
    "localhost:4010:1",
    "local host",
    "[::1",
    "evil.example/localhost",
  ])("refuses %j", (host) => expect(isAllowedHost(host)).toBe(false));

  it("refuses a request without a Host header", () => {
    expect(isAllowedHost(undefined)).toBe(false);
    expect(isAllowedHost(null)).toBe(false);
  });

  it("accepts names added by the option, exactly or (with a leading dot) with their subdomains", () => {
    const policy = { allowedHosts: ["dev.example.test", ".lan.test", "192.168.1.10"] };
    expect(isAllowedHost("dev.example.test:4010", policy)).toBe(true);
    expect(isAllowedHost("DEV.example.test", policy)).toBe(true);
    expect(isAllowedHost("x.dev.example.test", policy)).toBe(false);
    expect(isAllowedHost("lan.test", policy)).toBe(true);
    expect(isAllowedHost("box.lan.test:8080", policy)).toBe(true);
    expect(isAllowedHost("evillan.test", policy)).toBe(false);
    expect(isAllowedHost("192.168.1.10:4010", policy)).toBe(true);
    expect(isAllowedHost("evil.example", policy)).toBe(false);
    // `true` is any name (Vite's allowedHosts: true), but still only a well-formed Host header.
    expect(isAllowedHost("tunnel.example:443", { allowedHosts: true })).toBe(true);
    expect(isAllowedHost("bad host", { allowedHosts: true })).toBe(false);
    expect(isAllowedHost(undefined, { allowedHosts: true })).toBe(false);
  });
});

describe("isAllowedOrigin and corsHeaders", () => {
  it.each(["http://localhost", "http://localhost:3000", "https://localhost:5173", "http://127.0.0.1:8080", "http://[::1]:3000"])(
    "allows the loopback origin %s",
    (origin) => {
      expect(isAllowedOrigin(origin)).toBe(true);
      expect(corsHeaders(origin)).toEqual({ vary: "Origin", "access-control-allow-origin": origin, "access-control-expose-headers": expect.any(String) });
    },
  );

  it.each([
    "https://evil.example",
    "http://localhost.evil.example",
    "null",
    "",
    "file://",
    "ws://localhost:3000",
    "http://localhost:3000/path",
    "http://127.0.0.2:3000",
    "*",
  ])("gives %j no access-control-allow-origin, only Vary", (origin) => {
    expect(isAllowedOrigin(origin)).toBe(false);
    expect(corsHeaders(origin)).toEqual({ vary: "Origin" });
  });

  it("gives a request without Origin only Vary", () => {
    expect(corsHeaders(undefined)).toEqual({ vary: "Origin" });
  });

  it("allows origins added by the option, and only those exactly", () => {
    const policy = { corsOrigins: ["https://app.example.test"] };
    expect(corsHeaders("https://app.example.test", policy)["access-control-allow-origin"]).toBe("https://app.example.test");
    expect(isAllowedOrigin("http://app.example.test", policy)).toBe(false);
    expect(isAllowedOrigin("https://app.example.test:8443", policy)).toBe(false);
  });

  it("never answers *", () => {
    for (const origin of ["*", "http://localhost:1", undefined]) expect(corsHeaders(origin)["access-control-allow-origin"]).not.toBe("*");
  });
});

describe("preflight", () => {
  it("recognises a preflight by OPTIONS, Origin and Access-Control-Request-Method", () => {
    expect(isPreflight("OPTIONS", { origin: "http://localhost:3000", "access-control-request-method": "PATCH" })).toBe(true);
    expect(isPreflight("OPTIONS", { origin: "http://localhost:3000" })).toBe(false);
    expect(isPreflight("GET", { origin: "http://localhost:3000", "access-control-request-method": "PATCH" })).toBe(false);
  });

  it("lets an allowed origin send the methods and headers it asks for", () => {
    const headers = preflightHeaders("http://localhost:3000", "x-api-key, content-type, prefer");
    expect(headers["access-control-allow-origin"]).toBe("http://localhost:3000");
    expect(headers["access-control-allow-methods"]).toContain("PATCH");
    expect(headers["access-control-allow-headers"]).toBe("x-api-key, content-type, prefer");
  });

  it("grants an allowed origin's private-network request, and only when asked", () => {
    const policy = { corsOrigins: ["https://app.example.test"] };
    expect(preflightHeaders("https://app.example.test", "x-api-key", policy, "true")["access-control-allow-private-network"]).toBe("true");
    expect(preflightHeaders("https://app.example.test", "x-api-key", policy)["access-control-allow-private-network"]).toBeUndefined();
    expect(preflightHeaders("https://evil.example", "x-api-key", policy, "true")).toEqual({ vary: "Origin" });
  });

  it("gives a foreign origin nothing to go on", () => {
    expect(preflightHeaders("https://evil.example", "x-api-key")).toEqual({ vary: "Origin" });
  });

  it("does not echo a header list that is not one", () => {
    expect(preflightHeaders("http://localhost:3000", "x-api-key\r\nset-cookie: a")["access-control-allow-headers"]).toBe(
      "content-type, x-api-key, x-tenant-id",
    );
  });
});

describe("isCrossSiteWrite", () => {
  it("refuses a write from a foreign origin, whatever its content type", () => {
    expect(isCrossSiteWrite("POST", { origin: "https://evil.example" })).toBe(true);
    expect(isCrossSiteWrite("PATCH", { origin: "null" })).toBe(true);
    expect(isCrossSiteWrite("POST", { "sec-fetch-site": "cross-site" })).toBe(true);
  });

  it("lets loopback pages, added origins and clients without Origin write", () => {
    expect(isCrossSiteWrite("POST", { origin: "http://localhost:3000" })).toBe(false);
    expect(isCrossSiteWrite("POST", { origin: "https://app.example.test" }, { corsOrigins: ["https://app.example.test"] })).toBe(false);
    expect(isCrossSiteWrite("PATCH", {})).toBe(false);
    expect(isCrossSiteWrite("POST", { "sec-fetch-site": "same-origin" })).toBe(false);
  });

  it("lets a page write to the server that served it (Origin names the request's Host), also where pages may not write (it serves none)", () => {
    expect(isCrossSiteWrite("PATCH", { origin: "http://app.test:5173", host: "app.test:5173" })).toBe(false);
    expect(isCrossSiteWrite("PATCH", { origin: "https://app.test", host: "APP.test:443" })).toBe(false);
    expect(isCrossSiteWrite("PATCH", { origin: "http://app.test", host: "app.test" })).toBe(false);
    // Another port, another name, a longer Origin, a scheme that is not the web's: another site.
    expect(isCrossSiteWrite("PATCH", { origin: "http://app.test:5174", host: "app.test:5173" })).toBe(true);
    expect(isCrossSiteWrite("PATCH", { origin: "http://evil.test:5173", host: "app.test:5173" })).toBe(true);
    expect(isCrossSiteWrite("PATCH", { origin: "http://app.test:5173/", host: "app.test:5173" })).toBe(true);
    expect(isCrossSiteWrite("PATCH", { origin: "file://app.test", host: "app.test" })).toBe(true);
    expect(isCrossSiteWrite("PATCH", { origin: "null", host: "null" })).toBe(true);
    expect(isCrossSiteWrite("PATCH", { origin: "http://app.test:5173" })).toBe(true);
    expect(isCrossSiteWrite("PATCH", { origin: "http://127.0.0.1:9000", host: "127.0.0.1:9000" }, { loopbackOrigins: false })).toBe(false);
    // Its own origin only: another loopback port is a page elsewhere on the machine.
    expect(isCrossSiteWrite("PATCH", { origin: "http://127.0.0.1:9001", host: "127.0.0.1:9000" }, { loopbackOrigins: false })).toBe(true);
    expect(isCrossSiteWrite("PATCH", { origin: "http://localhost:9000", host: "127.0.0.1:9000" }, { loopbackOrigins: false })).toBe(true);
  });

  it("never counts a read as a write", () => {
    expect(isCrossSiteWrite("GET", { origin: "https://evil.example" })).toBe(false);
    expect(isCrossSiteWrite("OPTIONS", { origin: "https://evil.example" })).toBe(false);
  });
});

describe("isJsonContentType", () => {
  it.each(["application/json", "application/json; charset=utf-8", "APPLICATION/JSON", "application/merge-patch+json"])("%s is JSON", (t) =>
    expect(isJsonContentType(t)).toBe(true),
  );
  it.each(["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "", undefined, "application/jsonx", "text/json"])(
    "%j is not",
    (t) => expect(isJsonContentType(t)).toBe(false),
  );
});

describe("option values", () => {
  it("takes host names and addresses, refuses schemes, ports and paths", () => {
    expect(parseAllowedHost("Dev.Example.test")).toBe("dev.example.test");
    expect(parseAllowedHost(".lan.test")).toBe(".lan.test");
    expect(parseAllowedHost("192.168.1.10")).toBe("192.168.1.10");
    for (const bad of ["", "http://dev.example.test", "dev.example.test:4010", "a/b", "a b", "."])
      expect(() => parseAllowedHost(bad)).toThrow(/not a host name/);
  });

  it("takes origins, refuses * and null and anything with a path", () => {
    expect(parseCorsOrigin("https://App.Example.test")).toBe("https://app.example.test");
    expect(parseCorsOrigin("http://app.example.test:3000/")).toBe("http://app.example.test:3000");
    expect(() => parseCorsOrigin("*")).toThrow(/any page/);
    expect(() => parseCorsOrigin("null")).toThrow(/any page/);
    for (const bad of ["app.example.test", "http://app.example.test/x", "ftp://app.example.test", ""])
      expect(() => parseCorsOrigin(bad)).toThrow(/not an origin/);
  });
});
