// The MCP server over this process's stdin and stdout, as `dms mcp` runs it. stdout carries only
// the protocol; the server ends when the client closes stdin. Messages are bounded as over HTTP
// (1 MiB): a longer line is dropped as it streams in, never held whole, and answered with an
// error (the SDK's own reader would hold up to 10 MB and then close the session, ending dms mcp).
import { Transform, Writable } from "node:stream";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { REQUEST_BOUNDS } from "../gate/bounds.js";
import { idFromJsonText, readMessage, refusal, restoreIds } from "./framing.js";
import { createMcpServer, type McpServerOptions } from "./server.js";

/** The most bytes one message (a line) may have: the same bound as a request body over HTTP. */
const MAX_MESSAGE_BYTES = REQUEST_BOUNDS.maxBodyBytes;

/** How much of a dropped line's start and end is kept to find its id. */
const EDGE_BYTES = 256;
const ID = String.raw`"id"\s*:\s*(-?\d{1,200}|"(?:[^"\\]|\\.){0,200}")`;
/** The id as a top-level member at the start of a message or at its end (the SDK's client writes it last). */
const ID_AT_START = new RegExp(String.raw`^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?${ID}`);
const ID_AT_END = new RegExp(String.raw`${ID}\s*\}\s*$`);

/** The request id of a message seen only by its ends, or null when it cannot be told. */
export function idOfEdges(head: string, tail: string): string | number | null {
  const found = ID_AT_START.exec(head) ?? ID_AT_END.exec(tail);
  return found ? idFromJsonText(found[1]!) : null;
}

/**
 * Passes stdin's lines of at most `maxBytes` bytes through whole; a longer line is dropped while it
 * streams (only its first and last bytes are kept) and reported with the id it carried, if any.
 */
export function boundedLines(
  maxBytes: number,
  tooLarge: (id: string | number | null) => void,
  /** What to pass on for a whole line (a message, or undefined to pass nothing); by default the line itself. */
  onLine: (line: Buffer) => Buffer | undefined = (line) => line,
): Transform {
  let pending: Buffer[] = [];
  let size = 0;
  let dropping = false;
  let head = "";
  let tail: Buffer = Buffer.alloc(0);
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      let start = 0;
      while (start < chunk.length) {
        const newline = chunk.indexOf(10, start);
        const end = newline === -1 ? chunk.length : newline + 1;
        const piece = chunk.subarray(start, end);
        if (dropping) {
          tail = Buffer.concat([tail, piece]).subarray(-EDGE_BYTES);
        } else if (size + piece.length - (newline === -1 ? 0 : 1) > maxBytes) {
          const seen = Buffer.concat([...pending, piece]);
          head = seen.subarray(0, EDGE_BYTES).toString("utf8");
          tail = seen.subarray(-EDGE_BYTES);
          pending = [];
          size = 0;
          dropping = true;
        } else {
          pending.push(piece);
          size += piece.length;
        }
        if (newline !== -1) {
          if (dropping) {
            tooLarge(idOfEdges(head, tail.toString("utf8")));
            dropping = false;
            head = "";
            tail = Buffer.alloc(0);
          } else {
            const passed = onLine(Buffer.concat(pending));
            if (passed) this.push(passed);
            pending = [];
            size = 0;
          }
        }
        start = end;
      }
      done();
    },
  });
}

/**
 * Each line checked as one JSON-RPC message (framing.ts): a message the SDK would drop unanswered
 * (not JSON, a batch, not JSON-RPC) is answered here with its error, and passes no further; a blank
 * line is no message and is skipped. The rest goes on as JSON, a big integer id carried as a string.
 */
function checkedLine(answer: (text: string) => void): (line: Buffer) => Buffer | undefined {
  return (line) => {
    const text = line.toString("utf8");
    if (text.trim() === "") return undefined;
    const reading = readMessage(text);
    if (!reading.ok) {
      answer(refusal(reading));
      return undefined;
    }
    return Buffer.from(`${JSON.stringify(reading.message)}\n`);
  };
}

/** Serves until stdin ends; resolves once connected. */
export async function serveStdio(options: McpServerOptions & { log?: (line: string) => void }): Promise<{ close(): Promise<void> }> {
  const { log, ...serverOptions } = options;
  const server = createMcpServer(serverOptions);
  // Everything written goes through here, the SDK's answers and this file's own, so that a big id
  // is written back as its digits and lines never interleave.
  const output = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      if (process.stdout.write(restoreIds(chunk.toString()))) done();
      else process.stdout.once("drain", () => done());
    },
  });
  const answer = (text: string) => output.write(`${text}\n`);
  const input = boundedLines(
    MAX_MESSAGE_BYTES,
    (id) => {
      const message = `a message larger than ${MAX_MESSAGE_BYTES} bytes (1 MiB) was dropped unread: this server reads messages up to that size`;
      answer(refusal({ ok: false, code: -32600, message, id }));
      log?.(`dms mcp: ${message}`);
    },
    checkedLine(answer),
  );
  process.stdin.pipe(input);
  const transport = new StdioServerTransport(input, output);
  await server.connect(transport);
  // The client closing stdin is the end of the session: in-flight calls are aborted with it.
  process.stdin.once("end", () => void server.close());
  return server;
}
