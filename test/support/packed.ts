// The tarball test/global-setup.ts packs once per run (`npm pack --json --ignore-scripts` of the
// dist/ it compiled), handed to the test files through vitest's provide/inject: every test that
// installs the package installs this one file instead of packing its own.
import { inject } from "vitest";

/** One entry of `npm pack --json`: the same list of files the dry run gives. */
export interface PackEntry {
  filename: string;
  size: number;
  unpackedSize: number;
  entryCount: number;
  files: { path: string; size: number }[];
}

declare module "vitest" {
  export interface ProvidedContext {
    /** The absolute path of the packed tarball. */
    packedTarball: string;
    /** What `npm pack --json` said of it. */
    packEntry: PackEntry;
  }
}

/** The absolute path of the tarball packed for this run. */
export const packedTarball = (): string => inject("packedTarball");

/** The `npm pack --json` entry of the tarball packed for this run. */
export const packEntry = (): PackEntry => inject("packEntry");
