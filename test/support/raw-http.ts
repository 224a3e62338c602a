// One HTTP request sent exactly as a test writes it, over node:http: fetch will not let a test set
// Host, send a Content-Length the body disagrees with, or see the answer to an upload the server cut
// short. The tests that need that wrap this in the shape they read.
import { type IncomingHttpHeaders, request } from "node:http";

export interface RawRequest {
  method?: string;
  /** The request target; default the URL's own path and query. */
  path?: string;
  /** Exactly the headers sent; a `host` here replaces the one node:http would write. */
  headers?: Record<string, string>;
  body?: string | Buffer;
  /**
   * Write the body, then end the request, as a stream does: without a Content-Length header node:http
   * sends it chunked. Otherwise the body goes with the end, and node:http adds its Content-Length.
   */
  streamBody?: boolean;
  /**
   * The server may answer and close before the upload ends (a 413, say): a broken pipe or reset while
   * sending is then not an error, the answer is what counts.
   */
  answerMayCutUpload?: boolean;
}

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  /** The body as UTF-8 text. */
  text: string;
}

export function sendRaw(target: string | URL, options: RawRequest = {}): Promise<RawResponse> {
  const url = new URL(target);
  const headers = options.headers ?? {};
  return new Promise((resolve, reject) => {
    const req = request(
      {
        hostname: url.hostname,
        port: url.port,
        method: options.method ?? "GET",
        path: options.path ?? `${url.pathname}${url.search}`,
        headers,
        setHost: headers.host === undefined,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString("utf8") }));
        res.on("error", reject);
      },
    );
    req.on("error", (error: NodeJS.ErrnoException) => {
      if (options.answerMayCutUpload && (error.code === "EPIPE" || error.code === "ECONNRESET")) return;
      reject(error);
    });
    if (!options.streamBody) req.end(options.body);
    else {
      if (options.body !== undefined) req.write(options.body);
      req.end();
    }
  });
}
