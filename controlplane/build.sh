#!/usr/bin/env bash
# Builds the local control plane (etcd, kube-apiserver, kube-controller-manager,
# kube-scheduler, kubectl, kwok, kwokctl) from the Go module proxy into a cache folder
# outside the repository, and copies kwok's stage configurations beside them.
#
# Idempotent: a component is rebuilt only when its pinned version or its wrapper module
# changed, so a warm run takes seconds. Prints the binary folder on its last line.
#
#   controlplane/build.sh            build what is missing or stale
#   controlplane/build.sh --print    print the binary folder only (no build)
#   controlplane/build.sh --force    rebuild everything
#
# Environment: CONVERGE_CACHE_DIR (default ${XDG_CACHE_HOME:-$HOME/.cache}/converge).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=versions.env
source "$here/versions.env"

cache="${CONVERGE_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/converge}"
bin="$cache/controlplane/bin"
mode="${1:-build}"

if [[ "$mode" == "--print" ]]; then
  echo "$bin"
  exit 0
fi

if ! command -v go >/dev/null && [[ -x /usr/local/go/bin/go ]]; then
  PATH="/usr/local/go/bin:$PATH" # the official install location, when a login profile did not add it
fi
command -v go >/dev/null || { echo "build.sh: Go is required (go 1.26+ on PATH)" >&2; exit 1; }
mkdir -p "$bin"
export CGO_ENABLED=0 GOTOOLCHAIN=local GOFLAGS=-mod=readonly

log() { printf '[controlplane] %s\n' "$*" >&2; }

# A stamp is the hash of what determines a component's output: its wrapper module
# files, the pinned versions and the Go version.
stamp_of() {
  local dir="$1"
  { cat "$here/versions.env"; go version; cat "$dir"/go.mod "$dir"/go.sum "$dir"/*.go; } | sha256sum | cut -d' ' -f1
}

fresh() { # name outputs...
  local name="$1"; shift
  [[ "$mode" == "--force" ]] && return 1
  [[ -f "$bin/.$name.stamp" && "$(cat "$bin/.$name.stamp")" == "$(stamp_of "$here/$name")" ]] || return 1
  local f; for f in "$@"; do [[ -s "$bin/$f" ]] || return 1; done
}

build() { # name ldflags packages...
  local name="$1" ldflags="$2"; shift 2
  local start=$SECONDS out
  out="$(mktemp -d "$cache/controlplane/.build-$name.XXXXXX")"
  log "building $name ($*) ..."
  (cd "$here/$name" && go build -trimpath -ldflags "-s -w $ldflags" -o "$out/" "$@")
  mv -f "$out"/* "$bin/"
  rmdir "$out"
  stamp_of "$here/$name" > "$bin/.$name.stamp"
  log "built $name in $((SECONDS - start)) s"
}

k8s_ldflags=""
for pkg in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
  minor="${KUBERNETES_VERSION#v1.}"; minor="${minor%%.*}"
  k8s_ldflags+=" -X $pkg.gitVersion=$KUBERNETES_VERSION -X $pkg.gitMajor=1 -X $pkg.gitMinor=$minor"
  k8s_ldflags+=" -X $pkg.gitTreeState=clean -X $pkg.buildDate=1970-01-01T00:00:00Z"
done

if fresh kubernetes kube-apiserver kube-controller-manager kube-scheduler kubectl; then
  log "kubernetes $KUBERNETES_VERSION is up to date"
else
  build kubernetes "$k8s_ldflags" \
    k8s.io/kubernetes/cmd/kube-apiserver k8s.io/kubernetes/cmd/kube-controller-manager \
    k8s.io/kubernetes/cmd/kube-scheduler k8s.io/kubernetes/cmd/kubectl
fi

if fresh etcd etcd; then
  log "etcd $ETCD_VERSION is up to date"
else
  build etcd "-X go.etcd.io/etcd/api/v3/version.GitSHA=$ETCD_VERSION" .
fi

if fresh kwok kwok kwokctl stages/node-initialize.yaml; then
  log "kwok $KWOK_VERSION is up to date"
else
  build kwok "" sigs.k8s.io/kwok/cmd/kwok sigs.k8s.io/kwok/cmd/kwokctl
  # Stage configurations (kwok v0.8 ships none built in): node initialise + heartbeat
  # with lease, pod ready / complete / delete.
  src="$(cd "$here/kwok" && go list -m -f '{{.Dir}}' sigs.k8s.io/kwok)/kustomize/stage"
  mkdir -p "$bin/stages"
  install -m 0644 "$src/node/fast/node-initialize.yaml" \
    "$src/node/heartbeat-with-lease/node-heartbeat-with-lease.yaml" \
    "$src/pod/fast/pod-ready.yaml" "$src/pod/fast/pod-complete.yaml" \
    "$src/pod/fast/pod-delete.yaml" "$bin/stages/"
fi

echo "$bin"
