/**
 * Electron Forge configuration for the deb and rpm packages.
 *
 * Packaging is NOT run in CI or on the dev machines: no Electron binary can be downloaded there
 * (docs/toolchain.md "Electron": `electron-forge package/make` build the bundles, then fail at "Copying files"),
 * and @electron-forge/* 8.x needs Node ≥ 22. So Forge is not a dependency; this is a plain object
 * in Forge's shape, ready for a release machine that has `@electron-forge/cli`, `maker-deb`,
 * `maker-rpm` and `plugin-vite` installed.
 *
 * Both packages ship the privileged helper and its polkit policy as extra resources and install
 * them from postinst: the policy's `org.freedesktop.policykit.exec.path` must name the installed
 * helper exactly, so both land at fixed system paths: /usr/lib/k2s-dns/k2s-dns-helper, a root-owned
 * launcher (resources/packaging/k2s-dns-helper; pinned in resources/io.k2s.dns.policy and
 * electron/core/backend-real.ts INSTALLED_HELPER) that runs the one-file bundle next to it,
 * /usr/lib/k2s-dns/k2s-dns-helper.mjs (scripts/build.mjs), and
 * /usr/share/polkit-1/actions/io.k2s.dns.policy. The systemd unit is not a resource: it is
 * rendered at runtime (shared/systemd-unit.ts). Run `npm run build` before packaging.
 */

/**
 * Files copied (by base name) into the app's resources/ directory (/usr/lib/k2s-dns/resources/
 * once installed); postinst installs them at the system paths above. The helper is the bundle,
 * never bin/k2s-dns-helper.mjs (that one needs the checkout's dist/ and node_modules).
 * electron/helper/packaged-helper.test.ts stages exactly this list into a temp root.
 */
export const extraResource = ['dist/k2s-dns-helper.mjs', 'dist/k2s-dns-helper.mjs.map', 'resources/packaging/k2s-dns-helper', 'resources/io.k2s.dns.policy'];

/** Shared package metadata of deb and rpm. */
const common = {
  name: 'k2s-dns',
  productName: 'K2s DNS',
  genericName: 'Kubernetes DNS for K2s hosts',
  description: 'Gives a native Linux K2s host cluster DNS and restores its exact resolver afterwards.',
  categories: ['Network', 'Utility'],
  homepage: 'https://github.com/Siemens-Healthineers/K2s',
  bin: 'k2s-dns',
};

/** The Forge config object (module.exports shape of @electron-forge/cli 7/8). */
const config = {
  packagerConfig: {
    name: 'k2s-dns',
    executableName: 'k2s-dns',
    asar: true,
    extraResource,
  },
  makers: [
    {
      name: '@electron-forge/maker-deb',
      config: {
        options: {
          ...common,
          maintainer: 'K2s DNS maintainers',
          section: 'net',
          // dnsmasq-base is the fallback engine; pkexec runs the helper (polkit).
          depends: ['pkexec | policykit-1', 'dnsmasq-base'],
          scripts: { postinst: 'resources/packaging/postinst', prerm: 'resources/packaging/prerm' },
        },
      },
    },
    {
      name: '@electron-forge/maker-rpm',
      config: {
        options: {
          ...common,
          license: 'MIT',
          requires: ['polkit', 'dnsmasq'],
          scripts: { post: 'resources/packaging/postinst', preun: 'resources/packaging/prerm' },
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
