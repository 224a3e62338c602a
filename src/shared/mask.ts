// The one masking rule of every surface that prints what a server sent: dms (text, --json, GitHub
// outputs and summary) and the MCP server (text and structured content).
//
// - Secret values are hidden by structure: the `value` of each item of a `secrets` array, and the
//   value of a member that is a header echo of the key (`X-Api-Key`, `Authorization`).
// - What a server quotes back is hidden where it is quoted: in an error the server sent (its title,
//   detail, field errors, every string of its body) the API key and the secret values given are
//   replaced wherever they stand as a whole word, however short ("dev" in "the key dev is refused"),
//   and a member named exactly as the key loses its name (a header map quoted back).
// - Nothing else changes: a data value that merely equals the key or a secret (an enum value such
//   as `dev`, a name, a status) is data, byte for byte. Text a surface writes itself from data (a
//   table row, a progress line, "revision … DEPLOYED") is never masked, so it cannot lose a word.
//
// Browser-safe: nothing from Node.
export const MASKED = "***";

/**
 * How deep the masking walks: far deeper than any answer of the document (about ten levels), and far
 * from where recursion and JSON.stringify give out (a few thousand levels, a few kilobytes of `[`).
 */
export const MAX_WALK_DEPTH = 100;

/** Data a server sent nested deeper than MAX_WALK_DEPTH: no answer of the document, and not shown. */
export class NestedTooDeepError extends RangeError {
  override readonly name = "NestedTooDeepError";
  constructor() {
    super(`the service's answer nests objects and arrays more than ${MAX_WALK_DEPTH} levels deep, which no answer of the document does: it is not shown`);
  }
}

/**
 * Throws NestedTooDeepError when `value` nests objects and arrays more than MAX_WALK_DEPTH levels
 * deep; walks with its own stack, so that it is the check before anything recursive (JSON.stringify) sees it.
 */
export function checkNesting(value: unknown): void {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!;
    if (current === null || typeof current !== "object") continue;
    if (depth >= MAX_WALK_DEPTH) throw new NestedTooDeepError();
    for (const item of Array.isArray(current) ? current : Object.values(current)) stack.push([item, depth + 1]);
  }
}

/** What stands for a part of an error body nested deeper than MAX_WALK_DEPTH (an error's words are read from its top). */
const TOO_DEEP = `(nested more than ${MAX_WALK_DEPTH} levels deep: not shown)`;

/** Members whose value is a header echo of the key. */
const KEY_HEADERS = /^(x-api-key|authorization|proxy-authorization)$/i;
/** A character that continues a word: a value inside a longer word is another word. */
const WORD_CHAR = /[\p{L}\p{N}_-]/u;
/** Members of an error that the client wrote (the request it sent, the response object), not the server. */
const REQUEST_MEMBERS = new Set(["name", "method", "path", "response"]);

/** Sets a member so that one named __proto__ stays a member. */
function setMember(out: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
}

function replaceWholeWords(text: string, value: string): string {
  let out = "";
  let from = 0;
  for (let at = text.indexOf(value); at !== -1; at = text.indexOf(value, at + 1)) {
    if (at < from) continue;
    const before = text[at - 1];
    const after = text[at + value.length];
    const whole = (before === undefined || !WORD_CHAR.test(before)) && (after === undefined || !WORD_CHAR.test(after));
    if (!whole) continue;
    out += text.slice(from, at) + MASKED;
    from = at + value.length;
  }
  return out + text.slice(from);
}

/** A character as JSON writes it with every non-ASCII character escaped, in the hex case given. */
function asciiEscape(char: string, upper: boolean): string {
  const code = char.charCodeAt(0);
  const hex = code.toString(16).padStart(4, "0");
  return `\\u${upper ? hex.toUpperCase() : hex}`;
}

/**
 * The forms a value takes where a server quotes it inside its text: as it is; inside a JSON string
 * as JavaScript writes one; as encoders that write ASCII only write one (Python's json.dumps by
 * default, in lower-case hex, others in upper case: "pässword" as "p\u00e4ssword"); and with "/"
 * written "\/" (PHP's json_encode).
 */
function quotedForms(value: string): string[] {
  const json = JSON.stringify(value).slice(1, -1);
  const ascii = (upper: boolean) => json.replace(/[^\x00-\x7f]/g, (char) => asciiEscape(char, upper));
  const forms = [value, json, ascii(false), ascii(true)];
  return [...new Set([...forms, ...forms.map((form) => form.replace(/\//g, "\\/"))])];
}

export class Masker {
  private readonly keys = new Set<string>();
  private readonly secrets = new Set<string>();
  private readonly announced = new Set<string>();

  constructor(values: { keys?: readonly string[]; secrets?: readonly string[] } = {}) {
    for (const key of values.keys ?? []) this.addKey(key);
    for (const secret of values.secrets ?? []) this.addSecret(secret);
  }

  /** The API key: hidden where a server quotes it back. */
  addKey(value: string | undefined): void {
    if (value) this.keys.add(value);
  }

  /** A secret value sent (a `--secret`, a deploy's `secrets[].value`): hidden where a server quotes it back. */
  addSecret(value: string | undefined): void {
    if (value) this.secrets.add(value);
  }

  /** Every value given (keys and secrets), each once: for GitHub's `::add-mask::`, which hides them in the runner's log. */
  pendingMasks(): string[] {
    const fresh = [...this.keys, ...this.secrets].filter((v) => !this.announced.has(v));
    for (const v of fresh) this.announced.add(v);
    return fresh;
  }

  /** Text a server wrote (a problem's detail): every whole-word occurrence of the key or a secret replaced, longest first. */
  quoted(text: string): string {
    const forms = [...new Set([...this.keys, ...this.secrets].flatMap(quotedForms))].sort((a, b) => b.length - a.length);
    for (const form of forms) if (text.includes(form)) text = replaceWholeWords(text, form);
    return text;
  }

  /** Data a server sent, with secrets hidden by structure (see the top of this file); a copy. */
  data<T>(value: T): T {
    return this.walk(value, false) as T;
  }

  /** An error body a server sent (problem details or any JSON): data() plus quoted() on every string; a copy. */
  problem<T>(value: T): T {
    return this.walk(value, true) as T;
  }

  /**
   * An error as thrown by the client (an ApiError, or an error whose cause is one), with what the
   * server wrote in it quoted(): a copy of the same class, so instanceof still holds.
   */
  error<E>(error: E): E {
    if (typeof error !== "object" || error === null) return error;
    const copy = Object.create(Object.getPrototypeOf(error)) as Record<string, unknown>;
    for (const name of Object.getOwnPropertyNames(error)) {
      const descriptor = Object.getOwnPropertyDescriptor(error, name)!;
      if ("value" in descriptor) {
        const v = descriptor.value;
        if (name === "cause") descriptor.value = this.error(v);
        else if (REQUEST_MEMBERS.has(name)) descriptor.value = v;
        else if (typeof v === "string") descriptor.value = this.quoted(v);
        else if (typeof v === "object" && v !== null && !(v instanceof Error)) descriptor.value = this.problem(v);
      }
      Object.defineProperty(copy, name, descriptor);
    }
    return copy as E;
  }

  /**
   * A masked copy. Past MAX_WALK_DEPTH, data is refused (NestedTooDeepError, which every surface
   * reports as the service's error) and a part of an error body is replaced by a note, so that no
   * answer can overflow the stack here or in JSON.stringify afterwards.
   */
  private walk(v: unknown, quoted: boolean, member?: string, secretItem = false, depth = 0): unknown {
    if (typeof v === "string") {
      if (member !== undefined && KEY_HEADERS.test(member)) return MASKED;
      return quoted ? this.quoted(v) : v;
    }
    if (v === null || typeof v !== "object") return v;
    if (depth >= MAX_WALK_DEPTH) {
      if (quoted) return TOO_DEEP;
      throw new NestedTooDeepError();
    }
    if (Array.isArray(v)) return v.map((x) => this.walk(x, quoted, undefined, member === "secrets", depth + 1));
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) {
      // A member named as the key is a quote of it only in an error body: in data, names are the schema's.
      const name = quoted && this.keys.has(k) ? MASKED : k;
      setMember(out, name, this.walk(x, quoted, k, false, depth + 1));
    }
    // An item of a `secrets` array: its value is the secret.
    if (secretItem && typeof (v as { value?: unknown }).value === "string") setMember(out, "value", MASKED);
    return out;
  }
}
