#!/usr/bin/env python3
"""Writes policies/gatehouse/smoke/data.json: the smoke set shipped in every bundle (data.gatehouse.smoke.cases).

The embedded PDP decides each case before it activates a new bundle revision and refuses the revision when one
differs (gateway SelfTest). The cases are taken from the golden matrix: per family, the first allowed and the
first denied case, of the families behind the decision entry point (the self-test decides nothing else, so the
notice delivery family's cases are left out). policy-tests/golden/smoke_test.rego checks that each is still a golden case and still decides
as expected. Run it again after the golden matrix changes: python3 scripts/smoke-cases.py
"""
import glob
import json
import os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
cases = []
for path in sorted(glob.glob(os.path.join(ROOT, "policy-tests", "golden", "*", "cases.json"))):
    family = os.path.basename(os.path.dirname(path))
    if family == "delivery":
        continue
    for allow in (True, False):
        for case in json.load(open(path, encoding="utf-8"))["cases"]:
            if case["expected"]["allow"] is allow:
                cases.append({"name": family + "/" + case["name"], "input": case["input"],
                              "expected": case["expected"]})
                break
target = os.path.join(ROOT, "policies", "gatehouse", "smoke", "data.json")
os.makedirs(os.path.dirname(target), exist_ok=True)
with open(target, "w", encoding="utf-8") as out:
    json.dump({"cases": cases}, out, indent=1, ensure_ascii=False, sort_keys=True)
    out.write("\n")
print(f"{len(cases)} smoke cases -> {os.path.relpath(target, ROOT)}")
