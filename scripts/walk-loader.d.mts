// Types for scripts/walk-loader.mjs.
export declare function loadWalk(): Promise<typeof import("../src/shared/walk.js")>;
