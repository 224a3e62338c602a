// Secret values stay out of what an agent reads. Deployments come back with `***` for every secret
// value (an agent that needs one has it already; a model's context is no place for it), and, as a
// net for a service that repeats what it was sent (a problem detail quoting the request), the API
// key and the secret values of the call are replaced wherever they stand whole in a result: in its
// structured data first, and the JSON text that repeats that data is written again from the masked
// data (masking the text on its own would leave a short value inside the JSON text, and the two differ).
const MASK = "***";

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

/**
 * Replaces each value in text where it is not part of a longer word, however short: a key such as
 * "dev" that a service quotes in a problem detail is still the key (a word "dev" in a detail is
 * masked with it, a small price; "dev-agent" and "devices" are left alone).
 */
function maskText(text: string, values: readonly string[]): string {
  for (const value of values) {
    if (!text.includes(value)) continue;
    text = text.replace(new RegExp(`(?<![\\p{L}\\p{N}_-])${escapeRegExp(value)}(?![\\p{L}\\p{N}_-])`, "gu"), MASK);
  }
  return text;
}

/** The value with every string equal to one of `values` replaced, and the values masked inside text. */
function maskValues<T>(value: T, values: readonly string[]): T {
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

/**
 * A tool result with the values masked: structuredContent by whole values (and inside text), each
 * text block as text, except the block that is the structured data as JSON, which is written again
 * from the masked data so that the two stay the same.
 */
export function maskResult<T extends { content: { type: "text"; text: string }[]; structuredContent?: Record<string, unknown> }>(
  result: T,
  values: readonly string[],
): T {
  if (result.structuredContent === undefined) return maskValues(result, values);
  const json = JSON.stringify(result.structuredContent);
  const data = maskValues(result.structuredContent, values);
  const content = result.content.map((block) => (block.text === json ? { ...block, text: JSON.stringify(data) } : maskValues(block, values)));
  return { ...maskValues({ ...result, content: [], structuredContent: {} }, values), content, structuredContent: data };
}
