#!/usr/bin/env bash
# JMH benchmarks of the embedded PDP (bench/). Writes the raw JMH JSON to bench/target/ and renders
# bench/results.md with the machine, the exact commands and p50/p99/ops/s. Run via `make bench` (which builds and
# installs the modules and the Wasm bundle first); BENCH_QUICK=1 shortens every run for a smoke check.
set -euo pipefail
cd "$(dirname "$0")/.."

out=bench/target
mkdir -p "$out"
mvn -B -q -ntp -pl bench dependency:build-classpath -Dmdep.outputFile="$PWD/$out/classpath.txt" >/dev/null
mvn -B -q -ntp -pl bench -DskipTests package >/dev/null
cp="bench/target/classes:$(cat "$out/classpath.txt")"

if [[ "${BENCH_QUICK:-0}" == 1 ]]; then
  timing=(-f 1 -wi 2 -w 1s -i 3 -r 1s)
else
  timing=(-f 1 -wi 3 -w 3s -i 5 -r 3s)
fi
jmh=(java -Xms512m -Xmx512m -Dgatehouse.bundle=target/bundle/bundle.tar.gz -cp "$cp" org.openjdk.jmh.Main)

run() { # name, then JMH arguments
  local name=$1; shift
  echo ">> $name: ${jmh[*]:0:4} org.openjdk.jmh.Main $*" | sed "s#-cp [^ ]*#-cp <bench classpath>#"
  "${jmh[@]}" "$@" "${timing[@]}" -rf json -rff "$out/$name.json" -o "$out/$name.log"
  echo "$* ${timing[*]}" > "$out/$name.args"
}

run call-list-sample-t1 'EmbeddedPdpBenchmark' -bm sample -tu us -t 1
run call-list-sample-t2 'EmbeddedPdpBenchmark' -bm sample -tu us -t 2
run call-list-thrpt-t1  'EmbeddedPdpBenchmark' -bm thrpt -tu s -t 1
run call-list-thrpt-t2  'EmbeddedPdpBenchmark' -bm thrpt -tu s -t 2
run stages-sample-t1    'DecisionStagesBenchmark' -bm sample -tu us -t 1

# The profile bundle: the same policies with one entrypoint per document PolicyDocumentsBenchmark times. Some rules
# (e.g. tools/ok, */denials) cannot be entrypoints of the Wasm compiler; these can.
opa="${OPA:-$HOME/.cache/gatehouse/opa-v1.22.3/opa}"
entrypoints=()
for doc in decision allow reasons obligations arguments/ok modes/ok wiki/ok; do
  entrypoints+=(-e "gatehouse/authz/$doc")
done
"$opa" build -t wasm -b policies "${entrypoints[@]}" --capabilities scripts/wasm-capabilities.json \
  -o "$out/profile-bundle.tar.gz"
if [[ "${BENCH_QUICK:-0}" == 1 ]]; then
  timing=(-f 1 -wi 1 -w 1s -i 2 -r 1s)
else
  timing=(-f 1 -wi 2 -w 2s -i 3 -r 2s)
fi
run documents-sample-t1 'PolicyDocumentsBenchmark' -bm sample -tu us -t 1 \
  -jvmArgsAppend "-Dgatehouse.profile-bundle=$out/profile-bundle.tar.gz"

python3 bench/render-results.py "$out" > bench/results.md
echo ">> bench/results.md written"
