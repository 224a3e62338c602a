// Keeps secret values (and the API key) out of everything dms writes: every line to stdout, stderr
// and the GitHub Actions files goes through one Redactor.
export const REDACTED = "***";

export class Redactor {
  private readonly values = new Set<string>();

  /** Hides this value, and its JSON-escaped form, from now on. */
  add(value: string | undefined): void {
    if (!value) return;
    this.values.add(value);
    this.values.add(JSON.stringify(value).slice(1, -1));
  }

  apply(text: string): string {
    // Longest first, so that a secret that contains another is hidden whole.
    const values = [...this.values].sort((a, b) => b.length - a.length);
    for (const value of values) text = text.split(value).join(REDACTED);
    return text;
  }
}
