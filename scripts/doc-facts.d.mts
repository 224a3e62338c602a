export interface PackEntry {
  size: number;
  unpackedSize: number;
  entryCount: number;
  files: { path: string; size: number }[];
}
export function factsFromPack(pack: PackEntry): Record<"pack.size" | "pack.unpacked" | "pack.files" | "schemas.unpacked" | "schemas.files", string>;
export function factPages(): string[];
export function markedFacts(markdown: string): { name: string; stated: string }[];
export function withFacts(markdown: string, facts: Record<string, string>): string;
export function measurePack(): PackEntry;
