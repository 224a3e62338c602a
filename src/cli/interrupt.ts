// Ctrl+C while dms waits: the first SIGINT aborts the work so the command can print how to resume
// and exit 130; a second one exits at once.

/** The abort reason when SIGINT stopped the command. */
export class Interrupted extends Error {
  override readonly name = "Interrupted";
  constructor() {
    super("interrupted by Ctrl+C");
  }
}

export interface InterruptWatch {
  signal: AbortSignal;
  dispose(): void;
}

export function watchInterrupt(): InterruptWatch {
  const controller = new AbortController();
  const onSigint = () => {
    if (controller.signal.aborted) process.exit(130);
    controller.abort(new Interrupted());
  };
  process.on("SIGINT", onSigint);
  return { signal: controller.signal, dispose: () => process.off("SIGINT", onSigint) };
}
