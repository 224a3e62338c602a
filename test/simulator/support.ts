// Helpers for the simulator tests: a started simulator and small fetch wrappers.
import { startSimulator, type RunningSimulator, type SimulatorOptions } from "../../src/simulator/node/index.js";

export const API_KEY = "test-key";

export interface Answer {
  status: number;
  contentType: string;
  body: any;
}

export class Client {
  constructor(
    readonly url: string,
    readonly headers: Record<string, string> = { "x-api-key": API_KEY },
    /** The global fetch over HTTP, or a simulator's own fetch in-process. */
    readonly fetch: (input: string, init?: RequestInit) => Promise<Response> = globalThis.fetch,
  ) {}

  async request(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
    const init: RequestInit = { method, headers: { ...this.headers, ...headers } };
    // The control API takes JSON only, also for a POST without a body.
    if (body !== undefined || method === "POST") (init.headers as Record<string, string>)["content-type"] ??= "application/json";
    if (body !== undefined) init.body = typeof body === "string" ? body : JSON.stringify(body);
    const send = this.fetch;
    const response = await send(this.url + path, init);
    const text = await response.text();
    return { status: response.status, contentType: response.headers.get("content-type") ?? "", body: text ? JSON.parse(text) : undefined };
  }

  get(path: string, headers?: Record<string, string>) {
    return this.request("GET", path, undefined, headers);
  }

  patch(path: string, body: unknown, headers?: Record<string, string>) {
    return this.request("PATCH", path, body, headers);
  }

  /** GET that must succeed; returns the body. */
  async ok(path: string, headers?: Record<string, string>): Promise<any> {
    const answer = await this.get(path, headers);
    if (answer.status !== 200) throw new Error(`GET ${path} -> ${answer.status} ${JSON.stringify(answer.body)}`);
    return answer.body;
  }

  async advance(seconds: number): Promise<void> {
    const answer = await this.request("POST", "/_simulator/advance", { seconds });
    if (answer.status !== 200) throw new Error(`advance -> ${answer.status}`);
  }

  /** Every deployment, walking the pages. */
  async allDeployments(query = "", limit = 100, headers?: Record<string, string>): Promise<any[]> {
    const out: any[] = [];
    for (let offset = 0; ; ) {
      const page = await this.ok(`/v2/deployments?limit=${limit}&offset=${offset}${query ? `&${query}` : ""}`, headers);
      out.push(...page.resources);
      offset = page.offset;
      if (page.resources.length < limit) return out;
    }
  }
}

export async function startTestSimulator(options: SimulatorOptions = {}): Promise<{ simulator: RunningSimulator; client: Client }> {
  const simulator = await startSimulator({ port: 0, quiet: true, ...options });
  return { simulator, client: new Client(simulator.url) };
}
