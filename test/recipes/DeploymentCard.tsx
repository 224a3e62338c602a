// The component of the Vitest + MSW + Testing Library recipe (docs/react-and-testing.md shows the
// region below; test/recipes/docs.test.ts checks it is the same). It takes the client as a prop, so a
// test hands it one with retries off.
// #region readme
import { useEffect, useState } from "react";
import { type DeploymentsClient, isTerminalRevisionStatus, type Revision, unwrap } from "../../src/index.js";

type View = { state: "loading" } | { state: "error"; message: string } | { state: "ready"; name: string; revision: Revision };

/** A deployment's name and its latest revision, polled every `pollMs` until the revision ends. */
export function DeploymentCard({ client, deploymentId, pollMs = 2000 }: { client: DeploymentsClient; deploymentId: string; pollMs?: number }) {
  const [view, setView] = useState<View>({ state: "loading" });
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    async function load() {
      try {
        const path = { deployment_id: deploymentId };
        const deployment = unwrap(await client.GET("/v2/deployments/{deployment_id}", { params: { path } }));
        const revision = unwrap(
          await client.GET("/v2/deployments/{deployment_id}/revisions/{revision_id}", {
            params: { path: { ...path, revision_id: deployment.latest_revision_id! } },
          }),
        );
        if (stopped) return;
        setView({ state: "ready", name: deployment.name, revision });
        if (!isTerminalRevisionStatus(revision.status)) timer = setTimeout(load, pollMs);
      } catch (error) {
        if (!stopped) setView({ state: "error", message: (error as Error).message });
      }
    }
    load();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [client, deploymentId, pollMs]);

  if (view.state === "loading") return <p role="status">Loading…</p>;
  if (view.state === "error") return <p role="alert">{view.message}</p>;
  return (
    <section aria-label={view.name}>
      <h2>{view.name}</h2>
      <p>
        Revision {view.revision.id}: <strong>{view.revision.status}</strong>
      </p>
    </section>
  );
}
// #endregion readme
