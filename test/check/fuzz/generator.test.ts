// The generator itself: what it draws as valid is valid (ajv, compiled from the document, is the
// judge), for every operation's parameters and bodies, and its mutations are what they say.
import fc from "fast-check";
import { expect, it } from "vitest";
import { checkJsonBounds } from "../../../src/gate/bounds.js";
import { createOpenApiValidator } from "../../support/openapi-validator.js";
import { deref } from "../../../src/shared/walk.js";
import { document } from "../../support/document.js";
import { SEED } from "./budget.js";
import { bodyAccepted, caseFor, OPERATIONS, validParts } from "./requests.js";

const validator = createOpenApiValidator(document);

it("every drawn request body is valid against the document and within the request bounds", () => {
  for (const op of OPERATIONS.filter((o) => o.operation.requestBody)) {
    const schema = deref<any>(document, op.operation.requestBody).content["application/json"].schema;
    const validate = validator.validatorFor(schema, `generator:${op.operationId}`);
    fc.assert(
      fc.property(validParts(op), (parts) => {
        expect(validate(parts.body), `${op.operationId}: ${JSON.stringify(validate.errors)}`).toBe(true);
        expect(checkJsonBounds(parts.body)).toEqual([]);
      }),
      { seed: SEED, numRuns: 100 },
    );
  }
});

it("every drawn path and query parameter is valid against its schema", () => {
  for (const op of OPERATIONS) {
    fc.assert(
      fc.property(validParts(op), (parts) => {
        for (const p of op.parameters.filter((x) => x.in !== "header")) {
          const raw = p.in === "path" ? parts.pathValues[p.name] : parts.query.find(([n]) => n === p.name)?.[1];
          if (raw === undefined) {
            expect(p.required, `${op.operationId} ${p.name}`).not.toBe(true);
            continue;
          }
          const schema = deref<any>(document, p.schema);
          const value = schema.type === "array" ? raw.split(",") : schema.type === "integer" ? Number(raw) : schema.type === "boolean" ? raw === "true" : raw;
          const validate = validator.validatorFor(schema, `generator:${JSON.stringify(schema)}`);
          const items =
            schema.type === "array" ? (value as string[]).map((v) => (deref<any>(document, schema.items).type === "integer" ? Number(v) : v)) : value;
          expect(validate(items), `${op.operationId} ${p.name}=${raw}: ${JSON.stringify(validate.errors)}`).toBe(true);
        }
      }),
      { seed: SEED, numRuns: 100 },
    );
  }
});

it("a body mutation marked valid or invalid is so by the document", () => {
  for (const op of OPERATIONS.filter((o) => o.operation.requestBody)) {
    fc.assert(
      fc.property(caseFor(op, ["bodyShape"]), (c) => {
        if (c.expect !== "valid" && c.expect !== "invalid") return;
        const body = JSON.parse(new TextDecoder().decode(c.body));
        expect(bodyAccepted(op, body), c.mutation).toBe(c.expect === "valid");
      }),
      { seed: SEED, numRuns: 100 },
    );
  }
});
