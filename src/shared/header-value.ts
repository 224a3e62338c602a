// What a header value may hold, checked where a value enters (a flag, a variable, an option), so a
// value that cannot be sent is refused as the caller's mistake before anything is sent, instead of
// failing inside fetch as if the network had. The rule is Node's (the strictest of fetch and
// node:http): tab, visible ASCII and space, and the bytes 0x80-0xFF (a header is bytes, so nothing
// above U+00FF); no whitespace at either end, which fetch would strip and send a different value.

/** Why `value` cannot be sent as a header value, or undefined when it can. Never quotes the value. */
export function headerValueProblem(value: string): string | undefined {
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c === 0x09 || (c >= 0x20 && c <= 0x7e) || (c >= 0x80 && c <= 0xff)) continue;
    const at = `U+${c.toString(16).toUpperCase().padStart(4, "0")} at position ${i + 1}`;
    if (c === 0x0a || c === 0x0d) return `it contains a line break (${at})`;
    if (c === 0x00) return `it contains a NUL character (${at})`;
    if (c < 0x20 || c === 0x7f) return `it contains a control character (${at})`;
    return `it contains a character a header cannot carry (${at}; only bytes up to U+00FF)`;
  }
  if (/^[\t ]|[\t ]$/.test(value)) return "it starts or ends with a space or a tab";
  return undefined;
}

/** Why `value` cannot be part of a URL as given (fetch's parser would drop or change it), or undefined. */
export function urlProblem(value: string): string | undefined {
  // The URL parser removes tabs and line breaks anywhere and trims other control characters and
  // spaces at the ends: the request would go somewhere else than the value says.
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c < 0x20 || c === 0x7f) return `it contains a control character (U+${c.toString(16).toUpperCase().padStart(4, "0")} at position ${i + 1})`;
  }
  if (/^\s|\s$/.test(value)) return "it starts or ends with whitespace";
  return undefined;
}

/**
 * The ports fetch never connects to (the Fetch standard's "bad port" list: services such as SMTP,
 * SSH and IRC that a request could be smuggled into). A URL on one fails inside fetch as "bad port",
 * which reads as a network failure; it is the value's fault, and is refused where it enters.
 */
const FETCH_BAD_PORTS: ReadonlySet<number> = new Set([
  1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95, 101, 102, 103, 104, 109, 110, 111, 113, 115, 117, 119, 123, 135, 137,
  139, 143, 161, 179, 389, 427, 465, 512, 513, 514, 515, 526, 530, 531, 532, 540, 548, 554, 556, 563, 587, 601, 636, 989, 990, 993, 995, 1719, 1720, 1723, 2049,
  3659, 4045, 4190, 5060, 5061, 6000, 6566, 6665, 6666, 6667, 6668, 6669, 6679, 6697, 10080,
]);

/** Why fetch would refuse to connect to `url`'s port, or undefined when it would try. */
export function fetchPortProblem(url: URL): string | undefined {
  // Port 0 means "any free port" to a server that listens; no server is reached on it.
  if (url.port === "0") return "port 0 is not a port a server can be reached on (a server given port 0 listens on a free port it picks; use the one it prints)";
  return url.port !== "" && FETCH_BAD_PORTS.has(Number(url.port))
    ? `port ${url.port} is one of the Fetch standard's "bad ports", such as 22, 25 and 6000, which fetch never connects to`
    : undefined;
}

/**
 * Why `value` cannot be an API key, or undefined when it can: the one rule for every place a key
 * enters (the simulator's `apiKeys`, the Vite plugin's `defaultApiKey`). A key is a non-empty string
 * that can be sent as the X-Api-Key header; the reason never quotes it.
 */
export function apiKeyProblem(value: unknown): string | undefined {
  if (typeof value !== "string" || value.trim() === "") return "must be a non-empty string";
  const problem = headerValueProblem(value);
  return problem ? `cannot be sent as an X-Api-Key header: ${problem} (the key is not shown)` : undefined;
}
