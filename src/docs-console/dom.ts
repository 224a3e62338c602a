// The few DOM helpers every console is made of: an element with its attributes and children, a
// sample block with a Copy button, and an answer shown as status line, headers and body.

/** An element with these attributes and children. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Record<string, string> = {},
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  element.append(...children);
  return element;
}

/** A labelled <pre> whose text can be set and copied (or selected, where the page has no clipboard). */
export function copyBlock(label: string, attribute: string): { element: HTMLElement; set: (text: string) => void } {
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
export async function showAnswer(target: HTMLElement, response: Response, started: number): Promise<string> {
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
