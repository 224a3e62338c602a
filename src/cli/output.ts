// Where dms writes: stdout for results (JSON lines with --json), stderr for diagnostics and the live
// spinner. Every line has its control characters escaped (text from the server cannot drive the
// terminal). Masking happens where server data enters (src/shared/mask.ts), not on lines: a line
// dms writes from data (a status, a name) must not lose a word that happens to equal the key. Colours and the spinner only on a terminal, never with NO_COLOR.
import type { Masker } from "../shared/mask.js";
import { jsonSafe, terminalSafe } from "./terminal-text.js";
import { addMask, maskForms } from "./workflow-commands.js";

export interface Stream {
  write(text: string): unknown;
  isTTY?: boolean;
}

export interface Io {
  stdout: Stream;
  stderr: Stream;
  env: NodeJS.ProcessEnv;
  /** The one masking rule (src/shared/mask.ts): what the server sent is masked before it is printed. */
  redactor: Masker;
}

// SGR codes written directly: util.styleText checks process.stdout on newer Node, not the stream written to.
const STYLES = { green: [32, 39], red: [31, 39], yellow: [33, 39], dim: [2, 22], bold: [1, 22] } as const;
export type Style = keyof typeof STYLES;

const SPINNER_FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];
const CLEAR_LINE = "\r\x1b[2K";

/** https://no-color.org: any non-empty NO_COLOR turns colours off; so do pipes and TERM=dumb. */
function colorsOn(stream: Stream, env: NodeJS.ProcessEnv): boolean {
  return stream.isTTY === true && !env.NO_COLOR && env.TERM !== "dumb";
}

/** "0.4s", "12.3s", "2m05s", "1h02m". */
export function formatElapsed(ms: number): string {
  const seconds = ms / 1000;
  if (seconds < 60) return `${seconds.toFixed(1)}s`;
  const whole = Math.floor(seconds);
  if (whole < 3600) return `${Math.floor(whole / 60)}m${String(whole % 60).padStart(2, "0")}s`;
  return `${Math.floor(whole / 3600)}h${String(Math.floor((whole % 3600) / 60)).padStart(2, "0")}m`;
}

export class Output {
  private spinner: { timer: NodeJS.Timeout; text: () => string; frame: number } | undefined;
  private readonly outColors: boolean;
  private readonly errColors: boolean;

  constructor(
    private readonly io: Io,
    readonly json: boolean,
  ) {
    this.outColors = colorsOn(io.stdout, io.env);
    this.errColors = colorsOn(io.stderr, io.env);
    // Commands make their Output once the key and the secrets are known, before printing anything:
    // on GitHub, the runner is told (on stderr, so stdout stays JSON lines) to hide each of them in
    // the job's log wherever they appear, once.
    if (io.env.GITHUB_ACTIONS === "true") {
      const forms = new Set(io.redactor.pendingMasks().flatMap(maskForms));
      for (const form of forms) io.stderr.write(addMask(form));
    }
  }

  /** A line on stdout (for people; with --json use event()). */
  line(text: string, style?: Style): void {
    this.clearSpinner();
    this.io.stdout.write(`${this.paint(terminalSafe(text), style, this.outColors)}\n`);
  }

  /**
   * A JSON line on stdout, as it is: what a machine reads is never masked by text. Data from the
   * service goes through `io.redactor.data()` first, which hides secrets where they are secrets.
   */
  event(value: object): void {
    this.io.stdout.write(`${jsonSafe(JSON.stringify(value))}\n`);
  }

  /** A diagnostic line on stderr. */
  diagnostic(text: string, style?: Style): void {
    this.clearSpinner();
    this.io.stderr.write(`${this.paint(terminalSafe(text), style, this.errColors)}\n`);
  }

  /** A live line on stderr, redrawn ten times a second, only on a terminal and not with --json. */
  startSpinner(text: () => string): void {
    if (this.json || this.io.stderr.isTTY !== true || this.spinner) return;
    const spinner = { frame: 0, text, timer: setInterval(() => this.drawSpinner(), 100) };
    spinner.timer.unref();
    this.spinner = spinner;
    this.drawSpinner();
  }

  stopSpinner(): void {
    if (!this.spinner) return;
    clearInterval(this.spinner.timer);
    this.clearSpinner();
    this.spinner = undefined;
  }

  private drawSpinner(): void {
    const spinner = this.spinner;
    if (!spinner) return;
    const frame = SPINNER_FRAMES[spinner.frame++ % SPINNER_FRAMES.length]!;
    this.io.stderr.write(`${CLEAR_LINE}${this.paint(frame, "dim", this.errColors)} ${terminalSafe(spinner.text())}`);
  }

  private clearSpinner(): void {
    if (this.spinner) this.io.stderr.write(CLEAR_LINE);
  }

  private paint(text: string, style: Style | undefined, on: boolean): string {
    if (!style || !on) return text;
    const [open, close] = STYLES[style];
    return `\x1b[${open}m${text}\x1b[${close}m`;
  }
}
