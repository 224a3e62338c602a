// The help texts. This module is all that `dms --help` loads, so it imports nothing at run time.

const CONNECTION = `Connection (flags win over the environment):
  --base-url URL      the service root                       env DMS_BASE_URL
  --api-key KEY       sent as X-Api-Key                      env DMS_API_KEY (prefer it: flags show in process lists)
  --tenant-id ID      sent as X-Tenant-Id (optional)         env DMS_TENANT_ID
  --request-timeout DURATION   the longest one request may take (default 30s); GETs are retried`;

const WAIT_EXIT_CODES = `Exit codes:
  0    the revision ended DEPLOYED
  1    it ended CREATE_FAILED, BUILD_FAILED or DEPLOY_FAILED
  2    usage error (unknown flag, bad value, missing DMS_BASE_URL or DMS_API_KEY); nothing was sent
  3    it did not end within --timeout
  4    it ended INTERRUPTED (a newer revision replaced it) or SKIPPED
  5    the patch created no revision (deploy)
  6    the API answered an error (its problem details are printed), or could not be reached
  130  stopped by Ctrl+C; the ids and the "dms wait" command that resumes are printed`;

const LIST_EXIT_CODES = `Exit codes:
  0    listed
  2    usage error; nothing was sent
  6    the API answered an error, or could not be reached`;

const OUTPUT = `Output: one line per state change with the elapsed time (a live spinner and colours on a
terminal; never with NO_COLOR). --json prints JSON lines only on stdout: an event per state change,
then a result object {deployment_id, revision_id, status, elapsed_ms, exit_code}. In GitHub Actions,
deployment_id, revision_id and status go to $GITHUB_OUTPUT, a summary to $GITHUB_STEP_SUMMARY, and
failures print an ::error:: annotation.`;

export const HELP: Readonly<Record<string, string>> = {
  dms: `dms: deploy to the Deployment Management Service and wait for the result, for CI/CD.

Usage: dms <command> [flags]

Commands:
  deploy <deployment-id>                patch the deployment (new ref, image, secrets) and wait for the revision it created
  wait <deployment-id> <revision-id>    wait for a revision to end
  deployments                           list deployments
  revisions <deployment-id>             list a deployment's revisions
  simulate                              run the local simulator (as dms-simulator does)

"dms <command> --help" shows a command's flags, an example and its exit codes.

${CONNECTION}

Example:
  export DMS_BASE_URL=https://api.example.com DMS_API_KEY=...
  dms deploy 6b0d8a52-3c1e-4f7a-9b2d-1e5f3a7c9d01 --ref release/2.4 --timeout 20m

${WAIT_EXIT_CODES}
`,

  deploy: `Usage: dms deploy <deployment-id> [flags]

Patches the deployment with exactly the fields given, then waits for the revision that this patch
created (the patch response's latest_revision_id), until it ends or --timeout passes.

Revision flags (at least one; a deploy that would create no revision is refused before anything is sent):
  --ref REF                     source_revision_config.repo_ref, the branch or tag to build
  --graph-config-path PATH      source_revision_config.graph_config_path
  --image-uri URI               source_revision_config.image_uri
  --source-tarball-path PATH    source_revision_config.source_tarball_path
  --revision-source SOURCE      revision_source: scm_host, internal_docker or internal_source
  --secret NAME=VALUE           a secret (repeatable); the secrets given replace all of the deployment's secrets
  --secret-from-env NAME        a secret whose value is the environment variable NAME (repeatable)
Waiting:
  --no-wait                     print the ids and exit 0 once the revision is created
  --timeout DURATION            how long to wait for the revision, such as 20m (default 15m)
  --interval DURATION           the pause between polls, such as 5s (default 2s)
  --json                        JSON lines on stdout
Durations: a number with ms, s, m or h; a bare number is seconds.
Secret values are never printed: they are replaced by *** in every output.

${CONNECTION}

Example:
  DMS_BASE_URL=https://api.example.com DMS_API_KEY=$KEY \\
    dms deploy 6b0d8a52-3c1e-4f7a-9b2d-1e5f3a7c9d01 --ref release/2.4 --secret-from-env OPENAI_API_KEY --timeout 20m

${OUTPUT}

${WAIT_EXIT_CODES}
`,

  wait: `Usage: dms wait <deployment-id> <revision-id> [flags]

Waits for the revision to end (DEPLOYED, CREATE_FAILED, BUILD_FAILED, DEPLOY_FAILED, SKIPPED or
INTERRUPTED), for instance after "dms deploy --no-wait" or to resume a wait stopped by Ctrl+C.

  --timeout DURATION     how long to wait, such as 20m (default 15m)
  --interval DURATION    the pause between polls, such as 5s (default 2s)
  --json                 JSON lines on stdout
Durations: a number with ms, s, m or h; a bare number is seconds.

${CONNECTION}

Example:
  dms wait 6b0d8a52-3c1e-4f7a-9b2d-1e5f3a7c9d01 0c6b5e0a-7f6d-4b1e-8a47-3d2f1c9e8b70 --timeout 10m --json

${OUTPUT}

${WAIT_EXIT_CODES}
`,

  deployments: `Usage: dms deployments [flags]

Lists deployments, newest first.

  --name-contains TEXT   only names containing TEXT (case-insensitive)
  --status STATUS        only deployments in this state: AWAITING_DATABASE, READY, UNUSED, AWAITING_DELETE or UNKNOWN
  --limit N              at most N deployments (default 20)
  --json                 one JSON object per deployment on stdout (secret values shown as ***)

${CONNECTION}

Example:
  dms deployments --name-contains billing --status READY --limit 5

${LIST_EXIT_CODES}
`,

  revisions: `Usage: dms revisions <deployment-id> [flags]

Lists a deployment's revisions, newest first.

  --status LIST   only revisions in these states, comma-separated, such as DEPLOYED,BUILD_FAILED
  --limit N       at most N revisions (default 20)
  --json          one JSON object per revision on stdout

${CONNECTION}

Example:
  dms revisions 6b0d8a52-3c1e-4f7a-9b2d-1e5f3a7c9d01 --status DEPLOYED,BUILD_FAILED --limit 5

${LIST_EXIT_CODES}
`,

  simulate: `Usage: dms simulate [flags]

Runs the stateful simulator of the service on your machine, as dms-simulator does, until Ctrl+C.
Its first line on stdout is its URL.

  --port N               default 4011 (env PORT)
  --host H               default 127.0.0.1
  --state FILE           keep the state in FILE across restarts (env SIMULATOR_STATE)
  --step-seconds S       seconds per revision state (default 2, env SIMULATOR_STEP_SECONDS)
  --seed-deployments N   deployments in the seed (default 30, env SIMULATOR_SEED_DEPLOYMENTS)
  --allowed-host NAME    another Host name to answer besides the loopback ones (repeatable)
  --cors-origin ORIGIN   another browser origin allowed besides loopback ones (repeatable)
  --quiet                no request log
Every flag goes to dms-simulator unchanged.
Environment: SIMULATOR_API_KEYS, comma-separated keys to accept (by default any key).

Example:
  dms simulate --port 4011 --step-seconds 1 &
  DMS_BASE_URL=http://127.0.0.1:4011 DMS_API_KEY=dev dms deployments --limit 3

Exit codes:
  0    stopped by Ctrl+C or SIGTERM
  1    could not start (port in use, unreadable state file)
  2    usage error: an unknown flag or a bad value (the message names it); nothing was started
`,
};
