#!/usr/bin/env python3
"""`make policy-cost`: the policy's work grows linearly with the width of a call, in every engine.

Go OPA re-evaluates a partial rule's body for every lookup into it, and a rule can be quadratic in the number of
argument keys without any test noticing (a 1,000-key call once took 0.74 s in `opa eval`). This check counts,
instead of timing: `opa eval --profile` reports how often each expression was evaluated, which does not depend on
the machine. Two allowed golden calls are widened (1,000 extra argument keys, nested; a wiki path of the most
segments allowed) and no expression may be evaluated more than BOUND times per added key or segment.

Usage: python3 scripts/check-eval-counts.py <opa binary>
"""
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KEYS = 1000
BOUND = 20


def golden(family, name):
    cases = json.load(open(os.path.join(ROOT, "policy-tests", "golden", family, "cases.json"), encoding="utf-8"))
    return next(c["input"] for c in cases["cases"] if c["name"] == name)


def widened(call):
    call = json.loads(json.dumps(call))
    call["arguments"]["extra"] = {f"k{i}": {"v": i} for i in range(KEYS // 2)}
    call["argumentKeys"].append({"path": "/extra", "key": "extra", "folded": "extra"})
    for i in range(KEYS // 2):
        call["argumentKeys"].append({"path": f"/extra/k{i}", "key": f"k{i}", "folded": f"k{i}"})
        call["argumentKeys"].append({"path": f"/extra/k{i}/v", "key": "v", "folded": "v"})
    return call


def deep_path(call, segments):
    call = json.loads(json.dumps(call))
    call["arguments"]["path"] = "/".join(["a"] * (segments - 1) + ["page.md"])
    return call


def most_evaluated(opa, call):
    out = subprocess.run([opa, "eval", "-d", os.path.join(ROOT, "policies"), "-I", "--profile", "--format", "json",
                          "data.gatehouse.authz.decision"], input=json.dumps(call), capture_output=True, text=True,
                         check=True)
    profile = json.loads(out.stdout)["profile"]
    return max(profile, key=lambda r: max(r["num_eval"], r["num_redo"]))


def main():
    opa = sys.argv[1]
    limits = json.load(open(os.path.join(ROOT, "policies", "gatehouse", "wiki", "data.json")))["limits"]
    checks = [
        ("t3_thread_launch with 1,000 more argument keys", widened(golden("access", "t3_thread_launch__thread_full")),
         KEYS),
        ("wiki_write with 1,000 more argument keys", widened(golden("decision", "allowed_has_no_reasons")), KEYS),
        (f"wiki_write with a path of {limits['maxSegments']} segments",
         deep_path(golden("decision", "allowed_has_no_reasons"), limits["maxSegments"]), limits["maxSegments"]),
    ]
    failed = False
    for what, call, width in checks:
        top = most_evaluated(opa, call)
        count = max(top["num_eval"], top["num_redo"])
        where = f"{os.path.relpath(top['location']['file'], ROOT)}:{top['location']['row']}"
        ok = count <= BOUND * width
        failed |= not ok
        print(f"   {what}: at most {count} evaluations of one expression ({where}); bound {BOUND * width}"
              + ("" if ok else "  <-- not linear"))
    if failed:
        sys.exit(1)


if __name__ == "__main__":
    main()
