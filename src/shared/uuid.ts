// What an id of the document is (`format: uuid`): checked where an id enters from outside, an
// argument of dms or an id the service answered, before it is put in a path or printed for later.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether `value` is a UUID in its text form, in either case. */
export function isUuid(value: unknown): value is string {
  return typeof value === "string" && UUID.test(value);
}
