// The document Redoc renders for the docs page: the bundle with code samples on every operation
// (tools/docs/code-samples.ts), the guide section "Deploy and follow a revision" first among the
// description's sections, the PATCH and "Get a revision" linked to each other and to the guide, and
// every description made inert (tools/docs/sanitize.ts). Used by the build, the docs tests and the bench.
import { type DocumentNode, listOperations, type OpenApiDocument } from "../../src/shared/walk.ts";
import { withCodeSamples } from "./code-samples.ts";
import { sanitizeDocument } from "./sanitize.ts";

/** The guide section's heading; Redoc links it as #/section/<slug>. */
export const GUIDE_HEADING = "Deploy and follow a revision";

/**
 * The guide at the top of the docs: a PATCH, its new latest_revision_id, "Get a revision" until a
 * terminal state, the client and `dms` doing the same, and a console (src/docs-console) that walks it.
 */
function guideMarkdown(document: OpenApiDocument, deploymentId: string): string {
  const servers = document.servers as { url?: string }[] | undefined;
  const baseUrl = String(servers?.[0]?.url ?? "").replace(/\/+$/, "");
  const ops = Object.fromEntries(listOperations(document).map((e) => [e.operationId, e]));
  const link = (operationId: string) => {
    const entry = ops[operationId]!;
    return `[${entry.operation.summary}](#/${tagSlug(entry.operation.tags[0])}/${operationId.toLowerCase()})`;
  };
  const terminal = document.components.schemas!.RevisionStatus["x-terminal-states"].map((s: string) => `\`${s}\``).join(", ");
  return `## ${GUIDE_HEADING}
What a deploy script does: change what runs, then follow the revision the change created until it
ends.

1. ${link("patchDeployment")}: \`PATCH /v2/deployments/{deployment_id}\` with a change that creates a
   revision (\`source_revision_config\`, \`secrets\`, \`secret_references\` or \`revision_source\`).
2. Read \`latest_revision_id\` from the answer: it names the new revision at once.
3. ${link("getRevision")}: \`GET /v2/deployments/{deployment_id}/revisions/{revision_id}\` every few
   seconds until its \`status\` is terminal (${terminal}).

The client does all three in one call (\`deployRevision\`), or the last step alone (\`waitForRevision\`):

\`\`\`ts
import { createDeploymentsClient, deployRevision, waitForRevision } from "deployment-management-api";

const client = createDeploymentsClient({ baseUrl: "${baseUrl}", apiKey: "my-api-key" });
const { deployment, revision } = await deployRevision(client, "${deploymentId}", {
  source_revision_config: { repo_ref: "release/2.5" },
});
console.log(deployment.latest_revision_id, revision.status); // ... DEPLOYED
// Or, after a PATCH of your own: await waitForRevision(client, deploymentId, revisionId)
\`\`\`

In CI, \`dms deploy\` patches and waits, and exits 0 only when the revision is \`DEPLOYED\`:

\`\`\`sh
export DMS_BASE_URL=${baseUrl} DMS_API_KEY=my-api-key
npx dms deploy ${deploymentId} --ref release/2.5
\`\`\`

The same flow, and a rollback, are Arazzo workflows in the package
([arazzo/deployments.arazzo.yaml](../../arazzo/deployments.arazzo.yaml): \`deployRef\`,
\`deployImage\`, \`rollback\`, \`waitForRevision\`) that Redocly Respect runs against any server:
\`npx redocly respect node_modules/deployment-management-api/arazzo/deployments.arazzo.yaml --server deployments=${baseUrl}\`.
[docs/workflows.md](../../docs/workflows.md) in the repository explains each criterion.

The console below walks the same steps against the simulator inside this page.
`;
}

/** Redoc's slug of a tag name: "OAuth providers" is oauth-providers. */
export function tagSlug(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
}

/**
 * The document Redoc renders: the bundle with code samples, the guide section first among the
 * description's sections, the description's "Revisions" section renamed (the Revisions tag has that
 * name in the sidebar), and every description made inert. The input is not changed.
 */
export function docsDocument<T>(bundle: T): T {
  const document = withCodeSamples(bundle as OpenApiDocument);
  const deploymentId =
    listOperations(document)
      .find((e) => e.operationId === "patchDeployment")
      ?.operation["x-codeSamples"]?.[0]?.source.match(/deployments\/([\w-]+)/)?.[1] ?? "<deployment_id>";
  const info = document.info as DocumentNode;
  const description = String(info.description ?? "");
  const firstSection = description.search(/^## /m);
  const guideText = guideMarkdown(document, deploymentId);
  const tags = new Set(((document.tags ?? []) as { name: string }[]).map((t) => t.name.toLowerCase()));
  const renamed = (
    firstSection < 0 ? `${description}\n\n${guideText}` : `${description.slice(0, firstSection)}${guideText}\n${description.slice(firstSection)}`
  ).replace(/^## (.+)$/gm, (line, heading: string) => (tags.has(heading.trim().toLowerCase()) ? `## How ${heading.trim().toLowerCase()} work` : line));
  info.description = renamed;
  // The PATCH and "Get a revision" point at each other and at the guide.
  const entries = Object.fromEntries(listOperations(document).map((e) => [e.operationId, e.operation]));
  const href = (operationId: string) => `#/${tagSlug(entries[operationId].tags[0])}/${operationId.toLowerCase()}`;
  const guide = `[${GUIDE_HEADING}](#/section/${tagSlug(GUIDE_HEADING)})`;
  if (entries.patchDeployment && entries.getRevision) {
    entries.patchDeployment.description = `${String(entries.patchDeployment.description ?? "").trimEnd()}\n\nThen follow the new revision: [${entries.getRevision.summary}](${href("getRevision")}) with the answer's \`latest_revision_id\`, until its \`status\` is terminal (${guide}).`;
    entries.getRevision.description = `${String(entries.getRevision.description ?? "").trimEnd()}\n\nAfter [${entries.patchDeployment.summary}](${href("patchDeployment")}), poll the new \`latest_revision_id\` here until its \`status\` is terminal (${guide}).`;
  }
  return sanitizeDocument(document) as T;
}
