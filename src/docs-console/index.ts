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
import { clockBar, clocks, running, showClock, sim } from "./clock.js";
import { copyBlock, h, showAnswer } from "./dom.js";
import { datalistFor, followNewRevision, followRevisions, harvest, offer } from "./id-suggestions.js";
import { STYLE } from "./style.js";
import { asClientCall, asCurl, type FilledRequest, headersOf, type ConsoleOperation, operationSpecs, targetOf } from "./requests.js";

const BASE_URL = String((openApiDocument as { servers?: { url?: string }[] }).servers?.[0]?.url ?? "https://api.example.com").replace(/\/+$/, "");
const GUIDE_SECTION = "section/deploy-and-follow-a-revision";
const STATEMENT =
  "Answers come from the simulator running inside this page: nothing is sent over the network (the page's policy forbids it). " +
  "What you change lasts until the page is closed; Reset returns to the seed.";

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
  if (spec.method === "GET" && inputs.has("deployment_id") && inputs.has("revision_id")) followRevisions({ inputs, refresh: refreshSamples });
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
          harvest(spec, specs, answered);
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
