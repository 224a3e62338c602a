// The "Try it" consoles of the docs page: one under the heading of each operation Redoc renders,
// and one in the guide section, all answered by one simulator running in the page (the core, with
// nothing from Node), so the page sends nothing over the network. Redoc renders operations lazily
// and may re-render them: a MutationObserver puts each console (the same element, so what the reader
// typed stays) back where it belongs. Stable attributes for tests and tools: data-try-operation,
// data-try-param, data-try-body, data-try-send, data-try-response (data-status), data-try-advance,
// data-try-reset.
import { TERMINAL_REVISION_STATUSES } from "../../generated/constants.js";
import { headerValueProblem } from "../shared/header-value.js";
import { openApiDocument } from "../shared/document.js";
import { createSimulator, type Simulator } from "../simulator/core/index.js";
import { asClientCall, asCurl, type FilledRequest, headersOf, type ConsoleOperation, operationSpecs, targetOf } from "./requests.js";

const BASE_URL = String((openApiDocument as { servers?: { url?: string }[] }).servers?.[0]?.url ?? "https://api.example.com").replace(/\/+$/, "");
const GUIDE_SECTION = "section/deploy-and-follow-a-revision";
const STATEMENT =
  "Answers come from the simulator running inside this page: nothing is sent over the network (the page's policy forbids it). " +
  "What you change lasts until the page is closed; Reset returns to the seed.";

// The simulated clock: the real one while it runs, held still while paused.
let running = true;
let heldAt = 0;
let pausedFor = 0;
const now = () => (running ? Date.now() : heldAt) - pausedFor;

let simulator: Simulator | undefined;
const sim = () => (simulator ??= createSimulator({ now }));

function h<K extends keyof HTMLElementTagNameMap>(tag: K, attributes: Record<string, string> = {}, ...children: (Node | string)[]): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  element.append(...children);
  return element;
}

const clocks = new Set<HTMLElement>();
async function showClock(): Promise<void> {
  const { now: simulated } = await sim().status();
  for (const c of clocks) c.textContent = `simulated time ${simulated.replace("T", " ").replace(/\.\d+Z$/, " UTC")}`;
}

/** The clock and reset controls every console carries (they act on the one simulator). */
function clockBar(onChange: () => void): HTMLElement {
  const seconds = h("input", { type: "number", min: "0", step: "1", value: "10", "data-try-advance-seconds": "", "aria-label": "seconds to advance" });
  const advance = h("button", { type: "button", "data-try-advance": "" }, "Advance");
  const run = h("input", { type: "checkbox", "data-try-run": "" });
  run.checked = running;
  const reset = h("button", { type: "button", "data-try-reset": "" }, "Reset to the seed");
  const clock = h("span", { class: "try-clock", "data-try-clock": "" });
  clocks.add(clock);
  advance.addEventListener("click", async () => {
    const n = Number(seconds.value);
    try {
      await sim().advance(Number.isFinite(n) && n >= 0 ? n : 0);
    } catch (error) {
      clock.textContent = String((error as Error).message);
      return;
    }
    await showClock();
    onChange();
  });
  run.addEventListener("change", () => {
    if (run.checked === running) return;
    if (running) heldAt = Date.now();
    else pausedFor += Date.now() - heldAt;
    running = run.checked;
    for (const box of document.querySelectorAll<HTMLInputElement>("[data-try-run]")) box.checked = running;
    void showClock();
  });
  reset.addEventListener("click", async () => {
    await sim().reset();
    await showClock();
    onChange();
  });
  return h("div", { class: "try-clock-bar" }, h("label", {}, "Clock: advance ", seconds, " s "), advance, h("label", {}, run, " runs"), reset, clock);
}

function copyBlock(label: string, attribute: string): { element: HTMLElement; set: (text: string) => void } {
  const pre = h("pre", { [attribute]: "" });
  const copy = h("button", { type: "button", class: "try-copy" }, "Copy");
  copy.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(pre.textContent ?? "");
      copy.textContent = "Copied";
    } catch {
      // file:// pages may have no clipboard: select the text for Ctrl+C instead.
      getSelection()?.selectAllChildren(pre);
      copy.textContent = "Selected";
    }
    setTimeout(() => {
      copy.textContent = "Copy";
    }, 1500);
  });
  const element = h("div", { class: "try-sample" }, h("div", { class: "try-sample-head" }, h("span", {}, label), copy), pre);
  return { element, set: (text) => (pre.textContent = text) };
}

/** Formats an answer: the status line, the headers, the body (JSON indented). */
async function showAnswer(target: HTMLElement, response: Response, started: number): Promise<string> {
  const text = await response.text();
  let body = text;
  try {
    body = JSON.stringify(JSON.parse(text), null, 2);
  } catch {}
  const ms = Math.max(0, performance.now() - started).toFixed(1);
  const headers = [...response.headers].map(([k, v]) => `${k}: ${v}`).join("\n");
  target.replaceChildren(
    h(
      "p",
      { class: "try-status" },
      h("strong", {}, `${response.status} ${response.statusText || ""}`.trim()),
      ` answered by the in-page simulator in ${ms} ms`,
    ),
    h("pre", { class: "try-headers", "data-try-headers": "" }, headers),
    h("pre", { class: "try-body", "data-try-response-body": "" }, body),
  );
  target.dataset.status = String(response.status);
  target.hidden = false;
  return text;
}

const datalistIds = new Map<string, string>();
const datalistsByParam = new Map<string, Set<HTMLDataListElement>>();

/** The id of a <datalist> offering these values for this parameter (one list per parameter and set of values). */
function datalistFor(param: string, values: string[]): string {
  const key = `${param}\n${values.join("\n")}`;
  let id = datalistIds.get(key);
  if (!id) {
    id = `try-list-${datalistIds.size + 1}`;
    datalistIds.set(key, id);
    const list = h("datalist", { id }, ...values.map((value) => h("option", { value })));
    document.body.append(list);
    if (!datalistsByParam.has(param)) datalistsByParam.set(param, new Set());
    datalistsByParam.get(param)!.add(list);
  }
  return id;
}

/** Offers an id an answer named (a new revision, say) in every list of that parameter, after the seed's own (at most 100). */
function offer(param: string, value: string): void {
  for (const list of datalistsByParam.get(param) ?? []) {
    if (list.options.length >= 100 || [...list.options].some((o) => o.value === value)) continue;
    list.append(h("option", { value }));
  }
}

/** The consoles that ask for a revision by its deployment and id: each follows the newest revision made in the page. */
const revisionConsoles: { inputs: Map<string, HTMLInputElement>; refresh: () => void }[] = [];

/**
 * A PATCH in the page created a revision: every console that reads a revision now asks for that
 * one (its deployment too), so "Get a revision" shows what was just deployed instead of the seed's.
 */
function followNewRevision(deploymentId: string, revisionId: string): void {
  for (const { inputs, refresh } of revisionConsoles) {
    inputs.get("deployment_id")!.value = deploymentId;
    inputs.get("revision_id")!.value = revisionId;
    refresh();
  }
}

/** The path parameter an operation's answers hold ids of: /v2/deployments and /v2/deployments/{deployment_id} both give deployment_id. */
function idParameterOf(spec: ConsoleOperation, all: ConsoleOperation[]): string | undefined {
  const own = spec.path.match(/\/\{([^}]+)\}$/)?.[1];
  if (own) return own;
  for (const other of all) {
    const m = other.path.match(/\/\{([^}]+)\}$/);
    if (m && other.path === `${spec.path}/{${m[1]}}`) return m[1];
  }
  return undefined;
}

/** Offers the ids an answer holds: its resources' ids, and the revision ids a deployment names. */
function harvest(spec: ConsoleOperation, body: unknown): void {
  const idParam = idParameterOf(spec, specs);
  const visit = (value: unknown, depth: number) => {
    if (depth > 3 || !value || typeof value !== "object") return;
    if (Array.isArray(value)) {
      for (const item of value.slice(0, 100)) visit(item, depth + 1);
      return;
    }
    const record = value as Record<string, unknown>;
    if (idParam && typeof record.id === "string") offer(idParam, record.id);
    for (const key of ["latest_revision_id", "active_revision_id"]) if (typeof record[key] === "string") offer("revision_id", record[key] as string);
    for (const inner of Object.values(record)) if (inner && typeof inner === "object") visit(inner, depth + 1);
  };
  visit(body, 0);
}

/** A console for one operation. */
function operationConsole(spec: ConsoleOperation): HTMLElement {
  const inputs = new Map<string, HTMLInputElement>();
  const rows: HTMLElement[] = [];
  for (const p of spec.parameters) {
    const input = h("input", { type: "text", "data-try-param": p.name, name: p.name, spellcheck: "false", autocomplete: "off" });
    input.value = p.initial;
    if (p.placeholder) input.placeholder = p.placeholder;
    if (p.required) input.required = true;
    if (p.suggestions.length) input.setAttribute("list", datalistFor(p.name, p.suggestions));
    inputs.set(p.name, input);
    rows.push(
      h("label", { class: "try-param", title: p.description }, h("span", {}, h("code", {}, p.name), ` ${p.in}${p.required ? ", required" : ""}`), input),
    );
  }
  const body =
    spec.body === undefined ? undefined : h("textarea", { "data-try-body": "", rows: "8", spellcheck: "false", "aria-label": "request body (JSON)" });
  if (body) body.value = spec.body!;
  const send = h("button", { type: "button", class: "try-send", "data-try-send": "" }, `Send ${spec.method}`);
  const answer = h("div", { class: "try-answer", "data-try-response": "" });
  answer.hidden = true;
  const curl = copyBlock("curl", "data-try-curl");
  const client = copyBlock("TypeScript client", "data-try-client");
  const filled = (): FilledRequest => ({ spec, values: Object.fromEntries([...inputs].map(([k, i]) => [k, i.value.trim()])), body: body?.value });
  const refreshSamples = () => {
    const request = filled();
    curl.set(asCurl(request, BASE_URL));
    client.set(asClientCall(request, BASE_URL));
  };
  for (const input of [...inputs.values(), ...(body ? [body] : [])]) input.addEventListener("input", refreshSamples);
  refreshSamples();
  if (spec.method === "GET" && inputs.has("deployment_id") && inputs.has("revision_id")) revisionConsoles.push({ inputs, refresh: refreshSamples });
  send.addEventListener("click", async () => {
    const request = filled();
    // A header value fetch cannot send is the reader's to fix, said by name (not "could not be made").
    const unsendable = Object.entries(headersOf(request)).find(([, value]) => headerValueProblem(value) !== undefined);
    if (unsendable) {
      answer.replaceChildren(h("p", { class: "try-status" }, `${unsendable[0]} cannot be sent as a header: ${headerValueProblem(unsendable[1])}.`));
      answer.dataset.status = "error";
      answer.hidden = false;
      return;
    }
    send.disabled = true;
    const started = performance.now();
    try {
      const response = await sim().fetch(`${BASE_URL}${targetOf(request)}`, {
        method: spec.method,
        headers: headersOf(request),
        body: request.body,
      });
      const text = await showAnswer(answer, response, started);
      if (response.ok) {
        try {
          const answered = JSON.parse(text);
          harvest(spec, answered);
          if (spec.method === "PATCH" && typeof answered?.id === "string" && typeof answered?.latest_revision_id === "string") {
            followNewRevision(answered.id, answered.latest_revision_id);
          }
        } catch {}
      }
    } catch (error) {
      answer.replaceChildren(h("p", { class: "try-status" }, `The request could not be made: ${(error as Error).message}`));
      answer.dataset.status = "error";
      answer.hidden = false;
    } finally {
      send.disabled = false;
      void showClock();
    }
  });
  const details = h(
    "details",
    { class: "try-console", open: "", "data-try-operation": spec.operationId },
    h("summary", {}, `Try it: ${spec.method} ${spec.path}`),
    h("p", { class: "try-note" }, STATEMENT),
    h("div", { class: "try-params" }, ...rows),
    ...(body ? [h("label", { class: "try-body-label" }, "Body (JSON)", body)] : []),
    h("div", { class: "try-actions" }, send),
    answer,
    clockBar(() => {}),
    h("div", { class: "try-samples" }, curl.element, client.element),
  );
  return details;
}

/** The guide's console: PATCH, read latest_revision_id, then GET the revision until it ends. */
function guideConsole(patch: ConsoleOperation): HTMLElement {
  const id = h("input", { type: "text", "data-try-param": "deployment_id", spellcheck: "false" });
  const param = patch.parameters.find((p) => p.name === "deployment_id");
  id.value = param?.initial ?? "";
  if (param?.suggestions.length) id.setAttribute("list", datalistFor("deployment_id", param.suggestions));
  const body = h("textarea", { "data-try-body": "", rows: "3", spellcheck: "false", "aria-label": "patch body (JSON)" });
  body.value = JSON.stringify({ source_revision_config: { repo_ref: "release/2.5" } }, null, 2);
  const go = h("button", { type: "button", class: "try-send", "data-try-send": "" }, "Deploy and follow");
  const log = h("ol", { class: "try-log", "data-try-log": "" });
  const answer = h("div", { class: "try-answer", "data-try-response": "" });
  answer.hidden = true;
  const line = (text: string) => log.append(h("li", {}, text));
  const get = (path: string) => sim().fetch(`${BASE_URL}${path}`, { headers: { "X-Api-Key": "my-api-key" } });
  go.addEventListener("click", async () => {
    go.disabled = true;
    log.replaceChildren();
    try {
      const deploymentId = encodeURIComponent(id.value.trim());
      const started = performance.now();
      const patched = await sim().fetch(`${BASE_URL}/v2/deployments/${deploymentId}`, {
        method: "PATCH",
        headers: { "X-Api-Key": "my-api-key", "Content-Type": "application/json" },
        body: body.value,
      });
      const deployment = JSON.parse(await showAnswer(answer, patched, started));
      line(`PATCH /v2/deployments/${id.value.trim()} answered ${patched.status}`);
      if (!patched.ok) return;
      const revisionId = deployment.latest_revision_id;
      line(`latest_revision_id is ${revisionId}`);
      if (typeof revisionId === "string") {
        offer("revision_id", revisionId);
        if (typeof deployment.id === "string") followNewRevision(deployment.id, revisionId);
      }
      const { step_seconds } = await sim().status();
      let last = "";
      for (let polls = 0; polls < 60; polls++) {
        const revision = await get(`/v2/deployments/${deploymentId}/revisions/${encodeURIComponent(revisionId)}`);
        const read = await revision.json();
        if (read.status !== last) line(`GET the revision: ${read.status}`);
        last = read.status;
        if (!revision.ok || (TERMINAL_REVISION_STATUSES as readonly string[]).includes(read.status)) {
          await showAnswer(answer, new Response(JSON.stringify(read), { status: revision.status, headers: revision.headers }), started);
          break;
        }
        // What waitForRevision does between two polls, without the wait: the simulated clock moves on.
        await sim().advance(step_seconds);
        await new Promise((resolve) => setTimeout(resolve, 120));
      }
    } catch (error) {
      line(`Stopped: ${(error as Error).message}`);
    } finally {
      go.disabled = false;
      void showClock();
    }
  });
  return h(
    "details",
    { class: "try-console try-guide", open: "", "data-try-guide": "" },
    h("summary", {}, "Try it: deploy and follow a revision"),
    h("p", { class: "try-note" }, STATEMENT),
    h("div", { class: "try-params" }, h("label", { class: "try-param" }, h("span", {}, h("code", {}, "deployment_id"), " path, required"), id)),
    h("label", { class: "try-body-label" }, "Patch (JSON)", body),
    h("div", { class: "try-actions" }, go),
    log,
    answer,
    clockBar(() => {}),
  );
}

const STYLE = `
.try-console{margin:16px 0 24px;padding:12px 16px;border:1px solid #c9d3e0;border-radius:6px;background:#f7f9fc;font:14px/1.45 system-ui,sans-serif;color:#1f2933}
.try-console summary{cursor:pointer;font-weight:600;overflow-wrap:anywhere}
.try-note{margin:8px 0;color:#52606d;font-size:13px}
.try-params{display:grid;grid-template-columns:repeat(auto-fill,minmax(230px,1fr));gap:8px 12px;margin:8px 0}
.try-param{display:flex;flex-direction:column;gap:2px;font-size:12px;color:#52606d;min-width:0}
.try-param input,.try-clock-bar input[type=number]{font:13px ui-monospace,monospace;padding:4px 6px;border:1px solid #b8c4d3;border-radius:4px;min-width:0}
.try-clock-bar input[type=number]{width:70px}
.try-body-label{display:flex;flex-direction:column;gap:2px;font-size:12px;color:#52606d}
.try-console textarea{font:12px/1.4 ui-monospace,monospace;width:100%;box-sizing:border-box;padding:6px;border:1px solid #b8c4d3;border-radius:4px;resize:vertical}
.try-console button{font:13px system-ui,sans-serif;padding:4px 10px;border:1px solid #8a9bb0;border-radius:4px;background:#fff;cursor:pointer}
.try-console button.try-send{background:#1d4ed8;border-color:#1d4ed8;color:#fff;font-weight:600}
.try-console button:disabled{opacity:.6}
.try-actions{margin:8px 0}
.try-answer{margin:8px 0;border-top:1px solid #c9d3e0;padding-top:8px}
.try-console pre{margin:4px 0;padding:8px;background:#fff;border:1px solid #dde3ea;border-radius:4px;font:12px/1.4 ui-monospace,monospace;white-space:pre-wrap;overflow-wrap:anywhere;max-height:320px;overflow:auto}
.try-clock-bar{display:flex;flex-wrap:wrap;align-items:center;gap:8px;margin:8px 0;font-size:12px;color:#52606d}
.try-samples{display:grid;grid-template-columns:repeat(auto-fit,minmax(260px,1fr));gap:8px}
.try-sample-head{display:flex;justify-content:space-between;align-items:center;font-size:12px;color:#52606d}
.try-log{margin:8px 0;padding-left:20px;font:12px/1.5 ui-monospace,monospace}
`;

const specs = operationSpecs(openApiDocument);

function main(): void {
  const byId = new Map(specs.map((s) => [s.operationId.toLowerCase(), s]));
  const consoles = new Map<string, HTMLElement>();
  const consoleFor = (key: string, make: () => HTMLElement) => {
    let element = consoles.get(key);
    if (!element) {
      element = make();
      consoles.set(key, element);
    }
    return element;
  };
  document.head.append(h("style", {}, STYLE));

  const place = () => {
    for (const section of document.querySelectorAll<HTMLElement>('[data-item-kind="httpItem"][id]')) {
      const spec = byId.get(section.id.split("/").pop() ?? "");
      if (!spec) continue;
      const element = consoleFor(spec.operationId, () => operationConsole(spec));
      if (section.contains(element)) continue;
      // Beside the operation: in the right column, under the request samples; else under the heading.
      const samples = [...section.querySelectorAll('[data-testid="right-panel"]')].find(
        (panel) => panel.firstElementChild && panel.firstElementChild !== element,
      );
      const heading = section.querySelector('[data-testid="middle-panel"]')?.firstElementChild;
      if (samples) samples.firstElementChild!.after(element);
      else if (heading) heading.after(element);
      else section.append(element);
    }
    // The guide: after the section's text (Redoc wraps a description section in data-section-id).
    const guide = document.querySelector(`[data-section-id="/${GUIDE_SECTION}"]`);
    const patch = byId.get("patchdeployment");
    if (guide && patch) {
      const element = consoleFor("guide", () => guideConsole(patch));
      if (guide.lastElementChild !== element) guide.append(element);
    }
  };
  let queued = false;
  new MutationObserver(() => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => {
      queued = false;
      place();
    });
  }).observe(document.body, { childList: true, subtree: true });
  place();
  void showClock();
  setInterval(() => {
    if (running && clocks.size > 0) void showClock();
  }, 1000);
}

// After Redoc has hydrated its server-rendered page (its module script runs before this one; the
// hydration itself finishes in the tasks after), so React finds the markup it rendered.
if (document.readyState === "complete") setTimeout(main, 0);
else addEventListener("load", () => setTimeout(main, 0), { once: true });
