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

export const KNOWN_FINDINGS: KnownFinding[] = [
  {
    id: "413-undocumented",
    issue: "issue 19, Simulator: statuses the servers answer that the document does not list (413 for a large body)",
    matches: (_c, v) => v.invariant === "documented status" && detail(v, "status 413 is not documented"),
  },
  {
    id: "tenant-422-undocumented",
    issue: "issue 19, Simulator: statuses the servers answer that the document does not list (422 for a bad tenant header)",
    matches: (c, v) => v.invariant === "documented status" && detail(v, "status 422 is not documented") && /Tenant-Id/.test(c.mutation),
  },
  {
    id: "repeated-query-parameter",
    issue: "issue 19, Mock: a repeated single-valued query parameter gets 422 from the mock and 200 from the simulator",
    matches: (c, v) => v.invariant === "the mock and the simulator agree" && c.mutation.includes("sent twice"),
  },
  {
    id: "F1-broken-escape-400",
    issue: "issue 19, What to build 1 (the document lists every status; found by the generated tests, findings F1)",
    matches: (c, v) =>
      c.mutation.includes("broken escape") &&
      ((v.invariant === "documented status" && detail(v, "status 400 is not documented")) || v.invariant === "in-process and HTTP agree"),
  },
  {
    id: "F2-mock-empty-query-value",
    issue: "issue 19, What to build 1 (the mock answers like the simulator; found by the generated tests, findings F2)",
    matches: (c, v) =>
      v.server.startsWith("mock") &&
      /^query \w+=""$/.test(c.mutation) &&
      ["the mock and the simulator agree", "an invalid request is refused"].includes(v.invariant),
  },
  {
    id: "F3-mock-offset-past-int32",
    issue: "issue 19, What to build 1 (the mock answers like the simulator; found by the generated tests, findings F3)",
    matches: (_c, v) => v.server.startsWith("mock") && v.invariant === "documented body" && v.detail.includes('/offset must match format "int32"'),
  },
];

/** The known finding a violation belongs to, if any. */
export function knownFinding(c: Case, v: Violation): KnownFinding | undefined {
  return KNOWN_FINDINGS.find((k) => k.matches(c, v));
}
