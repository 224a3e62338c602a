// The local servers' answer to a request body past their limit. Reading within the limit is
// src/shared/read-within.ts, the rule the client's response bodies follow too. No Node imports.

/** The detail of a 413 answer. */
export function tooLargeDetail(limit: number): string {
  return `The request body is larger than ${limit} bytes (${formatBytes(limit)}), the most this server accepts.`;
}

function formatBytes(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : `${Math.round(bytes / 1024)} KiB`;
}
