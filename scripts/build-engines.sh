#!/usr/bin/env bash
# Builds the two real DNS engines the e2e test bed runs, from their published Go modules, into
# the git-ignored .tools/bin (caches in .tools/go): AdGuard dnsproxy and a trimmed CoreDNS
# (tools/engines/coredns/main.go: only the plugins the fixtures' Corefiles use). Versions come
# from tools/engines/versions.env only. A tool already there at the pinned version is kept, so a
# second run takes about a second. Without Go it says so and exits 0: the e2e tests that need the
# engines then print `skipped: <why>`. Its lines say `setup:` as every phase of scripts/setup.sh,
# which runs it; the estimates are a first build on a 2-core machine (dnsproxy 67 s, CoreDNS 166 s).
# Usage: bash scripts/build-engines.sh [--force]
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
# shellcheck source=lib/step.sh
. scripts/lib/step.sh
logs="$root/.tools/logs"
# shellcheck source=../tools/engines/versions.env
. tools/engines/versions.env
force=0
[[ "${1:-}" == "--force" ]] && force=1

bin="$root/.tools/bin"
dnsproxy_want="dnsproxy version $DNSPROXY_VERSION"
coredns_want="CoreDNS-${COREDNS_VERSION#v}"
have_dnsproxy() { [[ -x "$bin/dnsproxy" ]] && [[ "$("$bin/dnsproxy" --version 2>/dev/null)" == "$dnsproxy_want" ]]; }
have_coredns() { [[ -x "$bin/coredns" ]] && [[ "$("$bin/coredns" -version 2>/dev/null | head -n1)" == "$coredns_want" ]]; }

if ((force == 0)) && have_dnsproxy && have_coredns; then
  echo "setup: the test bed's engines (AdGuard dnsproxy $DNSPROXY_VERSION, CoreDNS $COREDNS_VERSION) already in .tools/bin"
  exit 0
fi
if ! command -v go >/dev/null 2>&1; then
  echo "setup: Go is not installed, so AdGuard dnsproxy $DNSPROXY_VERSION and CoreDNS $COREDNS_VERSION were not built and the e2e tests that need them will be skipped (install Go >= 1.24 and rerun scripts/setup.sh)."
  exit 0
fi

mkdir -p "$bin" "$root/.tools/go/mod" "$root/.tools/go/cache"
export GOMODCACHE="$root/.tools/go/mod" GOCACHE="$root/.tools/go/cache" CGO_ENABLED=0 GOFLAGS=-mod=mod
# `go install module@version` is not used: the module proxy refuses its deprecation lookup on
# some networks (403); a wrapper module with the exact version in go.mod builds the same code.

# build NAME DIR MODULE VERSION PACKAGE LDFLAGS: pins MODULE@VERSION in a copy of DIR's wrapper
# module under .tools/build (go rewrites go.mod and go.sum there, e.g. the `go` line a
# dependency asks for, so the checkout stays clean), builds PACKAGE. Run through `step`: go's
# output (~90 `go: downloading …` lines on a first build) goes to .tools/logs/build-NAME.log.
build() {
  local name=$1 dir=$2 module=$3 version=$4 pkg=$5 ldflags=$6 work="$root/.tools/build/$1"
  rm -rf "$work"
  mkdir -p "$work"
  cp -R "$dir/." "$work/"
  cd "$work"
  go mod edit -require="$module@$version"
  go build -trimpath -ldflags "$ldflags" -o "$bin/$name.tmp" "$pkg"
  mv -f "$bin/$name.tmp" "$bin/$name"
}

if ((force == 1)) || ! have_dnsproxy; then
  # The version string is a linker variable (dnsproxy scripts/make/go-build.sh); without it
  # `dnsproxy --version` prints an empty version.
  step "$logs/build-dnsproxy.log" "setup: building AdGuard dnsproxy $DNSPROXY_VERSION with Go (about a minute)" \
    build dnsproxy tools/engines/dnsproxy github.com/AdguardTeam/dnsproxy "$DNSPROXY_VERSION" \
    github.com/AdguardTeam/dnsproxy "-s -w -X github.com/AdguardTeam/golibs/version.version=$DNSPROXY_VERSION"
  have_dnsproxy || { echo "setup: the built dnsproxy does not print \"$dnsproxy_want\"" >&2; exit 1; }
fi
if ((force == 1)) || ! have_coredns; then
  step "$logs/build-coredns.log" "setup: building CoreDNS $COREDNS_VERSION with Go (a few minutes)" \
    build coredns tools/engines/coredns github.com/coredns/coredns "$COREDNS_VERSION" . "-s -w"
  have_coredns || { echo "setup: the built coredns does not print \"$coredns_want\"" >&2; exit 1; }
fi
