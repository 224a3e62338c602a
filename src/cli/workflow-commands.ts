// GitHub Actions workflow commands: `::name props::message` lines the runner reads from a step's
// output. Their data is escaped so that a value cannot end the command or start another one.

/** Escapes a workflow command's message: %, CR and LF would end or corrupt it. */
export function escapeMessage(text: string): string {
  return text.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
}

/** Escapes a property value (`title=...`): also the `:` and `,` that end it. */
export function escapeProperty(text: string): string {
  return escapeMessage(text).replace(/:/g, "%3A").replace(/,/g, "%2C");
}

/** The line that tells the runner to hide `value` everywhere in the job's log. */
export function addMask(value: string): string {
  return `::add-mask::${escapeMessage(value)}\n`;
}
