#!/usr/bin/env bash
# `npm test`: type check, unit tests, then (as root) the e2e tests in the sandbox and the UI
# tests in Chromium. Ends with one line "tests: N passed, N failed, N skipped".
set -uo pipefail
cd "$(dirname "$0")/.."
mkdir -p .tmp
rm -f .tmp/*.json
status=0

echo "== type check"
npx tsc --noEmit -p tsconfig.json || status=1

echo "== unit tests"
npx vitest run --config vitest.config.ts --reporter=default --reporter=json --outputFile=.tmp/unit.json || status=1

if [ "$(id -u)" = 0 ]; then
  # The e2e tests spawn bin/k2s-dns.mjs, which runs dist/: test what users run, built now.
  echo "== build (npm run build: esbuild bundles, renderer, preload)"
  npm run build --silent || status=1
  # The deb and the rpm users install (out/packages); e2e/package-install.e2e.test.ts installs its own builds.
  echo "== packages (npm run package: dpkg-deb, rpmbuild)"
  npm run package --silent -- --skip-build || status=1
  echo "== end-to-end tests (network + mount namespace sandbox)"
  bash e2e/bed/sandbox.sh npx vitest run --config vitest.e2e.config.ts --reporter=default --reporter=json --outputFile=.tmp/e2e.json || status=1
  if [ -f playwright.config.ts ]; then
    echo "== UI tests (Playwright in Debian Chromium, inside the sandbox)"
    PLAYWRIGHT_JSON_OUTPUT_NAME=.tmp/ui.json bash e2e/bed/sandbox.sh npx playwright test -c playwright.config.ts --reporter=list,json || status=1
  fi
else
  echo "skipped: end-to-end and UI tests need root (network and mount namespaces); run npm test as root"
fi

node scripts/summarize-tests.mjs .tmp/unit.json .tmp/e2e.json .tmp/ui.json || status=1
exit $status
