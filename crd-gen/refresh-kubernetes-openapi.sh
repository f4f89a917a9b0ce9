#!/usr/bin/env bash
# Refreshes src/main/resources/dev/converge/crd/internal/kubernetes-model-semantics.json.gz: what the API
# server of the pinned Kubernetes version (controlplane/versions.env) declares about the built-in types
# that fabric8's model classes stand for (list types and keys, map types, required fields, scalar
# defaults, string formats). Run it after changing the pinned Kubernetes or fabric8 version, and commit
# the file; the same server and fabric8 version always give the same bytes.
#
# It starts the local control plane (the same one the integration tests use), reads /openapi/v3 and
# every group-version document, and keeps only what crd-gen needs. Builds with the Maven reactor only
# (nothing is installed into ~/.m2).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bash controlplane/build.sh >/dev/null
mvn -B -ntp -q -pl crd-gen -am -Prefresh-kubernetes-openapi process-test-classes \
  -Dorg.slf4j.simpleLogger.defaultLogLevel=warn
git --no-pager diff --stat -- crd-gen/src/main/resources/dev/converge/crd/internal/ || true
