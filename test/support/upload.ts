// A large request body streamed the way a client uploads one, for the tests that check a server
// refuses it (413) before reading it all: how many bytes had gone out when the answer came shows
// whether the server waited for the whole body.
import * as http from "node:http";

export interface UploadOptions {
  method: string;
  path: string;
  headers: Record<string, string>;
  /** Bytes of JSON-looking filler (spaces) to send. */
  total: number;
  /** With a Content-Length, or chunked. */
  framing: "length" | "chunked";
  agent?: http.Agent;
}

export interface UploadAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: any;
  /** Bytes sent when the answer arrived. */
  sentWhenAnswered: number;
}

/** Streams the body and stops sending once an answer arrives. Resolves to the answer and the bytes sent by then. */
export function upload(baseUrl: string, options: UploadOptions): Promise<UploadAnswer> {
  const url = new URL(baseUrl);
  const headers = { ...options.headers, ...(options.framing === "length" ? { "content-length": String(options.total) } : {}) };
  return new Promise((resolve, reject) => {
    const req = http.request({
      host: url.hostname,
      port: url.port,
      method: options.method,
      path: options.path,
      headers,
      ...(options.agent ? { agent: options.agent } : {}),
    });
    let sent = 0;
    let answered = false;
    req.on("response", (res) => {
      answered = true;
      const sentWhenAnswered = sent;
      const chunks: Buffer[] = [];
      res.on("data", (c) => chunks.push(c));
      res.on("end", () => {
        // A client that got its answer gives up the rest of the upload.
        req.destroy();
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: JSON.parse(Buffer.concat(chunks).toString("utf8")), sentWhenAnswered });
      });
    });
    // A server may close the connection after its answer; writing on is then refused, as expected.
    req.on("error", (error) => {
      if (!answered) reject(error);
    });
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    const write = () => {
      while (!answered && sent < options.total) {
        const piece = sent + chunk.length <= options.total ? chunk : chunk.subarray(0, options.total - sent);
        sent += piece.length;
        if (!req.write(piece)) {
          req.once("drain", write);
          return;
        }
      }
      if (!answered) req.end();
    };
    write();
  });
}
