// The bundled OpenAPI document, as one module every reader shares (the simulator's core, the docs
// console, the MCP tools). A JSON module import works in Node 20.19+, in bundlers (esbuild, Vite)
// and in browsers, so it reads no file and needs no Node API. generated/ sits two levels above
// this module both in src/shared/ and in dist/shared/.
import bundled from "../../generated/openapi.json" with { type: "json" };
import type { OpenApiDocument } from "./walk.js";

// The JSON's inferred type spells out every path and schema; the walker reads it as a document.
export const openApiDocument = bundled as unknown as OpenApiDocument;
