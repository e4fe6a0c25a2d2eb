#!/usr/bin/env python3
"""Java keeps no copy of the policy's vocabulary (docs/design.md, "One served revision").

Fails when a string literal in a Java source under gateway/src/main is a mode name, a ceiling, a caller kind's wiki
folder or a reason code of the policy (read from policies/gatehouse/*/data.json). Those words are the policy's: the
gateway sends facts as received and reads verdicts, reasons and their catalogue from the served revision. Two kinds
of literal may coincide with them and are allowed:
  - a value of an enum in schemas/decision-input.json: a fact Java must spell to report it (a lookup outcome);
  - a line listed in scripts/java-vocabulary-allowed.txt as `<path>: <literal>  # why` (a word of another
    vocabulary that happens to be spelled alike).
"""
import glob
import json
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LITERAL = re.compile(r'"((?:[^"\\\n]|\\.)*)"')
# The name of a checked parameter in its own null check, e.g. requireNonNull(schema, "schema"): not a word of policy.
NULL_CHECK = re.compile(r'requireNonNull\(\s*(\w+)\s*,\s*"\1"\s*\)')


def load(path):
    with open(os.path.join(ROOT, path), encoding="utf-8") as f:
        return json.load(f)


def enum_values(node, out):
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "enum" and isinstance(value, list):
                out.update(v for v in value if isinstance(v, str))
            else:
                enum_values(value, out)
    elif isinstance(node, list):
        for value in node:
            enum_values(value, out)
    return out


modes = load("policies/gatehouse/modes/data.json")
vocabulary = {}
for axis, ranks in modes["rank"].items():
    vocabulary.update({mode: f"a {axis} mode" for mode in ranks})
vocabulary.update({ceiling: "a ceiling" for ceiling in modes["ceilings"]})
vocabulary[modes["inherit"]] = "the inherit mode"
vocabulary.update({folder: "a caller kind's wiki folder" for folder in load("policies/gatehouse/wiki/data.json")
                   ["roots"].values()})
vocabulary.update({code: "a reason code" for code in load("policies/gatehouse/data.json")["reason_codes"]})

facts = enum_values(load("schemas/decision-input.json"), set())
allowed = set()
with open(os.path.join(ROOT, "scripts/java-vocabulary-allowed.txt"), encoding="utf-8") as f:
    for line in f:
        entry = line.split("#", 1)[0].strip()
        if entry:
            path, literal = entry.split(": ", 1)
            allowed.add((path, literal))

problems = []
for source in sorted(glob.glob(os.path.join(ROOT, "gateway/src/main/java/**/*.java"), recursive=True)):
    relative = os.path.relpath(source, ROOT)
    with open(source, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            if line.lstrip().startswith(("*", "//", "/*")):
                continue
            for literal in LITERAL.findall(NULL_CHECK.sub("", line)):
                if literal in vocabulary and literal not in facts and (relative, literal) not in allowed:
                    problems.append(f"{relative}:{number}: \"{literal}\" is {vocabulary[literal]}; send the fact "
                                    "and let the policy decide (or list it in scripts/java-vocabulary-allowed.txt "
                                    "with why)")
if problems:
    sys.exit("\n".join(problems))
print(f">> no Java source under gateway/src/main spells the policy's vocabulary ({len(vocabulary)} words)")
