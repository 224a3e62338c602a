// toOpenapiFetchClient: a DeploymentsClient as the plain openapi-fetch Client that the openapi-fetch
// family's integrations (openapi-react-query's createClient, swr-openapi, …) take. They call
// `client.GET(path, init)` and throw the result's `error`; here that error is an ApiError.
//
// Why an adapter and not the client itself: DeploymentsClient's GET and PATCH fix the init type
// from the path so that TypeScript rejects unknown fields in a body or a query; openapi-fetch's own
// signature infers the init as a type parameter. The two are different function types ("Types of
// property 'GET' are incompatible"), and declaring both as overloads would let every call that the
// strict one rejects fall through to the loose one.
import type { Client } from "openapi-fetch";
import type { paths } from "../../generated/schema.js";
import type { DeploymentsClient } from "../client/client.js";
import { ApiError } from "../client/errors.js";
import { type UntypedCall, untypedMethods } from "../client/untyped-call.js";

type SuccessStatus = 200 | 201 | 202 | 203 | 204 | 205 | 206 | 207 | 208 | 226 | "2XX";

/** The document's paths with every error response's body typed as the ApiError it arrives as. */
export type PathsWithApiErrors = {
  [P in keyof paths]: {
    [M in keyof paths[P]]: paths[P][M] extends { responses: infer R }
      ? Omit<paths[P][M], "responses"> & {
          responses: { [S in keyof R]: S extends SuccessStatus ? R[S] : { headers: { [name: string]: unknown }; content: { "application/json": ApiError } } };
        }
      : paths[P][M];
  };
};

/** An openapi-fetch Client of the document, whose results carry an ApiError as `error`. */
export type OpenapiFetchClient = Client<PathsWithApiErrors>;

function withApiErrors(call: UntypedCall): UntypedCall {
  return async (path, init) => {
    const result = await call(path, init);
    if (result.response.ok && result.error === undefined) return result;
    return { error: new ApiError(result.response, result.error), response: result.response };
  };
}

/**
 * The client as an openapi-fetch Client, for openapi-react-query and its kin:
 * `const $api = createQueryHooks(toOpenapiFetchClient(client))`. Requests go through the client
 * (its headers, deadline, retries and JSON checks); an error response's `error` is an ApiError, so
 * what those libraries throw is one.
 */
export function toOpenapiFetchClient(client: DeploymentsClient): OpenapiFetchClient {
  if (typeof client?.GET !== "function" || typeof client?.PATCH !== "function") {
    throw new TypeError("toOpenapiFetchClient: expected a client from createDeploymentsClient");
  }
  const { GET, PATCH } = untypedMethods(client);
  return {
    ...client,
    GET: withApiErrors(GET),
    PATCH: withApiErrors(PATCH),
  } as unknown as OpenapiFetchClient;
}
