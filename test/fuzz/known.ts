// Findings of the generated tests that are not fixed yet, each narrowed to the case it is about,
// named and tied to its issue line (the findings are described in docs/reliability.md and the
// team's findings note). A violation that matches one is counted and reported, not failed; every
// other one fails the property. Remove an entry when its fix lands: the property then checks that
// case again, and test/fuzz/known.test.ts fails for an entry that no longer matches anything.
import type { Violation } from "./check.js";
import type { Case } from "./requests.js";

export interface KnownFinding {
  id: string;
  /** The issue and its line this finding belongs to. */
  issue: string;
  matches(c: Case, v: Violation): boolean;
}

const detail = (v: Violation, prefix: string) => v.detail.startsWith(prefix);

// Fixed since they were found (their shrunk cases are regression tests in requests.test.ts):
// 413-undocumented, tenant-422-undocumented, repeated-query-parameter, F2-mock-empty-query-value,
// F3-mock-offset-past-int32.

export const KNOWN_FINDINGS: KnownFinding[] = [
  {
    id: "F1-broken-escape-400",
    issue: "issue 19, What to build 1 (the document lists every status; found by the generated tests, findings F1)",
    matches: (c, v) =>
      c.mutation.includes("broken escape") &&
      ((v.invariant === "documented status" && detail(v, "status 400 is not documented")) || v.invariant === "in-process and HTTP agree"),
  },
  {
    id: "F4-mock-empty-enum-array-query",
    issue: "issue 19, What to build 1 (the mock answers like the simulator; found by the generated tests, findings F4)",
    matches: (c, v) =>
      v.server.startsWith("mock") &&
      c.mutation === 'query status=""' &&
      ["the mock and the simulator agree", "an invalid request is refused"].includes(v.invariant),
  },
];

/** The known finding a violation belongs to, if any. */
export function knownFinding(c: Case, v: Violation): KnownFinding | undefined {
  return KNOWN_FINDINGS.find((k) => k.matches(c, v));
}
