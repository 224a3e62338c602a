// Types for scripts/prism-answers.mjs, so TypeScript tests can import it.
import type { Problem, ProblemFieldError } from "../dist/shared/types.js";
export interface PrismViolation {
  location: string[];
  severity: string;
  code: string | number;
  message: string;
}
export interface PrismViolations {
  /** The request's errors. */
  list: PrismViolation[];
  /** Prism cut the header: `list` holds the violations that were whole in what it kept. */
  truncated: boolean;
}
export interface PrismAnswer {
  status: number;
  problem?: { type?: string; detail?: string; [key: string]: unknown };
  /** Undefined when Prism sent no sl-violations header. */
  violations?: PrismViolations;
}
export interface MockRequest {
  method: string;
  path: string;
  contentType?: string;
  bodyWas: "empty" | "null" | "value";
}
export declare function requestViolations(header: string | string[] | undefined): PrismViolations | undefined;
export declare function fieldErrorsOf(violations: PrismViolation[], bodyWas: MockRequest["bodyWas"]): ProblemFieldError[];
export declare function isPrismError(answer: Pick<PrismAnswer, "problem">): boolean;
export declare function problemFor(answer: PrismAnswer, request: MockRequest): (Problem & { status: number }) | undefined;
