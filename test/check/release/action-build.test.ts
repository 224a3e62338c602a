// `npm run release:action` (tools/release/action-build.ts) in a fresh clone of this repository: it
// refuses a working tree with changes; in a clean one it builds action/dms.js and action/dms.json for
// the package.json version and makes the release commit carrying exactly those two files; the build
// is the same bytes from any directory; and the clone, with that commit and no node_modules, passes
// the Action's own check (the first step of action.yml) and runs the build.
import { createHash } from "node:crypto";
import { mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { parse } from "yaml";
import { ROOT } from "../../support/document.js";
import { run } from "../../support/run.js";

let work: string;
let clone: string;
const git = (...args: string[]) => run("git", ["-c", "user.name=release test", "-c", "user.email=release@example.test", ...args], { cwd: clone });
const release = (...args: string[]) => run(process.execPath, ["tools/release/action-build.ts", ...args], { cwd: clone });

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "dms-release-action-"));
  clone = join(work, "clone");
  await run("git", ["clone", "-q", "--depth", "1", `file://${ROOT}`, clone]);
  // The release script's one import from the registry: esbuild, from this checkout's node_modules
  // (an untracked link, which the release ignores).
  await symlink(join(ROOT, "node_modules"), join(clone, "node_modules"));
  // A release: the version bumped and committed, as CONTRIBUTING's steps have it.
  const manifest = JSON.parse(await readFile(join(clone, "package.json"), "utf8"));
  await writeFile(join(clone, "package.json"), `${JSON.stringify({ ...manifest, version: "9.8.7" }, null, 2)}\n`);
  await git("commit", "-q", "-am", "Release 9.8.7");
});
afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

it("refuses a working tree with changes, and commits nothing", async () => {
  await writeFile(join(clone, "README.md"), "changed\n");
  const refused = await release().then(
    () => ({ code: 0, stderr: "" }),
    (error: { code: number; stderr: string }) => error,
  );
  expect(refused.code).toBe(1);
  expect(refused.stderr).toContain("the working tree has changes");
  await git("checkout", "-q", "--", "README.md");
  expect((await git("log", "-1", "--format=%s")).stdout.trim()).toBe("Release 9.8.7");
});

it("makes the release commit with the build and its stamp, which the Action's check accepts", async () => {
  await release();
  expect((await git("log", "-1", "--format=%s")).stdout.trim()).toBe("Release 9.8.7: the Action's dms build");
  expect((await git("show", "--name-only", "--format=", "HEAD")).stdout.trim().split("\n").sort()).toEqual(["action/dms.js", "action/dms.json"]);
  expect((await git("status", "--porcelain", "--untracked-files=no")).stdout).toBe("");
  const stamp = JSON.parse(await readFile(join(clone, "action/dms.json"), "utf8"));
  const build = await readFile(join(clone, "action/dms.js"));
  expect(stamp).toEqual({ version: "9.8.7", sha256: createHash("sha256").update(build).digest("hex") });
  // The action's first step, as the runner runs it, against the clone: it passes.
  const action = parse(await readFile(join(clone, "action.yml"), "utf8")) as { runs: { steps: { id?: string; run: string }[] } };
  const check = action.runs.steps.find((step) => step.id === "check")!;
  await run("bash", ["--noprofile", "--norc", "-eo", "pipefail", "-c", check.run], { env: { PATH: process.env.PATH, ACTION_PATH: clone } });
  // The build runs with no node_modules beside it (only the clone has the link; the copy has none).
  const copy = join(work, "dms.js");
  await writeFile(copy, build);
  expect((await run(process.execPath, [copy, "deploy", "--help"], { cwd: work })).stdout).toMatch(/^Usage: dms deploy /);
});

it("builds the same bytes from any directory", async () => {
  const out = join(work, "again");
  await run(process.execPath, [join(clone, "tools/release/action-build.ts"), "--no-commit", "--out", out], { cwd: tmpdir() });
  expect(await readFile(join(out, "action/dms.js"))).toEqual(await readFile(join(clone, "action/dms.js")));
});
