// Sends one generated case to every server and lists what it broke: the invariants of every answer
// (oracle.ts), what the case's expectation asks, and agreement between the servers (the simulator
// in-process and over HTTP always; the mock and the simulator on the validation classes).
import type { Case } from "./requests.js";
import { checkAnswer, problemType } from "./oracle.js";
import type { Answer, Target, WireRequest } from "./targets.js";

export interface Violation {
  server: string;
  invariant: string;
  detail: string;
}

export interface Servers {
  inProcess: Target;
  http: Target;
  mock?: Target;
}

/** The statuses of refusals both servers decide from the request alone: there the mock and the simulator must agree. */
export const VALIDATION_STATUSES = new Set([400, 401, 405, 413, 415, 422]);

async function answerOf(target: Target, request: WireRequest, violations: Violation[]): Promise<Answer | undefined> {
  try {
    return await target.send(request);
  } catch (error) {
    const alive = await target.alive().catch(() => false);
    violations.push({
      server: target.name,
      invariant: alive ? "no answer" : "crash",
      detail: `${(error as Error).message}${alive ? "" : "; the server no longer answers"}`,
    });
    return undefined;
  }
}

const describe = (a: Answer) => `${a.status} ${problemType(a) ?? a.contentType}`;

export async function runCase(c: Case, servers: Servers): Promise<{ violations: Violation[]; answers: Record<string, Answer | undefined> }> {
  const violations: Violation[] = [];
  const answers: Record<string, Answer | undefined> = {};
  const targets = [servers.inProcess, servers.http, ...(servers.mock ? [servers.mock] : [])];
  for (const target of targets) {
    const original = c.original ? await answerOf(target, c.original, violations) : undefined;
    const answer = await answerOf(target, c, violations);
    answers[target.name] = answer;
    if (!answer) continue;
    for (const broken of checkAnswer(c.operationId, c.method, answer)) {
      violations.push({
        server: target.name,
        invariant: broken.startsWith("5xx") ? "no 5xx" : broken.startsWith("status") ? "documented status" : "documented body",
        detail: `${broken}; body: ${answer.text.slice(0, 300)}`,
      });
    }
    // The mock is stateless: an id that names nothing still gets the example (200).
    if (c.expect === "valid" && answer.status !== 200 && answer.status !== 404) {
      violations.push({ server: target.name, invariant: "a valid request is accepted", detail: `${describe(answer)}: ${answer.text.slice(0, 300)}` });
    }
    if (c.expect === "invalid" && (answer.status < 400 || answer.status >= 500 || answer.status === 404)) {
      violations.push({ server: target.name, invariant: "an invalid request is refused", detail: `${describe(answer)}: ${answer.text.slice(0, 200)}` });
    }
    if (c.expect === "equivalent" && original && original.status !== answer.status) {
      violations.push({
        server: target.name,
        invariant: "an equivalent request is answered alike",
        detail: `original ${describe(original)}, this ${describe(answer)}: ${answer.text.slice(0, 200)}`,
      });
    }
  }
  const inProcess = answers[servers.inProcess.name];
  const overHttp = answers[servers.http.name];
  // Dot segments (also %2e) included: the WHATWG URL parser removes them in-process, the gate over HTTP (docs/reliability.md).
  if (inProcess && overHttp && (inProcess.status !== overHttp.status || problemType(inProcess) !== problemType(overHttp))) {
    violations.push({ server: "simulator", invariant: "in-process and HTTP agree", detail: `in-process ${describe(inProcess)}, HTTP ${describe(overHttp)}` });
  }
  const mock = servers.mock && answers[servers.mock.name];
  if (mock && overHttp && (VALIDATION_STATUSES.has(mock.status) || VALIDATION_STATUSES.has(overHttp.status))) {
    if (mock.status !== overHttp.status || problemType(mock) !== problemType(overHttp)) {
      violations.push({
        server: "mock vs simulator",
        invariant: "the mock and the simulator agree",
        detail: `mock ${describe(mock)}, simulator ${describe(overHttp)}; mock: ${mock.text.slice(0, 200)}; simulator: ${overHttp.text.slice(0, 200)}`,
      });
    }
  }
  return { violations, answers };
}
