// Path parameters, each kept inside its own segment: the value is percent-encoded (so "/", "?",
// "#" and "%" stay data), and the values that no encoding keeps in place are refused with a
// TypeError before anything is sent: "" (the segment disappears: /v2/deployments/ is the list),
// "." and ".." (URL parsers remove or climb them even as %2E: `agent_id: ".."` would request
// /v2/auth/connections), and anything but a string or a finite number.

const PLACEHOLDER = /\{([^{}]+)\}/g;
const DOT_SEGMENT = /^(?:\.|%2e){1,2}$/i;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * The text of one path parameter, before encoding, or a TypeError naming the parameter: the one
 * rule for a path parameter, read by the client before it sends and by createQueries before it
 * makes a query key (so a value the client would refuse never becomes a key).
 */
export function pathParameterText(name: string, value: unknown): string {
  if (value === undefined) throw new TypeError(`path parameter ${name} is missing`);
  const text = typeof value === "string" ? value : typeof value === "number" && Number.isFinite(value) ? String(value) : undefined;
  if (text === undefined) throw new TypeError(`path parameter ${name} must be a string, got ${value === null ? "null" : typeof value}`);
  if (text === "") throw new TypeError(`path parameter ${name} must not be empty`);
  // encodeURIComponent cannot encode a lone surrogate (it throws a URIError).
  if (LONE_SURROGATE.test(text)) throw new TypeError(`path parameter ${name} must be well-formed Unicode (it has a lone surrogate)`);
  if (DOT_SEGMENT.test(text)) throw new TypeError(`path parameter ${name} must not be ${JSON.stringify(text)}: it would leave its path segment`);
  return text;
}

/** openapi-fetch's pathSerializer: every `{name}` replaced by its encoded value; a missing one is a TypeError. */
export function serializePath(pathname: string, values: Record<string, unknown>): string {
  return pathname.replace(PLACEHOLDER, (_whole, name: string) => {
    return encodeURIComponent(pathParameterText(name, name in values ? values[name] : undefined));
  });
}
