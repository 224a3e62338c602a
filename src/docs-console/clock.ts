// The one simulator of the page and its simulated clock: the real clock while it runs, held still
// while paused, moved forward by Advance. Every console's clock bar acts on this one simulator.
import { createSimulator, type Simulator } from "../simulator/core/index.js";
import { h } from "./dom.js";

export let running = true;
let heldAt = 0;
let pausedFor = 0;
const now = () => (running ? Date.now() : heldAt) - pausedFor;

let simulator: Simulator | undefined;
export const sim = () => (simulator ??= createSimulator({ now }));

export const clocks = new Set<HTMLElement>();
export async function showClock(): Promise<void> {
  const { now: simulated } = await sim().status();
  for (const c of clocks) c.textContent = `simulated time ${simulated.replace("T", " ").replace(/\.\d+Z$/, " UTC")}`;
}

/** The clock and reset controls every console carries (they act on the one simulator). */
export function clockBar(onChange: () => void): HTMLElement {
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
