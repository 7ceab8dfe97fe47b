/** Types of scripts/tldts-tables.mjs (plain JS: scripts/build.mjs runs it without tsx). */
export declare const TABLES_LOOP: string;
export declare const TLDTS_FILE: RegExp;
export declare function precomputeTldtsTables(source: string): string;
export declare function tldtsTablesPlugin(): { name: string; setup(build: { onLoad(options: { filter: RegExp }, callback: (args: { path: string }) => Promise<{ contents: string; loader: 'js' }>): void }): void };
