/**
 * Electron Forge configuration of the DESKTOP package, k2s-dns-desktop (the Electron window),
 * built on top of the k2s-dns package that `npm run package` makes (scripts/package/main.ts:
 * dpkg-deb and rpmbuild over one layout, scripts/package/layout.ts).
 *
 * k2s-dns owns everything privileged and system-wide: the CLI, the helper at its pinned
 * root-owned path /usr/lib/k2s-dns/k2s-dns-helper (+ k2s-dns-helper.mjs, run with /usr/bin/node),
 * the polkit action /usr/share/polkit-1/actions/io.k2s.dns.policy and the maintainer scripts
 * (resources/packaging/{postinst,prerm,postrm}). The desktop package only adds the Electron app
 * in its own directory (/usr/lib/k2s-dns-desktop, Forge's default for this name) and depends on
 * exactly the same k2s-dns version, so there is one helper and one set of scripts whichever
 * package a user installs, and removing the desktop package never touches host DNS.
 *
 * Not run in CI or on the dev machines: no Electron binary can be downloaded there
 * (docs/toolchain.md "Electron"; `npm run package` prints `skipped: no Electron binary`), and @electron-forge/* 8.x needs Node ≥ 22. So
 * Forge is not a dependency; this is a plain object in Forge's shape for a release machine with
 * `@electron-forge/cli`, `maker-deb`, `maker-rpm` and `plugin-vite`. Run `npm run build` first.
 */
import { readFileSync } from 'node:fs';

const version = (JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string }).version;

/** The one package everything privileged comes from (same version). */
export const BASE_PACKAGE = { name: 'k2s-dns', version };

/** Shared package metadata of deb and rpm. */
const common = {
  name: 'k2s-dns-desktop',
  productName: 'K2s DNS',
  genericName: 'Kubernetes DNS for K2s hosts',
  description: 'The K2s DNS desktop window; the CLI, the privileged helper and its polkit action come from the k2s-dns package.',
  categories: ['Network', 'Utility'],
  homepage: 'https://github.com/Siemens-Healthineers/K2s',
  bin: 'k2s-dns-desktop',
};

/** The Forge config object (module.exports shape of @electron-forge/cli 7/8). */
const config = {
  packagerConfig: {
    name: 'k2s-dns-desktop',
    executableName: 'k2s-dns-desktop',
    asar: true,
  },
  makers: [
    {
      name: '@electron-forge/maker-deb',
      config: {
        options: {
          ...common,
          maintainer: 'K2s DNS maintainers',
          section: 'net',
          depends: [`${BASE_PACKAGE.name} (= ${version})`],
        },
      },
    },
    {
      name: '@electron-forge/maker-rpm',
      config: {
        options: {
          ...common,
          license: 'MIT',
          requires: [`${BASE_PACKAGE.name} = ${version}`],
        },
      },
    },
  ],
  plugins: [
    {
      name: '@electron-forge/plugin-vite',
      config: {
        build: [
          // The Electron entry (package.json "main"): real backend + startDesktop.
          { entry: 'electron/main/app-entry.ts', config: 'vite.config.ts', target: 'main' },
          // Sandboxed preloads cannot require local files: Forge bundles it into one file.
          { entry: 'electron/main/preload.ts', config: 'vite.config.ts', target: 'preload' },
        ],
        renderer: [{ name: 'main_window', config: 'vite.config.ts' }],
      },
    },
  ],
};

export default config;
