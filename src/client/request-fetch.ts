// The client's one-request sender: it takes a ready `Request` (never a URL and init), so retries and
// redirects can send the same request again. Its own module because both retry.ts and redirects.ts
// use it, and neither should import the other for a type.
export type RequestFetch = (request: Request) => Promise<Response>;
