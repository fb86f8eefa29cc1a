// Types for launch.mjs (plain JavaScript: it runs before anything is compiled).
/** Why dist/ cannot be used (not built, or a source changed since the build), or null when it can. */
export function distProblem(root?: URL): string | null;
/** Import dist/<name>.mjs, or the TypeScript module `source` (relative to the root) through tsx. */
export function load(name: string, source: string): Promise<Record<string, unknown>>;
