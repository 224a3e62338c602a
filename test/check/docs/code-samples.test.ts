// Code samples on every operation of the docs page (x-codeSamples, tools/docs/code-samples.ts): each
// operation has curl and TypeScript, and `dms` where a command does the same; every TypeScript
// sample compiles against the package's types (real tsc), every curl sample, run by bash with the
// real curl against the simulator, answers 2xx, and every TypeScript and dms sample runs there and exits 0. The samples use the document's server URL; the
// run puts the test simulator's URL there.
import { existsSync, readFileSync } from "node:fs";
import { mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { transform } from "esbuild";
import { afterAll, beforeAll, describe, expect, it, test } from "vitest";
import { type CodeSample, exampleIds, withCodeSamples } from "../../../tools/docs/code-samples.ts";
import { chromiumAvailable, launchChromium, openOfflinePage, showOperation } from "../../support/docs-browser.js";
import { docsDocument } from "../../../tools/docs/page-document.ts";
import * as walk from "../../../src/shared/walk.js";
import { startSimulator, type RunningSimulator } from "../../../src/simulator/node/index.js";
import { document, ROOT } from "../../support/document.js";
import { run } from "../../support/run.js";
import { typeCheck as typeCheckIn } from "../../support/tsc.js";

const DIR = join(ROOT, "test", ".readme-samples", "code-samples");
const SERVER = String((document as any).servers[0].url).replace(/\/+$/, "");

const documented = withCodeSamples(document);
const operations = walk.listOperations(documented).map((entry) => ({ ...entry, samples: entry.operation["x-codeSamples"] as CodeSample[] }));
const sample = (samples: CodeSample[], label: CodeSample["label"]) => samples.find((s) => s.label === label);
// The ids the samples take from the document's examples (the simulator's seed has the same ones).
const ids = exampleIds(document);
const DEPLOYMENT = ids.get("/v2/deployments/{deployment_id} deployment_id")!;
const REVISION = ids.get("/v2/deployments/{deployment_id}/revisions/{revision_id} revision_id")!;
const LISTENER = ids.get("/v2/listeners/{listener_id} listener_id")!;

// test/.readme-samples/code-samples/<dir>/ is four levels below the root.
const TSCONFIG = {
  extends: "../../../../tsconfig.json",
  compilerOptions: { noEmit: true, noUnusedLocals: false, skipLibCheck: true, paths: { "deployment-management-api": ["../../../../src/index.ts"] } },
  include: ["*.ts"],
};

async function typeCheck(dir: string, files: Record<string, string>): Promise<string> {
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, "tsconfig.json"), JSON.stringify(TSCONFIG));
  for (const [name, code] of Object.entries(files)) await writeFile(join(dir, name), `${code}\nexport {};\n`);
  return typeCheckIn(join(dir, "tsconfig.json"), { args: ["--pretty", "false"] });
}

/** Runs a curl sample with bash and the real curl; the status of each request comes back one per line. */
async function runCurl(source: string, baseUrl: string): Promise<{ statuses: string[]; output: string }> {
  const script = `curl() { command curl --silent --show-error --output /dev/null --write-out '%{http_code}\\n' "$@"; }\n${source.replaceAll(SERVER, baseUrl)}\n`;
  try {
    const { stdout, stderr } = await run("bash", ["-c", script], { env: { ...process.env, DMS_API_KEY: "sample-key" }, timeout: 90_000 });
    return { statuses: stdout.trim().split("\n"), output: stdout + stderr };
  } catch (error: any) {
    return { statuses: [], output: `${error.stdout ?? ""}${error.stderr ?? ""}` };
  }
}

describe("code samples on every operation (x-codeSamples)", () => {
  it("gives every operation a curl and a TypeScript sample, and the dms command where one exists", () => {
    expect(operations.length).toBeGreaterThan(0);
    for (const { operationId, samples } of operations) {
      expect(
        samples.map((s) => s.label),
        operationId,
      ).toEqual(expect.arrayContaining(["curl", "TypeScript"]));
    }
    const dms = Object.fromEntries(
      operations.filter((o) => sample(o.samples, "dms")).map((o) => [o.operationId, sample(o.samples, "dms")!.source.split("\n").at(-1)]),
    );
    expect(dms).toEqual({
      listDeployments: "npx dms deployments",
      patchDeployment: `npx dms deploy ${DEPLOYMENT} --ref release/2.4`,
      listRevisions: `npx dms revisions ${DEPLOYMENT}`,
      getRevision: `npx dms wait ${DEPLOYMENT} ${REVISION}`,
    });
  });

  it("the TypeScript sample of a deploying PATCH goes on to wait for the revision it created", () => {
    const patch = sample(operations.find((o) => o.operationId === "patchDeployment")!.samples, "TypeScript")!.source;
    expect(patch).toContain("waitForRevision(client, deployment.id, deployment.latest_revision_id)");
    expect(patch.indexOf("client.PATCH(")).toBeLessThan(patch.indexOf("waitForRevision(client"));
    const listener = sample(operations.find((o) => o.operationId === "patchListener")!.samples, "TypeScript")!.source;
    expect(listener).not.toContain("waitForRevision");
  });

  it("builds them from the document's examples: path ids and the first request body example", () => {
    const patch = operations.find((o) => o.operationId === "patchListener")!;
    const media = walk.deref(document, patch.operation.requestBody).content["application/json"];
    const body = walk.deref(document, Object.values<any>(media.examples)[0]).value;
    expect(sample(patch.samples, "curl")!.source).toContain(`-d '${JSON.stringify(body)}'`);
    expect(sample(patch.samples, "curl")!.source).toContain(`${SERVER}/v2/listeners/${LISTENER}`);
  });

  it("keeps generated/openapi.json without samples; the docs page has them", () => {
    const bundle = readFileSync(join(ROOT, "generated", "openapi.json"), "utf8");
    expect(bundle).not.toContain("x-codeSamples");
    const page = join(ROOT, "generated", "docs", "index.html");
    expect(existsSync(page)).toBe(true);
    const html = readFileSync(page, "utf8");
    expect(html).toContain("x-codeSamples");
    expect(html).toContain("createDeploymentsClient");
    expect(html).toContain("npx dms deploy");
  });

  test.skipIf(!chromiumAvailable())("Redoc shows them: a curl, TypeScript and dms picker beside the patch deployment operation", async () => {
    const browser = await launchChromium();
    try {
      const { page } = await openOfflinePage(browser);
      page.setDefaultTimeout(10_000);
      const patch = operations.find((o) => o.operationId === "patchDeployment")!;
      const { section } = await showOperation(page, patch.operation.tags[0], patch.operation.summary);
      // The right panel's request sample: curl first, the others in its language menu.
      const panel = section.locator('[data-component-name="Panel/Panel"]').filter({ hasText: "curl -X PATCH" }).first();
      await panel.locator('[data-component-name="Dropdown/Dropdown"] button', { hasText: /^curl$/ }).click();
      // The open menu is rendered outside the panel; it is the only visible menu on the page.
      const languages = page.getByRole("menuitem");
      await languages.first().waitFor();
      expect(await languages.allInnerTexts()).toEqual(expect.arrayContaining(["curl", "TypeScript", "dms"]));
      // Chosen by the item's own click event: the open menu can sit outside a small viewport, where a
      // pointer click keeps waiting for it to scroll into view (it once waited past the timeout).
      await languages.filter({ hasText: /^dms$/ }).dispatchEvent("click");
      await section.locator('[data-component-name="CodeBlock/CodeBlock"]', { hasText: `npx dms deploy ${DEPLOYMENT} --ref release/2.4` }).waitFor();
    } finally {
      await browser.close();
    }
  });

  test("every TypeScript sample compiles against the package's types; a wrong one does not", async () => {
    const files = Object.fromEntries(operations.map((o) => [`${o.operationId}.ts`, sample(o.samples, "TypeScript")!.source]));
    // The guide section's sample (deployRevision, waitForRevision) too.
    const guide = String(docsDocument(document).info.description).match(/```ts\n([\s\S]*?)```/)?.[1];
    expect(guide).toContain("deployRevision(client");
    files["guide.ts"] = guide!;
    expect(await typeCheck(join(DIR, "check"), files)).toBe("");
    const wrong = sample(operations.find((o) => o.operationId === "patchDeployment")!.samples, "TypeScript")!.source.replace("repo_ref", "repo_reference");
    expect(await typeCheck(join(DIR, "wrong"), { "wrong.ts": wrong })).toMatch(/wrong\.ts\(\d+,\d+\): error TS2353/);
  });

  describe("every curl sample answers 2xx from the simulator", () => {
    let simulator: RunningSimulator;
    beforeAll(async () => {
      // Revisions move one state per 10 ms, so the dms deploy sample sees DEPLOYED within a second.
      simulator = await startSimulator({ port: 0, quiet: true, stepSeconds: 0.01 });
    });
    afterAll(async () => {
      await simulator?.close();
    });

    for (const { operationId, samples } of operations) {
      test(operationId, async () => {
        const { statuses, output } = await runCurl(sample(samples, "curl")!.source, simulator.url);
        expect(statuses.length, output).toBeGreaterThan(0);
        for (const status of statuses) expect(status, `${operationId}: ${output}`).toMatch(/^2\d\d$/);
      });
    }

    // The TypeScript samples run too: types stripped, the package import pointing at the built entry.
    for (const { operationId, samples } of operations) {
      test(`${operationId}: TypeScript`, async () => {
        const { code } = await transform(sample(samples, "TypeScript")!.source, { loader: "ts", format: "esm", target: "node20" });
        const file = join(DIR, "run", `${operationId}.mjs`);
        await mkdir(join(DIR, "run"), { recursive: true });
        await writeFile(
          file,
          code
            .replaceAll(SERVER, simulator.url)
            .replace(/(["'])deployment-management-api\1/, JSON.stringify(pathToFileURL(join(ROOT, "dist", "index.js")).href)),
        );
        const result = await run(process.execPath, [file], { timeout: 90_000 }).then(
          () => ({ code: 0, output: "" }),
          (error) => ({ code: error.code, output: `${error.stdout}${error.stderr}` }),
        );
        expect(result.code, `${operationId}: ${result.output}`).toBe(0);
      });
    }

    // The dms samples run too, with the package's built bin (dist/cli/main.js) in place of npx.
    for (const { operationId, samples } of operations.filter((o) => sample(o.samples, "dms"))) {
      test(`${operationId}: dms`, async () => {
        const script = sample(samples, "dms")!
          .source.replaceAll(SERVER, simulator.url)
          .replace(/^npx dms /m, `"${process.execPath}" "${join(ROOT, "dist", "cli", "main.js")}" `);
        const result = await run("bash", ["-c", script], { timeout: 90_000, env: { ...process.env, NO_COLOR: "1" } }).then(
          () => ({ code: 0, output: "" }),
          (error) => ({ code: error.code, output: `${error.stdout}${error.stderr}` }),
        );
        expect(result.code, `${operationId}: ${result.output}`).toBe(0);
      });
    }

    test("a sample naming an id the simulator does not have is caught", async () => {
      const source = sample(operations.find((o) => o.operationId === "getDeployment")!.samples, "curl")!.source.replace(
        DEPLOYMENT,
        "6b0d8a52-3c1e-4f7a-9b2d-1e5f3a7c9d01",
      );
      expect((await runCurl(source, simulator.url)).statuses).toEqual(["404"]);
    });
  });
});
