#!/usr/bin/env bash
# `make bench-compare BASE=<git revision>`: the policies of BASE (default HEAD) against the working tree's, both
# built as Wasm bundles exactly as `make bundle` builds them (scripts/build-bundle.sh, unsigned; BASE must have the
# `enforcement` entry point, which every revision the gateway serves has) and evaluated on the same inputs in
# alternating rounds of one JVM (bench/src/main/java/dev/gatehouse/bench/BundleComparison.java). The run fails when
# the two decide any input differently.
set -euo pipefail
cd "$(dirname "$0")/.."
base="${BASE:-HEAD}"
opa="${OPA:-$HOME/.cache/gatehouse/opa-v1.22.3/opa}"
out=bench/target/compare
rm -rf "$out" && mkdir -p "$out/base"
git archive "$base" policies schemas/tools | tar -x -C "$out/base"
for side in base:"$out/base" work:.; do
  OPA="$opa" scripts/build-bundle.sh --wasm --policies "${side#*:}/policies" --schemas "${side#*:}/schemas/tools" \
    --revision "${side%%:*}" -o "$out/${side%%:*}.tar.gz"
done
# The bench's bundle reader is configured with the local verification key (unsigned bundles allowed): the key pair
# of `make bundle`, made here once if this checkout has none yet (in $GATEHOUSE_DATA_DIR when set).
public_key="$(scripts/bundle-signing-key.sh)/public.pem"
echo ">> mvn -pl bench -am -DskipTests package (reactor build of this worktree, no install)"
mvn -B -q -ntp -DskipTests -pl bench -am package dependency:build-classpath -Dmdep.outputFile=target/classpath.txt >/dev/null
echo ">> $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs); load $(cut -d' ' -f1-3 /proc/loadavg)"
echo ">> BundleComparison $base vs working tree"
java -Xms512m -Xmx512m "-Dgatehouse.bundle.public-key=$public_key" -cp "bench/target/classes:$(cat bench/target/classpath.txt)" dev.gatehouse.bench.BundleComparison \
  "$out/base.tar.gz" "$out/work.tar.gz"
