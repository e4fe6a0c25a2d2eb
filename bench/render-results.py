"""Renders bench/results.md and bench/results.json from what scripts/bench.sh leaves in bench/target/.

Usage: python3 bench/render-results.py <bench/target> <results.md> <results.json>
Reads jmh/*.json (+ *.args, the JMH arguments of each run), decision-errors/*.errors, load.json (+ load.args) and
fairness.json (+ fairness.args) when present. results.json is a list of {name, p50_us, p99_us, ops_s, errors,
refused}; every load.gated.* row also has gateway_cpu_us_per_call; the load.fairness.* rows add what the fairness bar
reads (p99_ratio, the abuser's rate_limited, served and budget); plus memo.hit_rate.mixed as
{name, calls, hits, misses, skipped, hit_rate} (memo-hit-rate.json). Appends bench/notes.md when present.
"""
import glob
import json
import os
import platform
import subprocess
import sys

out, md_path, json_path = sys.argv[1], sys.argv[2], sys.argv[3]
run_facts = {}
if os.path.exists(os.path.join(out, "run.txt")):
    run_facts = dict(line.strip().split("=", 1) for line in open(os.path.join(out, "run.txt")) if "=" in line)
quick = run_facts.get("quick", os.environ.get("BENCH_QUICK", "0")) == "1"


def sh(command):
    return subprocess.run(command, shell=True, capture_output=True, text=True).stdout.strip()


def r1(value):
    return round(value, 1)


runs = []  # (file stem, run)
for path in sorted(glob.glob(os.path.join(out, "jmh", "*.json"))):
    for run in json.load(open(path)):
        runs.append((os.path.basename(path)[:-5], run))

errors = {}  # benchmark[-k=v...] -> (errors, refused)
for path in glob.glob(os.path.join(out, "decision-errors", "*.errors")):
    numbers = [int(x) for x in open(path).read().split()]
    errors[os.path.basename(path)[:-7]] = (numbers[0], numbers[1] if len(numbers) > 2 else 0)

real_rows = open(os.path.join(out, "jmh", "real-rows.txt")).read().strip()


def key(run):
    k = run["benchmark"]
    for name, value in sorted(run.get("params", {}).items()):
        k += f"-{name}={value}"
    return k


def sample_entry(name, run):
    metric = run["primaryMetric"]
    p = metric["scorePercentiles"]
    e, refused = errors.get(key(run), (None, None))
    return {"name": name, "p50_us": r1(p["50.0"]), "p99_us": r1(p["99.0"]),
            # Sample mode at one thread: ops/s = 1 / mean time per operation.
            "ops_s": r1(1e6 / metric["score"] * run["threads"]), "errors": e if e is not None else -1,
            "refused": refused if refused is not None else -1}


results, nonascii, sizes = [], [], {}
for stem, run in runs:
    bench = run["benchmark"].rsplit(".", 2)
    cls, method = bench[-2], bench[-1]
    if run["mode"] != "sample":
        continue
    if cls == "DecisionBenchmark":
        name = {"launchAllowed": "decision.launch.allowed", "wikiWriteAscii": "decision.wiki_write.ascii",
                "denied": "decision.denied"}[method]
        results.append(sample_entry(name, run))
    elif cls == "MemoBenchmark":
        name = {"launchAllowed": "memo.launch.allowed", "wikiWriteAscii": "memo.wiki_write.ascii",
                "denied": "memo.denied", "toolsList": "memo.tools_list"}[method]
        results.append(sample_entry(name, run))
    elif cls == "NonAsciiWriteBenchmark":
        script = run["params"]["script"]
        nonascii.append((script, sample_entry("decision.wiki_write.nonascii." + script.lower(), run)))
    elif cls == "ArgumentSizeBenchmark":
        shape = run["params"]["shape"]
        prefix = "decision.arguments." if method == "decision" else "pep.arguments."
        entry = sample_entry(prefix + shape, run)
        results.append(entry)
        sizes.setdefault(shape, {})[method] = entry
    elif cls == "ToolsListBenchmark":
        rows = run["params"]["rows"]
        results.append(sample_entry("decision.tools_list." + (real_rows if rows == "real" else rows), run))
        if rows == "real" and real_rows != "21":
            alias = sample_entry("decision.tools_list.21", run)
            results.append(alias)

worst = None
if nonascii:
    worst = max(nonascii, key=lambda item: item[1]["p50_us"])
    entry = dict(worst[1])
    entry["name"] = "decision.wiki_write.nonascii"
    results.append(entry)
    results.extend(entry for _, entry in nonascii)

# The memo's hit rate on the mixed trace (MemoHitRate): a row of its own, with the counts instead of timings.
hit_rate_path = os.path.join(out, "memo-hit-rate.json")
memo_hit_rate = json.load(open(hit_rate_path)) if os.path.exists(hit_rate_path) else None
if memo_hit_rate:
    results.append({"name": "memo.hit_rate.mixed", **memo_hit_rate})

ROW = ("name", "p50_us", "p99_us", "ops_s", "errors", "refused")
load = json.load(open(os.path.join(out, "load.json")))
by_name = {r["name"]: r for r in load["results"]}
for r in load["results"]:
    row = {k: r[k] for k in ROW}
    if r["name"].startswith("load.gated."):
        # Every gated row says what its calls cost the gateway's own JVM (issue 27); a row without it is a harness bug.
        row["gateway_cpu_us_per_call"] = r["gateway_cpu_us_per_call"]
    results.append(row)

# The fresh series (issue 27): the same calls with the decision memo off, rows named load.*.c<n>.fresh.
fresh_path = os.path.join(out, "load-fresh.json")
fresh = json.load(open(fresh_path)) if os.path.exists(fresh_path) else None
if fresh:
    for r in fresh["results"]:
        row = {k: r[k] for k in ROW}
        if r["name"].startswith("load.gated."):
            row["gateway_cpu_us_per_call"] = r["gateway_cpu_us_per_call"]
        results.append(row)
        by_name[r["name"]] = r

fairness_path = os.path.join(out, "fairness.json")
fairness = json.load(open(fairness_path)) if os.path.exists(fairness_path) else None
FAIRNESS_EXTRA = ("requests", "p99_ratio", "rate_limited", "served", "within_one_budget")
if fairness:
    for r in fairness["results"]:
        results.append({k: r[k] for k in ROW + FAIRNESS_EXTRA if k in r})

order = ["decision.launch.allowed", "decision.wiki_write.ascii", "decision.wiki_write.nonascii", "decision.denied"]
results.sort(key=lambda r: (order.index(r["name"]) if r["name"] in order else len(order), 0))
json.dump(results, open(json_path, "w"), indent=2, ensure_ascii=False)
open(json_path, "a").write("\n")

lines = []
w = lines.append
cpu = next((line.split(":", 1)[1].strip() for line in sh("lscpu").splitlines() if line.startswith("Model name")), "?")
w("# Benchmark results: embedded PDP (opa-java-wasm) and the gateway under load\n")
w(f"Generated by `{'BENCH_QUICK=1 ' if quick else ''}make bench` (scripts/bench.sh); numbers are from one run on a "
  "shared machine, not timed tests. The machine-readable list is bench/results.json.\n")
w("## Machine\n")
w(f"- `nproc`: {sh('nproc')}")
w(f"- CPU (`lscpu` model): {cpu}")
w(f"- `java -version`: {' / '.join(sh('java -version 2>&1').splitlines())}")
w(f"- OS: {platform.platform()}")
load_end = run_facts.get("load_end", " ".join(open("/proc/loadavg").read().split()[:3]) + " (at rendering)")
w(f"- load average (1, 5, 15 min) at the start of the run: {run_facts.get('load_start', '?')}; at the end: "
  f"{load_end} (the machine is shared with other workers; the client, the gateway and local-services share its "
  "cores)\n")
w("## Commands\n")
w("```")
w(f"{'BENCH_QUICK=1 ' if quick else ''}make bench")
for args in sorted(glob.glob(os.path.join(out, "jmh", "*.args"))):
    w(f"java -Xms512m -Xmx512m -Dgatehouse.bundle=target/bundle/bundle.tar.gz -cp <bench classpath> "
      f"org.openjdk.jmh.Main {open(args).read().strip()}")
w(f"java -Xmx512m -cp <bench classpath> dev.gatehouse.bench.LoadHarness "
  f"{open(os.path.join(out, 'load.args')).read().strip()}")
if fairness and os.path.exists(os.path.join(out, "fairness.args")):
    w(f"java -Xmx512m -cp <bench classpath> dev.gatehouse.bench.LoadHarness "
      f"{open(os.path.join(out, 'fairness.args')).read().strip()}")
w("```\n")

w("## results.json\n")
w("`decision.*`: JMH sample mode, one thread, embedded PDP (typed input → JSON → Wasm → parsed decision); each "
  "benchmark cycles through a ring of 4,096 distinct inputs (caller ids and so wiki subtrees, paths, arguments), so no "
  "memo can answer; ops/s = 1 / mean. errors/refused: outcomes checked on every timed operation (a refusal is a "
  "denial of an input that must be allowed). `load.*`: client-side wall time per request, see below.\n")
w("`gateway CPU µs/call`: the gateway JVM's CPU time (user + system) per call of a `load.gated.*` series.\n")
w("| name | p50 µs | p99 µs | ops/s | errors | refused | gateway CPU µs/call |")
w("|---|---|---|---|---|---|---|")
for r in results:
    if "hit_rate" in r:
        continue
    cpu_per_call = f"{r['gateway_cpu_us_per_call']:,}" if "gateway_cpu_us_per_call" in r else ""
    w(f"| {r['name']} | {r['p50_us']:,} | {r['p99_us']:,} | {r['ops_s']:,} | {r['errors']} | {r['refused']} | "
      f"{cpu_per_call} |")
w("")
w("`memo.*`: the decision memo's hit path (policy/MemoizingPdp in front of the same engine): the same rings, each "
  "input decided once in setup, then every timed call answered from the memo (a timed miss counts as an error).")
if memo_hit_rate:
    w(f"Hit rate on the load harness's mixed call mix replayed through a fresh memo (`memo.hit_rate.mixed`): "
      f"**{memo_hit_rate['hit_rate']:.1%}** ({memo_hit_rate['hits']:,} hits, {memo_hit_rate['misses']:,} misses, "
      f"{memo_hit_rate['skipped']:,} not kept, of {memo_hit_rate['calls']:,} calls).")
w("")
if worst:
    w(f"`decision.wiki_write.nonascii` is the worst script by p50 of those run: **{worst[0]}**. "
      f"`decision.tools_list.{real_rows}` is the real access table ({real_rows} rows)"
      + (f"; `decision.tools_list.21` repeats it under the name the issue used." if real_rows != "21" else ".")
      + " The 100- and 1,000-row tables copy the real rows under new names into a temporary copy of policies/, "
      "rebuilt with `opa build -t wasm`.\n")

if sizes:
    w("## What the size of the arguments does\n")
    w("`ArgumentSizeBenchmark`: for each shape of arguments, a ring of 64 calls whose paths or run ids differ. "
      "`decision.arguments.<shape>` is the embedded PDP's evaluation of what the PEP sends (the time an engine "
      "instance is held); `pep.arguments.<shape>` is the PEP's argument step that prepares it (envelope, closed-schema "
      "check, long strings sent as length + SHA-256), on the caller's thread. The ratio is to the same tool's "
      "`typical` decision (issue bar: at most 2×). Shapes beyond the envelope are refused as `schema` without being "
      "validated or sent; `business_64` is project_work_submit's result at the default `max-open-members`; "
      "`path_longest_*` is the longest path the policy admits (32 segments of 251 UTF-8 bytes).\n")
    w("| shape | decision p50 µs | ratio to typical | PEP step p50 µs | outcome |")
    w("|---|---|---|---|---|")
    for shape in sorted(sizes, key=lambda s: (s.split(".")[0], s.split(".")[1] != "typical", s)):
        entry = sizes[shape].get("decision")
        if not entry:
            continue
        base = sizes.get(shape.split(".")[0] + ".typical", {}).get("decision")
        ratio = f"{entry['p50_us'] / base['p50_us']:.2f}×" if base else "?"
        step = sizes[shape].get("argumentStep", {}).get("p50_us", "?")
        allowed = shape.endswith((".typical", "content_512k")) or "path_longest" in shape or "business_64" in shape
        w(f"| {shape} | {entry['p50_us']:,} | {ratio} | {step:,} | {'allowed' if allowed else 'refused (schema)'} |")
    w("")

w("## Gate overhead: gated vs direct\n")
cfg = load["config"]
w(f"The same operation through the gateway (`tools/call`, 2026-07-28, thread session a1/t1) and straight to "
  f"local-services' HTTP API (Bearer service credential), in {cfg['rounds']} alternating batches per "
  f"concurrency (gated first in even batches, direct first in odd ones), {cfg['requests']:,} requests per name after "
  f"{cfg['warmup']:,} warm-up requests per operation and target. Client: {cfg['client']}. Gateway heap "
  f"{cfg['gateway_heap']}, local-services {cfg['local_services_heap']}. Ratios are gated / direct "
  "(throughput: gated / direct, so below 1 means slower); overhead is gated p50 − direct p50.\n")
w("| operation | c | gated p50 µs | direct p50 µs | overhead p50 µs | p50 ratio | gated p99 µs | direct p99 µs | "
  "p99 ratio | gated ops/s | direct ops/s | ops/s ratio | errors g/d | refused |")
w("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")


def gated_and_direct():
    """(operation, concurrency, gated result, direct result) for every pair the load run measured."""
    for op in ("project_work_list", "wiki_read"):
        for c in (1, 16, 64):
            g, d = by_name.get(f"load.gated.{op}.c{c}"), by_name.get(f"load.direct.{op}.c{c}")
            if g and d:
                yield op, c, g, d


def ratio(a, b):
    return f"{a / b:.1f}" if b else "–"


for op, c, g, d in gated_and_direct():
    w(f"| {op} | {c} | {g['p50_us']:,} | {d['p50_us']:,} | {g['p50_us'] - d['p50_us']:,.1f} | "
      f"{ratio(g['p50_us'], d['p50_us'])} | "
      f"{g['p99_us']:,} | {d['p99_us']:,} | {ratio(g['p99_us'], d['p99_us'])} | {g['ops_s']:,} | "
      f"{d['ops_s']:,} | {ratio(g['ops_s'], d['ops_s'])} | {g['errors']}/{d['errors']} | {g['refused']} |")
w("")
w("Where the machine's CPU goes per call (µs of CPU time per call, user + system, all threads, taken around each "
  "batch; not inflated by waiting for a core). The load client, local-services and the gateway share the "
  f"{sh('nproc')} cores, so a gated call's ceiling is what the other processes leave: "
  "`ceiling_ops_s` = cores ÷ (CPU per gated call of everything but the gateway's JVM), the calls/s of a gateway "
  "that cost nothing.\n")
w("| operation | c | gateway | its PostgreSQL | local-services gated / direct | client gated / direct | "
  "ceiling ops/s |")
w("|---|---|---|---|---|---|---|")
for op, c, g, d in gated_and_direct():
    if "ceiling_ops_s" in g:
        w(f"| {op} | {c} | {g['gateway_cpu_us_per_call']:,} | {g['database_cpu_us_per_call']:,} | "
          f"{g['backend_cpu_us_per_call']:,} / {d['backend_cpu_us_per_call']:,} | "
          f"{g['client_cpu_us_per_call']:,} / {d['client_cpu_us_per_call']:,} | {g['ceiling_ops_s']:,} |")
w("")
mixed = by_name.get("load.gated.mixed.c64")
if mixed:
    w(f"`load.gated.mixed.c64`: {mixed['requests']:,} calls at concurrency 64, p50 {mixed['p50_us']:,} µs, p99 "
      f"{mixed['p99_us']:,} µs, {mixed['ops_s']:,} ops/s; refusals of allowed calls: **{mixed['refused']}**, "
      f"errors: {mixed['errors']}. By kind (ok / refused / errors):\n")
    w("| kind | ok | refused | errors |")
    w("|---|---|---|---|")
    for kind, counts in mixed["by_kind"].items():
        w(f"| {kind} | {counts['ok']} | {counts['refused']} | {counts['errors']} |")
    w("")
    if mixed["first_errors"]:
        w("First unexpected outcomes: " + "; ".join(f"`{e}`" for e in mixed["first_errors"]) + "\n")

w("## The gate's own cost (issue 27)\n")
w("The gateway JVM's CPU time per gated call (user + system, all its threads), with the decision memo answering "
  "(the series above: every call repeats one input) and with every decision fresh (the same calls with "
  "`gatehouse.policy.memo.enabled=false`, so the engine evaluates each one). Both runs warm up until the JIT's "
  "compiler threads take at most 5 % of the gateway's CPU in a warm-up round (`warmup-jit-share=0.05`); `JIT` is "
  "what they still took per call during the series. `engine CPU` is the request thread's CPU time inside each Wasm "
  "evaluation of the fresh run (timer `gatehouse.pdp.evaluation.cpu`), to hold against JMH on the same inputs. "
  "Bars: ≤ 200 µs memo, ≤ 300 µs fresh, gated p50 at concurrency 1 within 250 µs of direct.\n")
if fresh:
    w("```")
    w(f"java -Xmx512m -cp <bench classpath> dev.gatehouse.bench.LoadHarness "
      f"{open(os.path.join(out, 'load-fresh.args')).read().strip()}")
    w("```\n")
warmed = load["config"].get("warmed_up", {})
if warmed:
    w(f"Warm-up: memo run {warmed.get('rounds')} rounds (last JIT share {warmed.get('last_jit_share')})"
      + (f", fresh run {fresh['config']['warmed_up'].get('rounds')} rounds (last JIT share "
         f"{fresh['config']['warmed_up'].get('last_jit_share')})" if fresh else "") + ".\n")
w("| operation | c | memo: gateway CPU µs/call (JIT) | bar 200 | fresh: gateway CPU µs/call (JIT) | bar 300 | "
  "fresh: engine CPU µs/evaluation, mean (p50 / p99 at most) | gated − direct p50 µs, memo / fresh (queueing at c16 and c64) | "
  "bar 250 at c1 |")
w("|---|---|---|---|---|---|---|---|---|")


def cpu_cell(r):
    if not r:
        return "–"
    jit = r.get("gateway_jit_cpu_us_per_call")
    return f"{r['gateway_cpu_us_per_call']:,.0f} ({'–' if jit is None else f'{jit:,.0f}'})"


def engine_cell(r):
    decision = (r or {}).get("engine_cpu", {}).get("decision")
    if not decision:
        return "–"
    cell = f"{decision['cpu_us_per_evaluation']:,.0f}"
    if "cpu_us_p50_at_most" in decision:
        cell += f" ({decision['cpu_us_p50_at_most']:,.0f} / {decision['cpu_us_p99_at_most']:,.0f})"
    return cell


def held(r, bar):
    return ("yes" if r["gateway_cpu_us_per_call"] <= bar else "no") if r else "–"


for op in ("project_work_list", "wiki_read"):
    for c in (1, 16, 64):
        g, d = by_name.get(f"load.gated.{op}.c{c}"), by_name.get(f"load.direct.{op}.c{c}")
        gf, df = by_name.get(f"load.gated.{op}.c{c}.fresh"), by_name.get(f"load.direct.{op}.c{c}.fresh")
        if not g and not gf:
            continue
        gap = " / ".join(f"{a['p50_us'] - b['p50_us']:,.1f}" if a and b else "–" for a, b in ((g, d), (gf, df)))
        gap_bar = ("yes" if g and d and g["p50_us"] - d["p50_us"] <= 250 else "no") if c == 1 else ""
        w(f"| {op} | {c} | {cpu_cell(g)} | {held(g, 200)} | {cpu_cell(gf)} | {held(gf, 300)} | {engine_cell(gf)} "
          f"| {gap} | {gap_bar} |")
w("")

faults = load.get("pdp_faults", {})
w("PDP faults in the gateway's decision log over the whole load run (`fault.code`, every call denied with "
  "`policy_unavailable`): " + (", ".join(f"`{k}` {v}" for k, v in faults.items()) if faults else "none") + ". "
  "`busy` means no Wasm instance became free within `gatehouse.policy.decision-deadline` (default 2 s; the pool "
  "has one instance per core).\n")
mem = load["memory"]
w("Memory after the load (from /proc/<pid>/status): gateway VmRSS "
  f"{mem['gateway'].get('VmRSS_kib', 0) / 1024:,.0f} MiB (peak VmHWM {mem['gateway'].get('VmHWM_kib', 0) / 1024:,.0f}"
  f" MiB, heap -Xmx512m); local-services VmRSS {mem['local_services'].get('VmRSS_kib', 0) / 1024:,.0f} MiB.\n")

if fairness:
    fc = fairness["config"]
    budgets = fc["abuser_budgets"]
    w("## Fair under load (issue 25)\n")
    w(f"The real budgets (`{fc['bundle']}`, built by `make bundle`; policies/gatehouse/quotas/data.json) and the "
      "gateway's default fair share (`gatehouse.quotas.in-flight` 2, `queued` 32, `max-wait` 250 ms). "
      f"{fc['well_behaved']} well-behaved agents, each its own thread and session, one call at a time paced every "
      f"{fc['pace_ms']} ms (wiki_read, project_work_list, t3_thread_list, every eighth a wiki_write): within their "
      f"budgets. One abusive agent at concurrency {fc['abuser_concurrency']}, resending as soon as answered: "
      "wiki_write of the longest path the policy admits (32 segments of 251 bytes; the wiki storage refuses it, 422 "
      "`path_too_long`, after the gate admitted and charged it) and project_work_submit with 64 members to its own "
      "run (the first commits, the rest are stale, 409), each call's arguments distinct. Its budgets: "
      + ", ".join(f"{tool} → `{b['class']}` {b['rate_per_minute']}/min, burst {b['burst']}"
                  for tool, b in budgets.items())
      + f". In one run, {fc['rounds']} rounds of a {fc['phase_seconds']} s phase alone and one with the abuser "
      "(the order alternating), the well-behaved agents calling throughout; 1 s between phases and a "
      f"{fc['warmup_seconds']} s warm-up count for neither. Series `one`: one gateway; series `two`: a second "
      "replica on the first one's PostgreSQL, every agent's calls split across both.\n")
    w("**The bar**: the well-behaved agents' p99 with the abuser at most 2× their p99 without it, none of their calls "
      "refused, 0 errors, the abuser `rate_limited` beyond its budget, and the abuser's served calls within ONE budget "
      "in every phase (burst + rate × the phase's window, on two replicas plus what each may take before it syncs, "
      "0.1 of the burst), not two.\n")
    w("| series | replicas | well-behaved p50 µs alone / abused | p99 µs alone / abused | p99 ratio | refused | "
      "errors | abuser calls | rate_limited | served / one budget / doubled | held |")
    w("|---|---|---|---|---|---|---|---|---|---|---|")
    fby = {r["name"]: r for r in fairness["results"]}
    for name, series in fairness["series"].items():
        alone = fby[f"load.fairness.{name}.well_behaved.alone"]
        abused = fby[f"load.fairness.{name}.well_behaved.abused"]
        abuser = fby[f"load.fairness.{name}.abuser"]
        bar = series["bar"]
        served = "; ".join(f"{c}: {v['served']} / {v['one_budget']} / {v['doubled']}"
                           for c, v in abuser["served"].items())
        w(f"| {name} | {series['replicas']} | {alone['p50_us']:,} / {abused['p50_us']:,} | {alone['p99_us']:,} / "
          f"{abused['p99_us']:,} | {bar['p99_ratio']} | {bar['well_behaved_refused']} | {bar['errors']} | "
          f"{abuser['calls']:,} | {abuser['rate_limited']:,} | {served} | "
          f"{'**yes**' if bar['held'] else '**no**'} |")
    w("")
    for name, series in fairness["series"].items():
        bar = series["bar"]
        missed = [what for what, ok in (("p99 within 2×", bar["p99_within_2x"]),
                                        ("no refusal", bar["well_behaved_refused"] == 0),
                                        ("0 errors", bar["errors"] == 0),
                                        ("abuser rate_limited", bar["abuser_rate_limited"] > 0),
                                        ("within one budget", bar["abuser_within_one_budget"])) if not ok]
        w(f"- Series `{name}`: the bar {'held' if bar['held'] else 'did not hold (' + ', '.join(missed) + ')'}; "
          f"load average (1, 5, 15 min) {series['load_average_start']} at its start, {series['load_average_end']} "
          "at its end.")
    w("")
    w("What one abuser call cost, in µs of CPU per call (the abused phases' CPU less their well-behaved calls at the "
      "alone phases' CPU per call), and the well-behaved p99 per tool, alone / abused:\n")
    w("| series | gateway(s) | PostgreSQL | local-services | client | well-behaved p99 µs per tool, alone / abused |")
    w("|---|---|---|---|---|---|")
    for name, series in fairness["series"].items():
        cost = series["abuser_cost"]
        alone = fby[f"load.fairness.{name}.well_behaved.alone"]["p99_us_by_tool"]
        abused = fby[f"load.fairness.{name}.well_behaved.abused"]["p99_us_by_tool"]
        tools = "; ".join(f"{t} {alone[t]:,} / {abused.get(t, 0):,}" for t in alone)
        w(f"| {name} | {cost['gateways_cpu_us_per_call']:,} | {cost['database_cpu_us_per_call']:,} | "
          f"{cost['local_services_cpu_us_per_call']:,} | {cost['client_cpu_us_per_call']:,} | {tools} |")
    w("")
    w("Per phase (CPU: cores the process used during the phase, CPU time ÷ wall time; host exchanges: the gateways' "
      "thread-shell reads and watch polls per call of the phase):\n")
    w("| series | round | phase | well-behaved calls | p50 µs | p99 µs | refused | errors | abuser calls | "
      "rate_limited | served (class: served/one budget) | CPU gateway(s) | client | local-services | "
      "host exchanges/call |")
    w("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for name, series in fairness["series"].items():
        for ph in series["phases"]:
            wb = ph["well_behaved"]
            ab = ph.get("abuser")
            cpu = ph["cpu_cores"]
            gw = f"{cpu['gateway']}" + (f" + {cpu['gateway_b']}" if series["replicas"] > 1 else "")
            served = "; ".join(f"{c}: {v['served']}/{v['one_budget']}" for c, v in ab["served"].items()) if ab else ""
            w(f"| {name} | {ph['round']} | {ph['condition']} | {wb['requests']:,} | {wb['p50_us']:,} | "
              f"{wb['p99_us']:,} | {wb['refused']} | {wb['errors']} | {format(ab['calls'], ',') if ab else ''} | "
              f"{format(ab['rate_limited'], ',') if ab else ''} | {served} | {gw} | {cpu['client']} | {cpu['local_services']} | "
              f"{ph['host_exchanges_per_call']} |")
    w("")
    faults = {}
    for log in ("pdp_faults", "pdp_faults_b"):
        for code, count in fairness.get(log, {}).items():
            faults[code] = faults.get(code, 0) + count
    w("PDP faults in the gateways' decision logs over the fairness run: "
      + (", ".join(f"`{k}` {v}" for k, v in faults.items()) if faults else "none") + ".\n")

steps = load.get("transport_steps", {})
if steps:
    names = []
    for series in steps.values():
        for step in series:
            if step not in names:
                names.append(step)
    w("### Where the gated time goes: transport steps\n")
    w("Mean µs per call of each transport step (gateway timer `gatehouse.transport.step`, outcome passed, read "
      "through `GET /admin/pipeline-timings` before and after each series; the direct batches do not touch the "
      "gateway). The steps end before the gate: the rest of a gated call (trusted-context lookups at the host, "
      "the decision, the decision log, the backend call, the reply) is the client's mean minus their sum.\n")
    w("| series | client mean µs | " + " | ".join(s.split("/")[0] for s in names) + " | steps sum |")
    w("|---|---|" + "---|" * len(names) + "---|")
    for series, values in steps.items():
        total = sum(v["mean_us"] for v in values.values())
        mean = by_name.get(series, {}).get("mean_us", 0)
        w(f"| {series} | {mean:,} | " + " | ".join(str(values.get(s, {}).get("mean_us", "")) for s in names)
          + f" | {total:,.1f} |")
    w("")

gate_steps = load.get("gate_steps", {})
if gate_steps:
    names = []
    for series in gate_steps.values():
        for step in series:
            if step not in names:
                names.append(step)
    w("### Where the gated time goes: the PEP's steps\n")
    w("Mean µs per call of each step of `Gate.call` (gateway timer `gatehouse.gate.step`, read like the transport "
      "steps): `context` is the PIP for the caller (agent settings from the store, the caller thread's shell from "
      "the host), `handler` the facade call to the backend and the rebuilt output. What is left of the client's mean "
      "is the HTTP exchange itself, the transport steps and the reply.\n")
    w("| series | client mean µs | " + " | ".join(names) + " | steps sum |")
    w("|---|---|" + "---|" * len(names) + "---|")
    for series, values in gate_steps.items():
        total = sum(v["mean_us"] for v in values.values())
        mean = by_name.get(series, {}).get("mean_us", 0)
        w(f"| {series} | {mean:,} | " + " | ".join(str(values.get(s, {}).get("mean_us", "")) for s in names)
          + f" | {total:,.1f} |")
    w("")

lookups = load.get("store_lookups", {})
if lookups:
    w("### Session and settings lookups\n")
    w("Each lookup of the shared store a gated call makes (gateway timer `gatehouse.store.lookup`: the session by "
      "token hash in `authentication`, the agent's settings in `context`), answered from the replica's cache or "
      "read from PostgreSQL. p50/p99 are the upper bound of the gateway's bucket holding them (buckets about 1.5× "
      "apart).\n")
    w("| series | lookup | lookups | from cache | mean µs | p50 µs ≤ | p99 µs ≤ |")
    w("|---|---|---|---|---|---|---|")
    for series, tables in lookups.items():
        for table, v in tables.items():
            w(f"| {series} | {table} | {v['count']:,} | {v['cached_share'] * 100:.1f} % | {v['mean_us']:,} | "
              f"{v['p50_us_at_most']:,.0f} | {v['p99_us_at_most']:,.0f} |")
    w("")

if any(run["mode"] == "thrpt" or run["benchmark"].rsplit(".", 2)[-2] in
       ("EmbeddedPdpBenchmark", "DecisionStagesBenchmark", "PolicyDocumentsBenchmark") for _, run in runs):
    w("## Profile benchmarks (fixed inputs)\n")
    w("| benchmark | mode | threads | p50 µs | p99 µs | p99.9 µs | ops/s |")
    w("|---|---|---|---|---|---|---|")
    for stem, run in runs:
        cls = run["benchmark"].rsplit(".", 2)[-2]
        if cls in ("DecisionBenchmark", "NonAsciiWriteBenchmark", "ToolsListBenchmark"):
            continue
        name = cls + "." + run["benchmark"].rsplit(".", 1)[-1]
        if run.get("params"):
            name += " (" + ", ".join(f"{k}={v}" for k, v in sorted(run["params"].items())) + ")"
        metric = run["primaryMetric"]
        if run["mode"] == "sample":
            p = metric["scorePercentiles"]
            w(f"| {name} | sample | {run['threads']} | {p['50.0']:.1f} | {p['99.0']:.1f} | {p['99.9']:.1f} | |")
        elif run["mode"] == "thrpt":
            err = metric.get("scoreError")
            err = f" ± {err:,.0f}" if isinstance(err, (int, float)) and err == err else ""
            w(f"| {name} | thrpt | {run['threads']} | | | | {metric['score']:,.0f}{err} |")
    w("")
elif quick:
    w("The profile benchmarks with fixed inputs (EmbeddedPdp, DecisionStages, PolicyDocuments) run only in the "
      "full `make bench`.\n")

notes = os.path.join(os.path.dirname(os.path.abspath(__file__)), "notes.md")
if os.path.exists(notes):
    w(open(notes).read().rstrip())
open(md_path, "w").write("\n".join(lines) + "\n")
