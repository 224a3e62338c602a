// The one call site for request bounds in the simulator: the body size read at most, and the checks
// a parsed body passes before schema validation (nesting depth, sizes, numbers that are not finite).
// The bounds are shared with the mock's front (src/local-server/bounds.ts), so both refuse alike.
import { checkJsonBounds, REQUEST_BOUNDS } from "../local-server/bounds.js";
import type { FieldError } from "./validate.js";

/** Bodies larger than this are refused with 413 before they are read in full. */
export const MAX_BODY_BYTES = REQUEST_BOUNDS.maxBodyBytes;

/** Field errors for a parsed body that is out of bounds; empty when it is within them. */
export function checkBodyBounds(value: unknown): FieldError[] {
  return checkJsonBounds(value);
}
