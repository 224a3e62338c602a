// A recipe that a docs page shows is the code its test runs: the lines between `// #region readme`
// and `// #endregion readme` of the test's file, dedented, with the repository's import paths
// replaced by what a consumer imports. The docs checks compare each page's code blocks with these.

/** The region of `source` (named `file` in errors), dedented, with each [path, name] replaced. */
export function docRegion(source: string, file: string, importNames: readonly (readonly [string, string])[]): string {
  const match = /^[ \t]*\/\/ #region readme\n([\s\S]*?)^[ \t]*\/\/ #endregion readme$/m.exec(source);
  if (!match) throw new Error(`${file} has no "// #region readme" ... "// #endregion readme"`);
  const lines = match[1]!.split("\n");
  const indent = Math.min(...lines.filter((l) => l.trim()).map((l) => /^ */.exec(l)![0].length));
  let code = lines.map((l) => l.slice(indent)).join("\n");
  for (const [path, name] of importNames) code = code.replaceAll(path, name);
  return code;
}
