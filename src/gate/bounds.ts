// Bounds on what one request may carry, so no request can make a local server unusable: a value
// nested thousands of levels deep overflows the stack of every later JSON.stringify of it, a huge
// string or array makes one stored revision hold megabytes, and JSON.parse reads 1e309 as
// Infinity, which JSON.stringify then writes as null. The bounds are far above anything a real
// deployment carries (Kubernetes objects nest about ten levels; a container list has a handful of
// entries). No Node imports.
import { escapePointerSegment } from "../shared/walk.js";
import type { FieldErrorCode } from "../shared/problems.js";

export interface RequestBounds {
  /** Bytes of a request body; a longer body is refused with 413 before it is read in full. */
  maxBodyBytes: number;
  /** Objects and arrays nested inside each other, the body itself counting as one. */
  maxDepth: number;
  /** UTF-16 code units of one string, property names included. */
  maxStringLength: number;
  /** Items of one array. */
  maxArrayItems: number;
  /** Properties of one object. */
  maxProperties: number;
}

export const REQUEST_BOUNDS: Readonly<RequestBounds> = Object.freeze({
  maxBodyBytes: 1024 * 1024,
  maxDepth: 32,
  maxStringLength: 64 * 1024,
  maxArrayItems: 1000,
  maxProperties: 1000,
});

/** How many bound violations one answer lists; a body breaking more bounds is refused all the same. */
export const MAX_BOUNDS_ERRORS = 20;

export interface BoundsError {
  /** JSON Pointer to the value (for a property name that is too long, to the property). */
  pointer: string;
  detail: string;
  code: FieldErrorCode;
}

/**
 * The bound violations of a parsed JSON value, in document order, at most MAX_BOUNDS_ERRORS.
 * A container that breaks a bound is reported once and not looked into.
 * Walks the value with its own stack, not recursion, and never below `maxDepth`: a value nested
 * 100,000 levels deep is checked in constant stack space and stops at the first too-deep level.
 */
export function checkJsonBounds(value: unknown, bounds: Readonly<RequestBounds> = REQUEST_BOUNDS): BoundsError[] {
  const errors: BoundsError[] = [];
  const stack: { value: unknown; pointer: string; depth: number }[] = [{ value, pointer: "", depth: 1 }];
  while (stack.length > 0 && errors.length < MAX_BOUNDS_ERRORS) {
    const { value: current, pointer, depth } = stack.pop()!;
    if (typeof current === "string") {
      if (current.length > bounds.maxStringLength) {
        errors.push({ pointer, code: "max_length", detail: `must NOT have more than ${bounds.maxStringLength} characters` });
      }
      continue;
    }
    if (typeof current === "number") {
      if (!Number.isFinite(current)) errors.push({ pointer, code: "not_finite", detail: "must be a finite number" });
      continue;
    }
    if (current === null || typeof current !== "object") continue;
    if (depth > bounds.maxDepth) {
      errors.push({ pointer, code: "too_deep", detail: `nests objects and arrays more than ${bounds.maxDepth} levels deep` });
      continue;
    }
    // Children are pushed in reverse so they come off the stack in document order.
    if (Array.isArray(current)) {
      if (current.length > bounds.maxArrayItems) {
        errors.push({ pointer, code: "max_items", detail: `must NOT have more than ${bounds.maxArrayItems} items` });
        continue;
      }
      for (let i = current.length - 1; i >= 0; i--) stack.push({ value: current[i], pointer: `${pointer}/${i}`, depth: depth + 1 });
      continue;
    }
    const keys = Object.keys(current);
    if (keys.length > bounds.maxProperties) {
      errors.push({ pointer, code: "max_properties", detail: `must NOT have more than ${bounds.maxProperties} properties` });
      continue;
    }
    if (keys.some((key) => key.length > bounds.maxStringLength)) {
      errors.push({ pointer, code: "max_length", detail: `has a property name longer than ${bounds.maxStringLength} characters` });
      continue;
    }
    for (let i = keys.length - 1; i >= 0; i--) {
      const key = keys[i]!;
      stack.push({ value: (current as Record<string, unknown>)[key], pointer: `${pointer}/${escapePointerSegment(key)}`, depth: depth + 1 });
    }
  }
  return errors;
}

/**
 * How long a client may take to send a request to a local server (ms): its headers, the whole
 * request, and how often that is checked. The Node servers set them on node:http
 * (src/local-server/listen.ts); the type lives here so that browser-safe option types can name it.
 */
export interface TimeBounds {
  headersTimeout: number;
  requestTimeout: number;
  connectionsCheckingInterval: number;
}
