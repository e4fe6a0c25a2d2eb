"""Fails when `opa test --coverage --format json` covers less than the minimum of the files under a prefix.

Usage: coverage-gate.py <coverage.json> <path prefix> <minimum percent>
Only policy files count: test files and data are not what the gate measures.
"""
import json
import sys

report_path, prefix, minimum = sys.argv[1], sys.argv[2], float(sys.argv[3])
files = json.load(open(report_path))["files"]
covered = uncovered = 0
for name, entry in sorted(files.items()):
    if not name.startswith(prefix):
        continue
    c = entry.get("covered_lines", 0)
    u = entry.get("not_covered_lines", 0)
    covered, uncovered = covered + c, uncovered + u
    for r in entry.get("not_covered", []):
        print(f"   not covered: {name}:{r['start']['row']}-{r['end']['row']}")
total = covered + uncovered
percent = 100.0 * covered / total if total else 0.0
print(f">> policy coverage {percent:.2f}% ({covered}/{total} lines of {prefix})")
if percent < minimum:
    sys.exit(f"policy coverage {percent:.2f}% is under the minimum {minimum}%")
