// One reading of an incoming JSON-RPC message, for both transports of `dms mcp` (stdio and HTTP), so
// that every message gets an answer, as JSON-RPC 2.0 asks: the SDK's stdio transport drops what
// fails its own check (a line that is not JSON, a batch, a wrong `jsonrpc`) without a word, and a
// client would wait forever. Here:
// - not JSON: -32700, id null;
// - JSON but not a JSON-RPC 2.0 message: -32600, with its id when one can be read (else null);
// - JSON nested more than MAX_WALK_DEPTH levels (however deep): -32600 saying so;
// - a batch (a JSON array): one -32600 saying batches are not taken (MCP 2025-06-18 removed them);
// - an integer id past 2^53, which JavaScript numbers cannot hold: carried through the server as a
//   string that names its digits, and written back as those digits in every answer, so that any
//   JSON integer id is echoed exactly.
import { randomUUID } from "node:crypto";
import { ErrorCode, JSONRPCMessageSchema } from "@modelcontextprotocol/sdk/types.js";
import { checkNesting, MAX_WALK_DEPTH } from "../shared/mask.js";

/** What an integer id too large for a number becomes inside the server: this prefix, then its digits. */
const BIG_ID = `dms-mcp-integer-id:${randomUUID()}:`;
const BIG_ID_TEXT = new RegExp(`"${BIG_ID}(-?\\d+)"`, "g");

export type Reading = { ok: true; message: unknown } | { ok: false; code: number; message: string; id: string | number | null };

const TOO_DEEP = `invalid request: the message nests objects and arrays more than ${MAX_WALK_DEPTH} levels deep`;

export const BATCH_REFUSED = "invalid request: batches are not taken (MCP 2025-06-18 removed them): send each message on its own";

/** JSON.parse, with the top-level integer id that a number cannot hold kept as its digits (BIG_ID). */
function parseKeepingIds(text: string): unknown {
  const tagged = new Set<Record<string, unknown>>();
  const value: unknown = JSON.parse(text, function (this: Record<string, unknown>, key: string, item: unknown, context?: { source?: string }) {
    const source = context?.source;
    if (key === "id" && typeof item === "number" && !Number.isSafeInteger(item) && source !== undefined && /^-?\d+$/.test(source)) {
      tagged.add(this);
      return `${BIG_ID}${source}`;
    }
    return item;
  });
  // Only the message's own id is the request id: a member named id deeper down is data, left a number.
  for (const holder of tagged) {
    if (holder !== value) holder.id = Number(String(holder.id).slice(BIG_ID.length));
  }
  return value;
}

/** An id's JSON text (`7`, `"abc"`, `12345678901234567890`) as the server carries it, or null when it is not one. */
export function idFromJsonText(text: string): string | number | null {
  try {
    return readableId(parseKeepingIds(`{"id":${text}}`));
  } catch {
    return null;
  }
}

/** The id of a message that failed the check, when it has one of a request id's types. */
function readableId(message: unknown): string | number | null {
  if (typeof message !== "object" || message === null || Array.isArray(message) || !("id" in message)) return null;
  const id = message.id;
  return typeof id === "string" || (typeof id === "number" && Number.isInteger(id)) ? id : null;
}

/** Reads one message as text (a line, a body). */
export function readMessage(text: string): Reading {
  let message: unknown;
  try {
    message = parseKeepingIds(text);
  } catch (error) {
    // JSON nested past what the parser's reviver can recurse into is JSON all the same: said as such.
    if (error instanceof RangeError) return { ok: false, code: ErrorCode.InvalidRequest, message: TOO_DEEP, id: null };
    return { ok: false, code: ErrorCode.ParseError, message: "parse error: the message is not JSON", id: null };
  }
  try {
    // Before anything recursive (the SDK's schemas, JSON.stringify) walks it; no tool takes anything near.
    checkNesting(message);
  } catch {
    return { ok: false, code: ErrorCode.InvalidRequest, message: TOO_DEEP, id: readableId(message) };
  }
  if (Array.isArray(message)) return { ok: false, code: ErrorCode.InvalidRequest, message: BATCH_REFUSED, id: null };
  if (!JSONRPCMessageSchema.safeParse(message).success) {
    return {
      ok: false,
      code: ErrorCode.InvalidRequest,
      message:
        'invalid request: not a JSON-RPC 2.0 message ("jsonrpc": "2.0", and a method, or a result or an error, with an id that is a string or an integer)',
      id: readableId(message),
    };
  }
  return { ok: true, message };
}

/** The answer to a message that was refused, as one JSON text (its big id written back as digits). */
export function refusal(reading: Extract<Reading, { ok: false }>): string {
  return restoreIds(JSON.stringify({ jsonrpc: "2.0", id: reading.id, error: { code: reading.code, message: reading.message } }));
}

/** Outgoing text with each big id written back as the digits it came as. */
export function restoreIds(text: string): string {
  return text.includes(BIG_ID) ? text.replace(BIG_ID_TEXT, "$1") : text;
}
