// Keeps secret values and the API key out of what dms writes, without touching anything else.
// dms never prints them itself (it does not echo the patch or the key); this is the net for text
// that repeats them, such as a server's problem detail. A value is masked only where it stands
// whole: as a whole JSON string value, or, in text, as a whole token (not next to a letter, digit,
// "_" or "-") and only when it is at least MIN_MASKED_LENGTH long. So `--secret FLAG=1` does not
// turn every "1" of an id into ***, and DMS_API_KEY=dev does not print `***_free`.
export const REDACTED = "***";

/** Shorter values are masked only as whole JSON string values: in text they are ordinary words and digits. */
export const MIN_MASKED_LENGTH = 6;

const TOKEN_CHAR = /[\p{L}\p{N}_-]/u;

export class Redactor {
  private readonly values = new Set<string>();

  /** Hides this value from now on. */
  add(value: string | undefined): void {
    if (value) this.values.add(value);
  }

  /** Text with every whole-token occurrence of a long enough value replaced by ***. */
  apply(text: string): string {
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

  /** A JSON value with every string equal to a secret (any length) replaced by ***, then the text rule. */
  value<T>(value: T): T {
    const walk = (v: unknown): unknown => {
      if (typeof v === "string") return this.values.has(v) ? REDACTED : v;
      if (Array.isArray(v)) return v.map(walk);
      if (v !== null && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
      return v;
    };
    return walk(value) as T;
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
