#!/usr/bin/env bash
# Prints the latency of a validating webhook called by kube-apiserver of the local control plane
# (p50/p90/p99/max over 1,000 server-side dry-run creates, against the same without a webhook) and
# called directly over HTTPS. Extra arguments go to Maven, e.g. -Dconverge.bench.webhooks.calls=5000.
set -euo pipefail
cd "$(dirname "$0")/.."
bash controlplane/build.sh >/dev/null
mvn -B -ntp -q -pl webhooks -am verify -Dconverge.archetype.check.skip=true \
  -Dtest=None -Dsurefire.failIfNoSpecifiedTests=false \
  -Dit.test=ValidatingLatencyBenchmarkIT -Dfailsafe.failIfNoSpecifiedTests=false \
  -Dconverge.bench.webhooks=true -DtrimStackTrace=false "$@" \
  2>&1 | grep -E '^\||^Validating webhook latency|ERROR|FAIL' || true
