// A signal while dms works: the first SIGINT (Ctrl+C) or SIGTERM (what CI runners, GitLab and
// Kubernetes send to cancel) aborts the work, so that the command prints its result line, writes
// its outputs and the command that resumes, and exits 130 (SIGINT) or 143 (SIGTERM); a second
// signal exits at once.

/** The abort reason when a signal stopped the command. */
export class Interrupted extends Error {
  override readonly name = "Interrupted";
  constructor(readonly signal: "SIGINT" | "SIGTERM") {
    super(signal === "SIGINT" ? "interrupted by Ctrl+C (SIGINT)" : "stopped by SIGTERM");
  }

  /** 128 + the signal's number, as a shell reports a process the signal ended. */
  get exitCode(): number {
    return this.signal === "SIGINT" ? 130 : 143;
  }
}

export interface InterruptWatch {
  signal: AbortSignal;
  dispose(): void;
}

export function watchInterrupt(): InterruptWatch {
  const controller = new AbortController();
  const handlers = (["SIGINT", "SIGTERM"] as const).map((name) => {
    const handler = () => {
      if (controller.signal.aborted) process.exit(name === "SIGINT" ? 130 : 143);
      controller.abort(new Interrupted(name));
    };
    process.on(name, handler);
    return [name, handler] as const;
  });
  return {
    signal: controller.signal,
    dispose: () => {
      for (const [name, handler] of handlers) process.off(name, handler);
    },
  };
}
