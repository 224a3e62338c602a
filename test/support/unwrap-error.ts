// The ApiError that unwrap() throws for an error result; fails the test when it does not throw.
import { ApiError, unwrap } from "../../src/index.js";

export function unwrapError(result: Parameters<typeof unwrap>[0]): ApiError {
  try {
    unwrap(result);
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error("expected unwrap() to throw an ApiError, but it returned data");
}
