// deployment-management-api/query: TanStack Query v5 options for every operation of the document,
// as plain objects that useQuery, useInfiniteQuery, useMutation and QueryClient.fetchQuery take in
// any framework (React, Vue, Solid, Svelte). The operations come from generated/operations.js (built
// from the document), their types from generated/schema.d.ts. Nothing here imports TanStack Query
// at run time: @tanstack/query-core is an optional peer dependency for the types only.
import type { DataTag, QueryClient } from "@tanstack/query-core";
import type { MaybeOptionalInit } from "openapi-fetch";
import { OPERATIONS } from "../../generated/operations.js";
import type { paths } from "../../generated/schema.js";
import type { DeploymentsClient, PathWith, ResultFor } from "../client/client.js";
import { type ApiError, unwrap } from "../client/errors.js";
import { checkDelay } from "../client/option-checks.js";
import { hasNextPage, type Page, readPage } from "../client/page.js";
import { DEFAULT_PAGE_SIZE } from "../client/paginate.js";
import { pathParameterText } from "../client/path-params.js";
import { type UntypedCall, untypedMethods } from "../client/untyped-call.js";
import { DEFAULT_WAIT, isTerminalRevisionStatus } from "../client/wait-for-revision.js";
import type { Revision } from "../shared/types.js";
import { isUuid } from "../shared/uuid.js";

export { toOpenapiFetchClient, type OpenapiFetchClient, type PathsWithApiErrors } from "./openapi-fetch-client.js";

/** The first element of every query key of this package: `invalidateQueries({ queryKey: [QUERY_KEY_ROOT] })` reaches them all. */
export const QUERY_KEY_ROOT = "dms";

type Operations = typeof OPERATIONS;
/** The operationId of every operation of the document. */
export type OperationId = keyof Operations;
type OperationsWith<M extends string> = { [K in OperationId]: Operations[K]["method"] extends M ? K : never }[OperationId];
/** The GET operations: each is a member of createQueries' result returning query options. */
export type QueryOperationId = OperationsWith<"get">;
/** The PATCH operations: each is a member returning mutation options. */
export type MutationOperationId = OperationsWith<"patch">;
/** The offset-paged lists: each also has a `<operationId>Infinite` member. */
export type PagedOperationId = { [K in OperationId]: Operations[K]["paged"] extends true ? K : never }[OperationId];

type PathOf<K extends OperationId, M extends "get" | "patch"> = Operations[K]["path"] extends infer P extends PathWith<M> ? P : never;
type InitOf<K extends OperationId, M extends "get" | "patch"> = MaybeOptionalInit<paths[PathOf<K, M>], M>;

/** What a GET member takes: the `params` (path and query) the client's GET takes for that path. */
export type QueryInit<K extends QueryOperationId> = { params: Exclude<InitOf<K, "get">, undefined> extends { params?: infer P } ? P : never };
type QueryInitArgs<K extends QueryOperationId> = undefined extends InitOf<K, "get"> ? [init?: QueryInit<K>] : [init: QueryInit<K>];

/** The data of a successful GET. */
export type QueryData<K extends QueryOperationId> = Exclude<ResultFor<PathOf<K, "get">, "get">["data"], undefined>;
/** The data of a successful PATCH. */
export type MutationData<K extends MutationOperationId> = Exclude<ResultFor<PathOf<K, "patch">, "patch">["data"], undefined>;
/** What a PATCH member's mutationFn takes: `{ params, body }`, as the client's PATCH. */
export type MutationVariables<K extends MutationOperationId> = Pick<Exclude<InitOf<K, "patch">, undefined>, "params" | "body">;

/** A query key of this package: `["dms", "deployments", id, "revisions", { limit: 20 }]`, tagged with its data and error types. */
export type DmsQueryKey<Data> = DataTag<readonly unknown[], Data, ApiError>;

/**
 * The part of TanStack's Query a refetchInterval function reads. Its data is typed as the query's
 * own: TypeScript infers useQuery's data type from every member of the options, this one included,
 * and without strictFunctionTypes (projects with `"strict": false`) an `unknown` here won and made
 * `useQuery(...).data` unknown.
 */
interface PolledQuery<Data> {
  state: { data: Data | undefined; status: "pending" | "error" | "success" };
}

/** Options for useQuery, useSuspenseQuery, QueryClient.fetchQuery and the like. Errors are ApiErrors. */
export interface DmsQueryOptions<Data> {
  queryKey: DmsQueryKey<Data>;
  queryFn: (context: { signal: AbortSignal }) => Promise<Data>;
  /** With `pollUntilTerminal`: the polling interval, false once the revision's status is terminal (or the query failed). */
  refetchInterval?: (query: PolledQuery<Data>) => number | false;
}

type PageOf<K extends PagedOperationId> = QueryData<K>;

/** Options for useInfiniteQuery and QueryClient.fetchInfiniteQuery: the page param is the offset. */
export interface DmsInfiniteQueryOptions<Page> {
  queryKey: DataTag<readonly unknown[], { pages: Page[]; pageParams: number[] }, ApiError>;
  queryFn: (context: { signal: AbortSignal; pageParam: number }) => Promise<Page>;
  initialPageParam: number;
  /** The response's `offset`, or undefined after a short (or empty) page: that was the last one. */
  getNextPageParam: (lastPage: Page, allPages: Page[], lastPageParam: number) => number | undefined;
}

/** Options for useMutation: mutationFn takes `{ params, body }`; given the queryClient, a success invalidates the queries it changed. */
export interface DmsMutationOptions<Data, Variables> {
  mutationKey: readonly unknown[];
  mutationFn: (variables: Variables) => Promise<Data>;
}

/** `pollUntilTerminal: true` polls every 2 s (waitForRevision's default); `{ intervalMs }` sets the interval. */
export interface PollOptions {
  pollUntilTerminal?: boolean | { intervalMs?: number | undefined } | undefined;
}

type QueryMember<K extends QueryOperationId> =
  QueryData<K> extends Revision
    ? (...args: [...QueryInitArgs<K>, options?: PollOptions]) => DmsQueryOptions<QueryData<K>>
    : (...args: QueryInitArgs<K>) => DmsQueryOptions<QueryData<K>>;

/** What createQueries returns: one member per operation, named by its operationId, and `<operationId>Infinite` for the paged lists. */
export type DmsQueries = { [K in QueryOperationId]: QueryMember<K> } & {
  [K in PagedOperationId as `${K}Infinite`]: (...args: QueryInitArgs<K>) => DmsInfiniteQueryOptions<PageOf<K>>;
} & { [K in MutationOperationId]: () => DmsMutationOptions<MutationData<K>, MutationVariables<K>> };

export interface CreateQueriesOptions {
  /** When given, a successful mutation invalidates the queries it changed in this client before it resolves. */
  queryClient?: Pick<QueryClient, "invalidateQueries"> | undefined;
}

type Params = { path?: Record<string, unknown>; query?: Record<string, unknown> };

const WHERE = "createQueries";

/** The query key's segments for a path: the version prefix dropped, each `{name}` replaced by its value. */
function pathSegments(operationId: string, path: string, params: Params | undefined): string[] {
  const segments = path.split("/").filter((s) => s !== "");
  if (/^v\d+$/.test(segments[0] ?? "")) segments.shift();
  return segments.map((segment) => {
    if (!segment.startsWith("{")) return segment;
    const name = segment.slice(1, -1);
    const values: unknown = params?.path;
    const value = typeof values === "object" && values !== null && Object.hasOwn(values, name) ? (values as Record<string, unknown>)[name] : undefined;
    try {
      // The client's own rule: a value it would refuse to send (missing, empty, "..", not text) is refused here, before it becomes a key.
      const text = pathParameterText(name, value);
      // A UUID names one resource in either case (the service answers it with the lower-case id), so
      // it is one key: a patch of "3F2B…" invalidates what "3f2b…" cached. The request sends it as given.
      return isUuid(text) ? text.toLowerCase() : text;
    } catch (error) {
      throw new TypeError(`${operationId}: ${(error as Error).message.replace(/^path parameter (\S+)/, "params.path.$1")}`);
    }
  });
}

/** The query object without undefined values, so keys that mean the same request hash the same. */
function queryObject(query: Record<string, unknown> | undefined): Record<string, unknown> {
  return Object.fromEntries(Object.entries(query ?? {}).filter(([, v]) => v !== undefined));
}

/**
 * The key of a GET: a collection (a path that does not end in a parameter) ends with its query
 * object, `{}` when there is none; an item ends with its id, and its query object only when there
 * is one. So `["dms", "deployments", id]` reaches the deployment and everything under it, and
 * `["dms", "deployments", {}]` every list of deployments and nothing else.
 */
function queryKeyOf(operationId: string, path: string, params: Params | undefined): unknown[] {
  const key: unknown[] = [QUERY_KEY_ROOT, ...pathSegments(operationId, path, params)];
  const query = queryObject(params?.query);
  if (!path.endsWith("}") || Object.keys(query).length > 0) key.push(query);
  return key;
}

function pollInterval(operationId: string, poll: PollOptions["pollUntilTerminal"]): number | undefined {
  if (poll === undefined || poll === false) return undefined;
  if (poll === true) return DEFAULT_WAIT.intervalMs;
  if (typeof poll !== "object" || poll === null) throw new TypeError(`${operationId}: pollUntilTerminal must be true, false or { intervalMs }`);
  return poll.intervalMs === undefined ? DEFAULT_WAIT.intervalMs : checkDelay(operationId, "pollUntilTerminal.intervalMs", poll.intervalMs, true);
}

/**
 * A query key as TanStack's DataTag of the data it caches. The tag is a type-only brand (no value
 * carries it), so the one way to attach it is this assertion; each operation's member fixes the
 * data type at its own signature.
 */
function dataTagged<Key extends readonly unknown[]>(key: readonly unknown[]): Key {
  return key as Key;
}

function getOptions(get: UntypedCall, operationId: string, path: string, init: { params?: Params } | undefined, poll?: PollOptions) {
  const params = init?.params;
  const interval = pollInterval(operationId, poll?.pollUntilTerminal);
  const options: DmsQueryOptions<unknown> = {
    queryKey: dataTagged(queryKeyOf(operationId, path, params)),
    queryFn: async ({ signal }) => unwrap(await get(path, { params, signal })),
  };
  if (interval !== undefined) {
    options.refetchInterval = (query) => {
      if (query.state.status === "error") return false;
      if (query.state.data === undefined) return interval;
      // A revision whose status is not text would never become terminal: polling stops, as
      // waitForRevision refuses it.
      const status: unknown = (query.state.data as { status?: unknown } | null)?.status;
      return typeof status !== "string" || isTerminalRevisionStatus(status) ? false : interval;
    };
  }
  return options;
}

function infiniteOptions(get: UntypedCall, operationId: string, path: string, init: { params?: Params } | undefined) {
  const params = init?.params ?? {};
  const query = queryObject(params.query);
  const limit = typeof query.limit === "number" ? query.limit : DEFAULT_PAGE_SIZE;
  const first = typeof query.offset === "number" ? query.offset : 0;
  const options: DmsInfiniteQueryOptions<Page> = {
    // Its own key under the list's: an infinite query caches pages, a plain one a page.
    queryKey: dataTagged([...queryKeyOf(operationId, path, params), "infinite"]),
    queryFn: async ({ signal, pageParam }) => {
      // A full page whose offset does not move forward would make "load more" fetch it again forever: readPage refuses it.
      return readPage(await get(path, { params: { ...params, query: { ...query, limit, offset: pageParam } }, signal }), limit, pageParam);
    },
    initialPageParam: first,
    getNextPageParam: (lastPage) => (hasNextPage(lastPage, limit) ? lastPage.offset : undefined),
  };
  return options;
}

/**
 * The item key a PATCH changes (with everything under it) and the key of every list of its parent
 * collection: patching `/v2/deployments/{id}` invalidates `["dms", "deployments", id]` (the
 * deployment, its revisions and their lists) and `["dms", "deployments", {}]` (the deployment lists).
 */
function changedKeys(operationId: string, path: string, params: Params | undefined): unknown[][] {
  const item = [QUERY_KEY_ROOT, ...pathSegments(operationId, path, params)];
  return [item, [...item.slice(0, -1), {}]];
}

function mutationOptions(patch: UntypedCall, operationId: string, path: string, queryClient: CreateQueriesOptions["queryClient"]) {
  const options: DmsMutationOptions<unknown, { params?: Params; body?: unknown }> = {
    mutationKey: [QUERY_KEY_ROOT, operationId],
    mutationFn: async (variables) => {
      if (typeof variables !== "object" || variables === null) throw new TypeError(`${operationId}: mutationFn takes { params, body }`);
      const keys = changedKeys(operationId, path, variables.params);
      const data = unwrap(await patch(path, { params: variables.params, body: variables.body }));
      if (queryClient) await Promise.all(keys.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
      return data;
    },
  };
  return options;
}

/**
 * TanStack Query options for every operation of the document, named by operationId:
 * `useQuery(q.getDeployment({ params: { path: { deployment_id } } }))`,
 * `useInfiniteQuery(q.listDeploymentsInfinite({ params: { query: { status: "READY" } } }))`,
 * `useQuery(q.getRevision(init, { pollUntilTerminal: true }))`,
 * `useMutation(q.patchDeployment())`. Errors are ApiErrors; each queryFn passes TanStack's signal on.
 */
export function createQueries(client: DeploymentsClient, options: CreateQueriesOptions = {}): DmsQueries {
  if (typeof client?.GET !== "function" || typeof client?.PATCH !== "function") throw new TypeError(`${WHERE}: expected a client from createDeploymentsClient`);
  if (typeof options !== "object" || options === null) throw new TypeError(`${WHERE}: expected an options object`);
  const { queryClient } = options;
  if (queryClient !== undefined && typeof queryClient?.invalidateQueries !== "function") {
    throw new TypeError(`${WHERE}: queryClient must be a TanStack QueryClient`);
  }
  const { GET: get, PATCH: patch } = untypedMethods(client);
  const members: Record<string, unknown> = {};
  for (const [operationId, { method, path, paged }] of Object.entries(OPERATIONS) as [string, { method: string; path: string; paged: boolean }][]) {
    if (method === "get") {
      members[operationId] = (init?: { params?: Params }, poll?: PollOptions) => getOptions(get, operationId, path, init, poll);
      if (paged) members[`${operationId}Infinite`] = (init?: { params?: Params }) => infiniteOptions(get, operationId, path, init);
    } else if (method === "patch") {
      members[operationId] = () => mutationOptions(patch, operationId, path, queryClient);
    }
  }
  return members as DmsQueries;
}
