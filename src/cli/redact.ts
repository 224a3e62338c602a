// Keeps secret values and the API key out of what dms writes, without touching anything else. dms
// never prints them itself (it does not echo the patch or the key); this is the net for what a
// server repeats. Masking is by structure where a machine reads the output, by whole tokens only
// where a person does:
// - in data the service sent (list items, a problem's body), echo() hides the values of `secrets[]`,
//   a header echo of the key (an `X-Api-Key` or `Authorization` member), and a string that is
//   exactly a `--secret`/`--secret-from-env` value; keys and every other value stay byte for byte
//   (a problem's title, detail and field errors, sentences for people, are also masked as text);
// - dms's own fields (ids, statuses, event names, exit codes) and the GitHub step outputs are never
//   masked: a secret that happens to equal "DEPLOYED" or a field name must not change them;
// - text for people (text()) masks a value of at least MIN_MASKED_LENGTH characters where it stands
//   as a whole token, so `--secret FLAG=1` leaves the 1s of ids alone;
// - on GitHub, pendingMasks() gives each value once for `::add-mask::`, so the runner hides it in its
//   logs wherever it appears.
export const REDACTED = "***";

/** Shorter values are masked in text only as whole JSON values: in text they are ordinary words and digits. */
export const MIN_MASKED_LENGTH = 6;

const TOKEN_CHAR = /[\p{L}\p{N}_-]/u;
/** Members whose value is a header echo of the key. */
const KEY_HEADERS = /^(x-api-key|authorization|proxy-authorization)$/i;
/** Members of an error's JSON that come from the server's problem body. */
const SERVER_MEMBERS = new Set(["type", "title", "detail", "errors"]);

export class Redactor {
  /** Every value to keep out of text: the key and the secrets. */
  private readonly values = new Set<string>();
  /** The values of --secret and --secret-from-env: masked also as whole field values of echoed data. */
  private readonly secrets = new Set<string>();
  private readonly announced = new Set<string>();

  /** Hides this value (the API key) from text and from header echoes. */
  add(value: string | undefined): void {
    if (value) this.values.add(value);
  }

  /** Hides this secret value from text, and wherever echoed data holds it as a whole value. */
  addSecret(value: string | undefined): void {
    if (!value) return;
    this.values.add(value);
    this.secrets.add(value);
  }

  /** The values not yet given to `::add-mask::`, each once. */
  pendingMasks(): string[] {
    const fresh = [...this.values].filter((v) => !this.announced.has(v));
    for (const v of fresh) this.announced.add(v);
    return fresh;
  }

  /** Text for people with every whole-token occurrence of a long enough value replaced by ***. */
  text(text: string): string {
    const forms = new Set<string>();
    for (const value of this.values) {
      if (value.length < MIN_MASKED_LENGTH) continue;
      forms.add(value);
      // As it appears inside a JSON string.
      forms.add(JSON.stringify(value).slice(1, -1));
    }
    // Longest first, so that a secret that contains another is hidden whole.
    for (const value of [...forms].sort((a, b) => b.length - a.length)) text = replaceWhole(text, value);
    return text;
  }

  /** The same as text(): the name its callers (messages, annotations) have always used. */
  apply(text: string): string {
    return this.text(text);
  }

  /**
   * The --json `error` object: the members a server wrote (a problem's type, title, detail and field
   * errors) go through echo(), and as sentences for people also through text() (a detail that quotes
   * the request); the ones dms wrote (kind, status, method, path) stay as they are.
   */
  errorJson(json: Record<string, unknown>): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(json)) out[k] = SERVER_MEMBERS.has(k) ? this.echo(v, true) : v;
    return out;
  }

  /** Data the service sent, with its secrets hidden by structure (see the top of this file); a copy. */
  echo<T>(data: T, sentences = false): T {
    /** `secretItem`: v is an item of a `secrets` array, whose `value` is the secret. */
    const walk = (v: unknown, key: string | undefined, secretItem: boolean): unknown => {
      if (typeof v === "string") {
        if ((key !== undefined && KEY_HEADERS.test(key)) || this.secrets.has(v)) return REDACTED;
        return sentences ? this.text(v) : v;
      }
      if (Array.isArray(v)) return v.map((x) => walk(x, undefined, false));
      if (v === null || typeof v !== "object") return v;
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) {
        let value: unknown;
        if (secretItem && k === "value" && typeof x === "string") value = REDACTED;
        else if (k === "secrets" && Array.isArray(x)) value = x.map((item) => walk(item, undefined, true));
        else value = walk(x, k, false);
        // defineProperty: a member named __proto__ stays a member.
        Object.defineProperty(out, k, { value, enumerable: true, writable: true, configurable: true });
      }
      return out;
    };
    return walk(data, undefined, false) as T;
  }
}

function replaceWhole(text: string, value: string): string {
  let out = "";
  let from = 0;
  for (let at = text.indexOf(value); at !== -1; at = text.indexOf(value, at + 1)) {
    if (at < from) continue;
    const before = text[at - 1];
    const after = text[at + value.length];
    const whole = (before === undefined || !TOKEN_CHAR.test(before)) && (after === undefined || !TOKEN_CHAR.test(after));
    if (!whole) continue;
    out += text.slice(from, at) + REDACTED;
    from = at + value.length;
  }
  return out + text.slice(from);
}
