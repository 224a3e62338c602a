// Secret values stay out of what an agent reads. Deployments come back with `***` for every secret
// value (an agent that needs one has it already; a model's context is no place for it), and, as a
// net for a service that repeats what it was sent (a problem detail quoting the request), the API
// key and the secret values of the call are replaced wherever they stand whole in a result.
export const MASK = "***";

/** Shorter values are masked only as whole string values: in text, "dev" is a word, not a key. */
const MIN_MASKED_IN_TEXT = 6;

/** A deployment (or anything with `secrets`) with its secret values replaced. */
export function withoutSecretValues<T>(value: T): T {
  if (typeof value !== "object" || value === null) return value;
  const secrets = (value as { secrets?: unknown }).secrets;
  if (!Array.isArray(secrets)) return value;
  return { ...value, secrets: secrets.map((s) => (typeof s === "object" && s !== null && "value" in s ? { ...s, value: MASK } : s)) };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Replaces each value in text where it is not part of a longer word. */
function maskText(text: string, values: readonly string[]): string {
  for (const value of values) {
    if (value.length < MIN_MASKED_IN_TEXT || !text.includes(value)) continue;
    text = text.replace(new RegExp(`(?<![\\p{L}\\p{N}_-])${escapeRegExp(value)}(?![\\p{L}\\p{N}_-])`, "gu"), MASK);
  }
  return text;
}

/** The value with every string equal to one of `values` replaced, and long values masked inside text. */
export function maskValues<T>(value: T, values: readonly string[]): T {
  const list = [...new Set(values.filter((v) => v !== ""))].sort((a, b) => b.length - a.length);
  if (list.length === 0) return value;
  const exact = new Set(list);
  const walk = (v: unknown): unknown => {
    if (typeof v === "string") return exact.has(v) ? MASK : maskText(v, list);
    if (Array.isArray(v)) return v.map(walk);
    if (typeof v === "object" && v !== null) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  return walk(value) as T;
}
