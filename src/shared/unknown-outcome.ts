// The words for a change whose outcome is unknown: a PATCH was sent and no complete answer came
// back (it timed out, or its connection was cut). The service may have applied it and created a
// revision, so sending it again could deploy twice. dms and the MCP server say it alike, each
// naming its own way to check.

/** "the patch may have been applied: check with <how>", the sentence both surfaces use. */
export function patchMayHaveBeenApplied(howToCheck: string): string {
  return `the patch may have been applied: check with ${howToCheck}`;
}
