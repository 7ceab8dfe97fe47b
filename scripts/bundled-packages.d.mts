/** Types of scripts/bundled-packages.mjs (plain JS: scripts/build.mjs runs it without tsx). */
export declare const BUNDLED_PACKAGES_FILE: string;
export declare function packageDirOf(modulePath: string): string | null;
export declare function packageDirs(modulePaths: Iterable<string>): string[];
