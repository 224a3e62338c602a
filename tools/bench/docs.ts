// The docs page's weight and speed, offline in Chromium from file://, with the "Try it" consoles
// (generated/docs/index.html as built) against the same page without them (its console script
// removed), in one run, alternating the two, a fresh browser context each time:
//   bytes    the file, and gzipped
//   ready    navigation start until the first operation ("List deployments", opened by its link
//            #/deployments/listdeployments) shows its heading: the page is readable
//   console  navigation start until that operation's console is in the page (with consoles only)
//   answer   its Send, clicked as soon as the console is in place, until the answer shows
//            (data-status), and navigation start until then
// Times are the page's own clock (performance.now(), requestAnimationFrame resolution). Every request
// that would leave the page is aborted; one that happens fails the bench. Prints a markdown table of
// medians; the goal is ready under 1,500 ms. Environment: BENCH_DOCS_RUNS (default 7), and
// BENCH_DOCS_BASELINE=<git revision> adds the page as committed at that revision as a third row.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";
import { CHROMIUM_PATH, chromiumAvailable, DOCS_FILE, launchChromium, offlinePage } from "../../test/support/docs-browser.ts";

/** The marks watch() leaves on the page's window, on the page's clock. */
interface BenchMarks {
  ready?: number;
  console?: number;
  answer?: number;
  status?: string;
}
declare global {
  interface Window {
    __benchMarks?: BenchMarks;
  }
}

/** One form of the page, and its samples (ms) over the runs. */
interface Variant {
  name: string;
  html: string;
  consoles: boolean;
  file?: string;
  url?: string;
  samples?: Record<"ready" | "console" | "answer" | "firstAnswer", number[]>;
}

// BENCH_QUICK=1: one short round of everything, to prove the bench runs (the fresh-clone test); its numbers mean nothing.
const QUICK = process.env.BENCH_QUICK === "1";
const RUNS = Number(process.env.BENCH_DOCS_RUNS ?? (QUICK ? 1 : 7));
const GOAL_MS = 1500;
const FIRST_OPERATION = "deployments/listdeployments";

if (!chromiumAvailable()) {
  console.error(`bench-docs: no chromium at ${CHROMIUM_PATH} (apt-get install chromium, or set CHROMIUM_PATH)`);
  process.exit(1);
}

const withConsoles = readFileSync(DOCS_FILE, "utf8");
const withoutConsoles = withConsoles.replace(/<script type="module" data-try-it>[\s\S]*?<\/script>\n?/, "");
if (withoutConsoles === withConsoles) throw new Error("generated/docs/index.html has no console script: run npm run build");
const dir = mkdtempSync(join(tmpdir(), "dms-bench-docs-"));
const variants: Variant[] = [
  { name: "with consoles", html: withConsoles, consoles: true },
  { name: "without consoles", html: withoutConsoles, consoles: false },
];
if (process.env.BENCH_DOCS_BASELINE) {
  const html = execFileSync("git", ["show", `${process.env.BENCH_DOCS_BASELINE}:generated/docs/index.html`], { encoding: "utf8", maxBuffer: 1 << 26 });
  variants.push({ name: `as of ${process.env.BENCH_DOCS_BASELINE}`, html, consoles: html.includes("data-try-it") });
}
for (const v of variants) {
  v.file = join(dir, `${v.name.replace(/\W+/g, "-")}.html`);
  writeFileSync(v.file, v.html);
  v.url = `${pathToFileURL(v.file).href}#/${FIRST_OPERATION}`;
  v.samples = { ready: [], console: [], answer: [], firstAnswer: [] };
}

// Marks, on the page's clock, the first frame where the operation's heading shows, where its
// console is in place (then clicks its Send at once, as a reader could), and where the answer shows.
function watch(operationSection: string): void {
  const marks: BenchMarks = {};
  window.__benchMarks = marks;
  const tick = () => {
    const section = document.getElementById(operationSection);
    if (marks.ready === undefined && section?.querySelector("h1, h2")?.getBoundingClientRect().height) marks.ready = performance.now();
    const tryIt = section?.querySelector("[data-try-operation]");
    if (marks.console === undefined && tryIt) {
      marks.console = performance.now();
      tryIt.querySelector<HTMLElement>("[data-try-send]")!.click();
    }
    const answer = tryIt?.querySelector<HTMLElement>("[data-try-response][data-status]");
    if (answer && marks.answer === undefined) {
      marks.answer = performance.now();
      marks.status = answer.dataset.status;
    }
    if (marks.answer === undefined || marks.ready === undefined) requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
}

const median = (values: number[]): number | undefined => {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};
const ms = (value: number | undefined) => (value === undefined ? "-" : `${Math.round(value)}`);

const browser = await launchChromium();
try {
  for (let run = 0; run < RUNS; run++) {
    for (const v of run % 2 ? [...variants].reverse() : variants) {
      const { page, context, outsideRequests } = await offlinePage(browser);
      await page.addInitScript(watch, FIRST_OPERATION);
      await page.goto(v.url!);
      await page.waitForFunction(() => window.__benchMarks?.ready !== undefined, undefined, { timeout: 30_000 });
      const marks = (await page.evaluate(() => window.__benchMarks))!;
      const samples = v.samples!;
      samples.ready.push(marks.ready!);
      if (v.consoles) {
        await page.waitForFunction(() => window.__benchMarks?.answer !== undefined, undefined, { timeout: 30_000 });
        const done = (await page.evaluate(() => window.__benchMarks))!;
        if (done.status !== "200") throw new Error(`the console answered ${done.status}`);
        samples.console.push(done.console!);
        samples.answer.push(done.answer! - done.console!);
        samples.firstAnswer.push(done.answer!);
      }
      if (outsideRequests.length > 0) throw new Error(`the page asked for ${outsideRequests.join(", ")}`);
      await context.close();
    }
  }
} finally {
  await browser.close();
  rmSync(dir, { recursive: true, force: true });
}

console.log(`Docs page offline in Chromium (file://), median of ${RUNS} runs each, ms from navigation start; goal: ready under ${GOAL_MS} ms`);
console.log("| page | bytes | gzipped | ready (first operation readable) | console in place | Send to answer | first answer |");
console.log("|---|---|---|---|---|---|---|");
for (const v of variants) {
  const bytes = Buffer.byteLength(v.html);
  const gz = gzipSync(v.html).length;
  const s = v.samples!;
  console.log(
    `| ${v.name} | ${bytes.toLocaleString("en")} | ${gz.toLocaleString("en")} | ${ms(median(s.ready))} | ${ms(median(s.console))} | ${ms(median(s.answer))} | ${ms(median(s.firstAnswer))} |`,
  );
}
const ready = median(variants[0]!.samples!.ready);
if (ready !== undefined && ready > GOAL_MS) console.log(`Over the goal: ready in ${Math.round(ready)} ms with consoles (goal ${GOAL_MS} ms).`);
