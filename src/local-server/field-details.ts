// The `detail` of a field error, by JSON Schema keyword, in the words both local servers use: the
// simulator (from ajv's errors) and the mock's front (from the violations Prism reports, which are
// ajv's errors too). Keeping the wording here is what makes the two answer one mistake alike.
// No Node imports.

/** An unknown field, or one the document marks read-only or unchangeable in a patch body. */
export const UNKNOWN_FIELD_DETAIL = "is not a field that can be sent here (unknown, read-only or unchangeable)";
export const READ_ONLY_DETAIL = "is read-only and cannot be sent";
export const REQUIRED_DETAIL = "is required";
/** A required body that is missing or empty. */
export const BODY_REQUIRED_DETAIL = "the request body is required";

/** `must be one of "A", "B"`: the allowed values as JSON, so a string and a number look different. */
export function enumDetail(allowedValues: readonly unknown[]): string {
  return `must be one of ${allowedValues.map((v) => JSON.stringify(v)).join(", ")}`;
}

/**
 * The detail for one schema violation: fixed words for the keywords whose ajv message names
 * internals (`must NOT have additional properties`, `boolean schema is false`), ajv's own message
 * (`must be <= 100`, `must be integer`) for the rest.
 */
export function fieldDetail(keyword: string, ajvMessage: string | undefined, allowedValues?: readonly unknown[]): string {
  switch (keyword) {
    case "additionalProperties":
    case "unevaluatedProperties":
      return UNKNOWN_FIELD_DETAIL;
    case "false schema":
      return READ_ONLY_DETAIL;
    case "required":
      return REQUIRED_DETAIL;
    case "enum":
      if (allowedValues) return enumDetail(allowedValues);
      break;
  }
  return ajvMessage || keyword;
}
