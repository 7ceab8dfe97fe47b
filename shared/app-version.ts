/** The app's version, as package.json's `version` (shared/app-version.test.ts keeps them equal): `k2s-dns --version` and the window's header. */
export const APP_VERSION = '0.1.0';
