#!/usr/bin/env bash
# `make bench`: JMH benchmarks of the embedded PDP and the load harness of the whole gateway (bench/). Writes the raw
# JMH JSON and the load report to bench/target/, then bench/results.md (machine, exact commands, tables) and
# bench/results.json (a list of {name, p50_us, p99_us, ops_s, errors, refused}).
#
# The load harness runs twice: its throughput series on a bench-budget bundle, then the fairness series
# (only=fairness) on the real budgets; results.md reports whether the fairness bar held.
#
# The modules are built here in one reactor (`mvn -pl bench,local-services -am package`), so the benchmarks run on
# this worktree's jars and nothing is installed into ~/.m2. BENCH_QUICK=1: the decision.* benchmarks and the load
# harness only (and the memo.* rows with the memo's hit rate), with short JMH iterations (the load counts stay: 5,000 requests per name, 10,000 mixed calls); the
# profile benchmarks (EmbeddedPdp, DecisionStages, PolicyDocuments) and all ten scripts run in the full run.
set -euo pipefail
cd "$(dirname "$0")/.."

quick="${BENCH_QUICK:-0}"
out=bench/target
opa="${OPA:-$HOME/.cache/gatehouse/opa-v1.22.3/opa}"
rm -rf "$out/jmh" "$out/decision-errors" "$out/bundles" "$out/load-fresh.json"
mkdir -p "$out/jmh" "$out/bundles"
# The run's facts for render-results.py, so a later re-render reports this run and not the machine at that time.
{ echo "quick=$quick"; echo "load_start=$(cut -d' ' -f1-3 /proc/loadavg)"; } > "$out/run.txt"

echo ">> mvn -pl bench,local-services -am -DskipTests package (reactor build of this worktree, no install)"
# Re-shading an already shaded jar only grows original-*.jar (see the Makefile's build target).
rm -f sdk-facades/target/*.jar local-services/target/*.jar gateway/target/*.jar bench/target/*.jar
mvn -B -q -ntp -DskipTests -pl bench,local-services -am package dependency:build-classpath \
  -Dmdep.outputFile=target/classpath.txt >/dev/null
cp="bench/target/classes:$(cat bench/target/classpath.txt)"
local_jar="$(ls local-services/target/local-services-*.jar | grep -v original | head -1)"
gateway_jar="$(ls gateway/target/gateway-*.jar | grep -v original | head -1)"

# Bundles with made-up access tables of 100 and 1,000 rows: a temporary copy of policies/ whose
# gatehouse/access_table/data.json repeats the real rows under new names (<name>__copy<k>), built as `make bundle`
# builds the real one.
revision="$(scripts/source-revision.sh)"
for rows in 100 1000; do
  tmp="$(mktemp -d)"
  cp -r policies "$tmp/policies"
  python3 - "$tmp/policies/gatehouse/access_table/data.json" "$rows" <<'PY'
import json, sys
path, rows = sys.argv[1], int(sys.argv[2])
table = json.load(open(path))
names = list(table)
grown, k = dict(table), 0
while len(grown) < rows:
    name = names[k % len(names)]
    grown[f"{name}__copy{k // len(names) + 1}"] = table[name]
    k += 1
json.dump(grown, open(path, "w"), indent=2)
PY
  OPA="$opa" scripts/build-bundle.sh --wasm --policies "$tmp/policies" --revision "$revision" \
    -o "$out/bundles/bundle-$rows.tar.gz"
  rm -rf "$tmp"
done
# The load harness's throughput series send thousands of calls per second as one agent (a1), far past any real
# budget: they run on the same policies with every quota of policies/gatehouse/quotas/data.json raised 10^4-fold,
# signed with the local key as `make bundle` signs, so they measure the gate and not the limiter. The fairness series
# (LoadHarness only=fairness) runs the real budgets.
tmp="$(mktemp -d)"
cp -r policies "$tmp/policies"
# The smoke cases the gateway runs at activation expect the quota numbers too: raised alike, or the revision is refused.
python3 - "$tmp/policies/gatehouse/quotas/data.json" "$tmp/policies/gatehouse/smoke/data.json" <<'PY'
import json, sys

def raised(node):
    """Every ratePerMinute and burst number in node, 10^4-fold."""
    if isinstance(node, dict):
        return {key: value * 10000 if key in ("ratePerMinute", "burst") and isinstance(value, int) else raised(value)
                for key, value in node.items()}
    if isinstance(node, list):
        return [raised(value) for value in node]
    return node

for path in sys.argv[1:]:
    document = raised(json.load(open(path)))
    json.dump(document, open(path, "w"), indent=2)
PY
echo "{\"iat\": $(date +%s)}" > "$tmp/claims.json"
OPA="$opa" scripts/build-bundle.sh --wasm --policies "$tmp/policies" --revision "$revision-bench-budget" \
  -o "$out/bundles/bench-budget.tar.gz" -- --signing-key "$(realpath "$(scripts/bundle-signing-key.sh)/private.pem")" \
  --claims-file "$tmp/claims.json"
rm -rf "$tmp"
real_rows="$(python3 -c 'import json; print(len(json.load(open("policies/gatehouse/access_table/data.json"))))')"
echo "$real_rows" > "$out/jmh/real-rows.txt"

if [[ "$quick" == 1 ]]; then
  timing=(-f 1 -wi 1 -w 1s -i 2 -r 1s)
  scripts=(-p script=CYRILLIC,CJK,ARABIC,GREEK,HANGUL,DEVANAGARI)
else
  timing=(-f 1 -wi 3 -w 3s -i 5 -r 3s)
  scripts=()
fi
jmh=(java -Xms512m -Xmx512m -Dgatehouse.bundle=target/bundle/bundle.tar.gz -cp "$cp" org.openjdk.jmh.Main)

run() { # name, then JMH arguments
  local name=$1; shift
  echo ">> $name: ${jmh[*]:0:4} org.openjdk.jmh.Main $*" | sed "s#-cp [^ ]*#-cp <bench classpath>#"
  "${jmh[@]}" "$@" "${timing[@]}" -rf json -rff "$out/jmh/$name.json" -o "$out/jmh/$name.log" \
    || { tail -30 "$out/jmh/$name.log"; exit 1; }
  echo "$* ${timing[*]}" > "$out/jmh/$name.args"
}

errors=(-jvmArgsAppend "-Dgatehouse.bench.errors-dir=$out/decision-errors -Dgatehouse.bench.bundles=$out/bundles")
run decisions-sample-t1 'DecisionBenchmark' -bm sample -tu us -t 1 "${errors[@]}"
run nonascii-sample-t1 'NonAsciiWriteBenchmark' -bm sample -tu us -t 1 "${scripts[@]}" "${errors[@]}"
run tools-list-sample-t1 'ToolsListBenchmark' -bm sample -tu us -t 1 "${errors[@]}"
# What the size of the arguments does: the decision on what the PEP sends, and the PEP's argument step.
run arguments-sample-t1 'ArgumentSizeBenchmark' -bm sample -tu us -t 1 "${errors[@]}"
# The decision memo: its hit path (memo.*), and its hit rate on the load harness's mixed call mix.
run memo-sample-t1 'MemoBenchmark' -bm sample -tu us -t 1 "${errors[@]}"
echo ">> memo hit rate: java -cp <bench classpath> dev.gatehouse.bench.MemoHitRate $out/memo-hit-rate.json 10000"
java -Xmx512m -Dgatehouse.bundle=target/bundle/bundle.tar.gz -cp "$cp" dev.gatehouse.bench.MemoHitRate \
  "$out/memo-hit-rate.json" 10000

if [[ "$quick" != 1 ]]; then
  run call-list-sample-t1 'EmbeddedPdpBenchmark' -bm sample -tu us -t 1
  run call-list-sample-t2 'EmbeddedPdpBenchmark' -bm sample -tu us -t 2
  run call-list-thrpt-t1  'EmbeddedPdpBenchmark' -bm thrpt -tu s -t 1
  run call-list-thrpt-t2  'EmbeddedPdpBenchmark' -bm thrpt -tu s -t 2
  run stages-sample-t1    'DecisionStagesBenchmark' -bm sample -tu us -t 1

  # The profile bundle: the same policies with one entrypoint per document PolicyDocumentsBenchmark times. Some
  # rules (e.g. tools/ok, */denials) cannot be entrypoints of the Wasm compiler; these can.
  entrypoints=()
  for doc in decision allow reasons obligations arguments/ok modes/ok wiki/ok; do
    entrypoints+=(-e "gatehouse/authz/$doc")
  done
  OPA="$opa" scripts/build-bundle.sh --wasm -o "$out/profile-bundle.tar.gz" -- "${entrypoints[@]}"
  timing=(-f 1 -wi 2 -w 2s -i 3 -r 2s)
  run documents-sample-t1 'PolicyDocumentsBenchmark' -bm sample -tu us -t 1 \
    -jvmArgsAppend "-Dgatehouse.profile-bundle=$out/profile-bundle.tar.gz"
fi

# The load harness: both servers as processes on free loopback ports, stopped at the end (also on failure). Its one
# agent sends up to 64 calls at once, so the gateway runs with a caller's fair share as large as that (the default,
# 2 in flight and 32 queued, refused half of the c64 calls as rate_limited): like the budgets, the share is measured by
# the fairness series, not here.
load=(java -Xmx512m -cp "$cp" dev.gatehouse.bench.LoadHarness "local-jar=$local_jar" "gateway-jar=$gateway_jar"
  bundle="$out/bundles/bench-budget.tar.gz" "work=$out/load-work" "out=$out/load.json" requests=5000 mixed=10000
  "gateway-options=-Dgatehouse.quotas.in-flight=64 -Dgatehouse.quotas.queued=64")
# Every series runs on a gateway whose JIT has settled: warm-up rounds until its compiler threads took at most 5 % of
# its CPU in the last one (issue 27: a gateway still compiling spent 25-40 % of its CPU in C2 and ran code C2 had not
# compiled yet, which the per-call figures counted as the gate's own cost).
if [[ "$quick" == 1 ]]; then warm=(warmup=1000 warmup-max-seconds=120 series-seconds=150)
else warm=(warmup=3000 warmup-max-seconds=240 series-seconds=300); fi
load+=("${warm[@]}" warmup-jit-share=0.05)
rm -rf "$out/load-work"
echo ">> load: ${load[*]}" | sed "s#-cp [^ ]*#-cp <bench classpath>#"
echo "${load[*]:5}" > "$out/load.args"
timeout 1500 "${load[@]}"

# The gate's own cost with every decision fresh (issue 27): the same calls with the decision memo off, so the engine
# evaluates each one; series named load.<target>.<operation>.c<n>.fresh.
fresh=(java -Xmx512m -cp "$cp" dev.gatehouse.bench.LoadHarness "local-jar=$local_jar" "gateway-jar=$gateway_jar"
  bundle="$out/bundles/bench-budget.tar.gz" "work=$out/fresh-work" "out=$out/load-fresh.json" requests=5000 mixed=0
  operations=project_work_list,wiki_read concurrency=1,16 label=fresh "${warm[@]}" warmup-jit-share=0.05
  "gateway-options=-Dgatehouse.quotas.in-flight=64 -Dgatehouse.quotas.queued=64 -Dgatehouse.policy.memo.enabled=false")
rm -rf "$out/fresh-work"
echo ">> fresh: ${fresh[*]}" | sed "s#-cp [^ ]*#-cp <bench classpath>#"
echo "${fresh[*]:5}" > "$out/load-fresh.args"
timeout 1200 "${fresh[@]}"

# Fair under load (issue 25): nine agents on the REAL budgets (the bundle of `make bundle`), one of them abusive, on
# one gateway and then on two replicas of one PostgreSQL (LoadHarness only=fairness, FairnessLoad).
fairness=(java -Xmx512m -cp "$cp" dev.gatehouse.bench.LoadHarness only=fairness "local-jar=$local_jar"
  "gateway-jar=$gateway_jar" bundle=target/bundle/bundle.tar.gz "work=$out/fairness-work" "out=$out/fairness.json")
if [[ "$quick" == 1 ]]; then fairness+=(rounds=3 phase-seconds=10); else fairness+=(rounds=4 phase-seconds=20); fi
rm -rf "$out/fairness-work" "$out/fairness.json"
echo ">> fairness: ${fairness[*]}" | sed "s#-cp [^ ]*#-cp <bench classpath>#"
echo "${fairness[*]:5}" > "$out/fairness.args"
timeout 1200 "${fairness[@]}"

echo "load_end=$(cut -d' ' -f1-3 /proc/loadavg)" >> "$out/run.txt"
python3 bench/render-results.py "$out" bench/results.md bench/results.json
echo ">> bench/results.md and bench/results.json written"
