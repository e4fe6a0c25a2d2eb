"""The reason catalogue: every reason code a rule produces, read from the rules' # METADATA (style card 8).

One reader for REASON_CODES.md (scripts/reason-codes.py) and for the catalogue the bundle carries
(scripts/bundle-source.py, data.gatehouse.reasons), so the table a reviewer reads and the one the gateway
enforces from cannot differ. A rule names its code in `custom.code` and says `custom.retryable: true` when the
code reports a fault the caller may retry (docs/domain.md §8) rather than a denial.
"""
import json
import subprocess


def catalogue(opa, policies="policies"):
    """Code -> {family, title, description, retryable, rule} in the order of data.gatehouse.reason_codes.

    Fails (SystemExit) when a listed code has no annotated rule or an annotated code is not listed."""
    inspected = json.loads(subprocess.check_output([opa, "inspect", "-a", "--format", "json", policies]))
    rules = {}
    for entry in inspected.get("annotations", []):
        ann = entry.get("annotations", {})
        custom = ann.get("custom", {})
        for code in str(custom.get("code", "")).split():
            loc = entry["location"]
            package = [p["value"] for p in entry.get("path", [])[1:] if p["type"] == "string"]
            rules[code] = {
                "family": package[2] if len(package) > 2 else package[-1],
                "title": ann.get("title", code),
                "description": " ".join(ann.get("description", "").split()),
                "retryable": custom.get("retryable") is True,
                "rule": f"{loc['file']}:{loc['row']}",
            }
    with open(f"{policies}/gatehouse/data.json", encoding="utf-8") as f:
        order = json.load(f)["reason_codes"]
    problems = [f"{c} is in reason_codes but no rule is annotated with it" for c in order if c not in rules]
    problems += [f"{c} is annotated but missing from reason_codes" for c in rules if c not in order]
    if problems:
        raise SystemExit("\n".join(problems))
    return {code: rules[code] for code in order}
