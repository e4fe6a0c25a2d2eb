#!/usr/bin/env python3
"""`make policy-golden-suites`: every golden suite is replayed, none is skipped without a word.

policy-tests/golden/golden_test.rego replays each suite at its `entrypoint` through its `evaluate` rule, which is
defined only for the entry points it knows: a suite naming any other (a typo, an entry point added to the policy
but not to the replay) would have no case compared and `opa test` would still pass. This check asks the replay
itself, with the pinned OPA, whether it evaluates the first case of every suite, and fails naming each suite it
does not. It also refuses a suite whose shape the replays do not read: members other than `entrypoint` and
`cases` (a misspelt `entryPoint` would silently mean the tools/call decision), no cases, or a case without
`name`, `input` or `expected`.

Usage: python3 scripts/check-golden-suites.py <opa binary>
"""
import glob
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# A suite without `entrypoint` is replayed at the tools/call decision (golden_test.rego, GoldenCases.java).
DEFAULT_ENTRYPOINT = "gatehouse/authz/decision"
# The replay's rule, data.gatehouse.golden_test.evaluate(entrypoint, input), over the first case of each suite.
QUERY = ('{family | some family, suite in data.golden; '
         'entrypoint := object.get(suite, "entrypoint", "%s"); '
         '_ := data.gatehouse.golden_test.evaluate(entrypoint, suite.cases[0].input)}' % DEFAULT_ENTRYPOINT)


def shape_problems(family, suite):
    problems = []
    extra = sorted(set(suite) - {"entrypoint", "cases"})
    if extra:
        problems.append(f"{family}: members the replays do not read: {', '.join(extra)}")
    if not isinstance(suite.get("entrypoint", DEFAULT_ENTRYPOINT), str):
        problems.append(f"{family}: entrypoint is not a string")
    cases = suite.get("cases")
    if not isinstance(cases, list) or not cases:
        problems.append(f"{family}: no cases")
        return problems
    for i, case in enumerate(cases):
        missing = [m for m in ("name", "input", "expected") if m not in case]
        if missing:
            problems.append(f"{family}: case {case.get('name', i)} lacks {', '.join(missing)}")
    return problems


def main():
    opa = sys.argv[1]
    suites = {}
    for path in sorted(glob.glob(os.path.join(ROOT, "policy-tests", "golden", "*", "cases.json"))):
        with open(path, encoding="utf-8") as f:
            suites[os.path.basename(os.path.dirname(path))] = json.load(f)
    problems = [p for family, suite in suites.items() for p in shape_problems(family, suite)]
    if problems:
        print("golden suites the replays cannot read:\n  " + "\n  ".join(problems))
        return 1
    out = subprocess.run([opa, "eval", "--format", "json", "-d", os.path.join(ROOT, "policies"),
                          "-d", os.path.join(ROOT, "policy-tests"), QUERY],
                         capture_output=True, text=True, check=True)
    replayed = set(json.loads(out.stdout)["result"][0]["expressions"][0]["value"])
    skipped = sorted(set(suites) - replayed)
    if skipped:
        print("golden suites golden_test.rego does not replay (an entry point its `evaluate` does not know):")
        for family in skipped:
            print(f"  {family}: entrypoint {suites[family].get('entrypoint', DEFAULT_ENTRYPOINT)}")
        return 1
    print(f">> every golden suite is replayed ({len(suites)} suites, "
          f"{sum(len(s['cases']) for s in suites.values())} cases)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
