// The bundled OpenAPI document, for the core. A JSON module import works in Node 20.19+, in
// bundlers (esbuild, Vite) and in browsers, so the core reads no file and needs no Node API.
// generated/ sits two levels above this module both in src/simulator/ and in dist/simulator/.
import bundled from "../../../generated/openapi.json" with { type: "json" };
import type { OpenApiDocument } from "../../shared/walk.js";

export const openApiDocument = bundled as unknown as OpenApiDocument;
