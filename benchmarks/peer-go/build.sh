#!/usr/bin/env bash
# Builds the controller-runtime twin of the example operator (app-operator-go) into a cache folder
# outside the repository, beside the local control plane's binaries, and prints the binary's path
# on its last line. Rebuilt only when its sources, its modules or the Go version changed (a stamp
# of their hash is kept beside the binary), so a warm run takes a moment; before a build its
# tests run, so a broken twin is never cached. Needs the Go module proxy only for the first build
# on a machine (after that the module cache suffices).
#
#   benchmarks/peer-go/build.sh           build when missing or stale
#   benchmarks/peer-go/build.sh --print   print the binary's path only (no build)
#
# Environment: CONVERGE_CACHE_DIR (default ${XDG_CACHE_HOME:-$HOME/.cache}/converge).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cache="${CONVERGE_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/converge}"
bin="$cache/peer-go/bin"
binary="$bin/app-operator-go"

if [[ "${1:-}" == "--print" ]]; then
  echo "$binary"
  exit 0
fi

if ! command -v go >/dev/null && [[ -x /usr/local/go/bin/go ]]; then
  PATH="/usr/local/go/bin:$PATH" # the official install location, when a login profile did not add it
fi
command -v go >/dev/null || { echo "peer-go/build.sh: Go is required (go 1.26+ on PATH)" >&2; exit 1; }
export CGO_ENABLED=0 GOTOOLCHAIN=local GOFLAGS=-mod=readonly

log() { printf '[peer-go] %s\n' "$*" >&2; }

stamp="$({ go version; cd "$here" && cat go.mod go.sum ./*.go; } | sha256sum | cut -d' ' -f1)"
if [[ -x "$binary" && -f "$bin/.stamp" && "$(cat "$bin/.stamp")" == "$stamp" ]]; then
  log "app-operator-go is up to date"
  echo "$binary"
  exit 0
fi

mkdir -p "$bin"
start=$SECONDS
log "testing and building app-operator-go ..."
(cd "$here" && go vet ./... && go test -count=1 ./... >&2)
out="$(mktemp -d "$bin/.build.XXXXXX")"
(cd "$here" && go build -trimpath -ldflags "-s -w" -o "$out/app-operator-go" .)
mv -f "$out/app-operator-go" "$binary"
rmdir "$out"
echo "$stamp" > "$bin/.stamp"
log "built app-operator-go in $((SECONDS - start)) s"
echo "$binary"
