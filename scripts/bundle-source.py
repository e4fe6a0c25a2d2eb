#!/usr/bin/env python3
"""Stages the source of the policy bundle: everything the gateway enforces from one signed revision.

Usage: bundle-source.py <opa binary> <out dir> [--policies DIR] [--schemas DIR]

<out dir> is made anew from:
  - the policy directory (default policies/): Rego, policy data, smoke cases, as they are;
  - data.gatehouse.tool_schemas: every tool input schema (default schemas/tools/<tool>.input.json), by tool name;
  - data.gatehouse.reasons: the reason catalogue read from the rules' # METADATA (scripts/reason_catalogue.py).
`opa build -b <out dir>` then signs all of it like any other file of the bundle, and the gateway reads rows,
schemas and vocabulary only from the revision it activated (docs/design.md, "One served revision").
Entry points are the rules annotated `entrypoint: true`; opa build reads them from the annotations itself.
"""
import argparse
import glob
import json
import os
import shutil

from reason_catalogue import catalogue, read_json

SUFFIX = ".input.json"

parser = argparse.ArgumentParser()
parser.add_argument("opa")
parser.add_argument("out")
parser.add_argument("--policies", default="policies")
parser.add_argument("--schemas", default=os.path.join("schemas", "tools"))
args = parser.parse_args()


def write(relative, document):
    path = os.path.join(args.out, relative, "data.json")
    if os.path.exists(path):
        raise SystemExit(f"{args.policies}/{relative}/data.json exists: that data path is generated")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        json.dump(document, f, indent=1, ensure_ascii=False, sort_keys=True)
        f.write("\n")


schemas = {}
for path in sorted(glob.glob(os.path.join(args.schemas, "*" + SUFFIX))):
    schemas[os.path.basename(path)[:-len(SUFFIX)]] = read_json(path)

reasons = catalogue(args.opa, args.policies)
shutil.rmtree(args.out, ignore_errors=True)
shutil.copytree(args.policies, args.out, ignore=shutil.ignore_patterns("*.md"))
write(os.path.join("gatehouse", "tool_schemas"), schemas)
write(os.path.join("gatehouse", "reasons"), reasons)
print(f">> bundle source {args.out}: {args.policies}, {len(schemas)} tool schemas, {len(reasons)} reason codes")
