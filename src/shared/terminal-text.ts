// Text for the terminal, one rule for dms and the MCP server (whose words a client shows in a
// terminal, or in the confirmation it asks a person for): control characters made visible, so that
// text from the server (a ref, a name, a problem's detail) cannot change the window title, clear the
// screen, ring the bell, forge a line or a table row, or reorder what is shown (bidi controls,
// "Trojan Source").

// C0 controls and DEL, C1 controls, the line and paragraph separators, the bidi controls (ALM, LRM,
// RLM, LRE..RLO, LRI..PDI), and a lone surrogate (no character: written out, it would become U+FFFD,
// where --json shows the same text as \ud800).
const UNSAFE =
  /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const NAMED: Record<string, string> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };

function escapeChar(char: string): string {
  const named = NAMED[char];
  if (named) return named;
  const code = char.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, "0").toUpperCase()}` : `\\u${code.toString(16).padStart(4, "0").toUpperCase()}`;
}

/** The text with every control, separator and bidi character written as an escape (`\x1B`, `\n`, `\u202E`). */
export function terminalSafe(text: string): string {
  return text.replace(UNSAFE, escapeChar);
}

/**
 * A JSON line with the characters JSON.stringify leaves raw but a terminal acts on (C1 controls,
 * separators, bidi controls) written as \u escapes: still the same JSON value.
 */
export function jsonSafe(json: string): string {
  return json.replace(UNSAFE, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/**
 * The lines a local server's command line prints for a usage error (the mock, dms-simulator,
 * `dms simulate`, `npm run docs`): its name, the message, and its usage line. The message quotes a
 * flag, a value or a path as typed, so it is shown by the rule above, never obeyed by the terminal.
 */
export function usageErrorLines(name: string, message: string, usage: string): string {
  return `${name}: ${terminalSafe(message)}\n${usage}`;
}
