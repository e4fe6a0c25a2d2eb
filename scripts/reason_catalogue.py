"""The reason catalogue: every reason code a rule produces, read from the rules' # METADATA (style card 8).

One reader for REASON_CODES.md (scripts/reason-codes.py) and for the catalogue the bundle carries
(scripts/bundle-source.py, data.gatehouse.reasons), so the table a reviewer reads and the one the gateway
enforces from cannot differ. A rule names its code in `custom.code` and says `custom.retryable: true` when the
code reports a fault the caller may retry (docs/domain.md §8) rather than a denial.
"""
import json
import os
import subprocess


def catalogue(opa, policies="policies"):
    """Code -> {family, title, description, retryable, rule} in the order of data.gatehouse.reason_codes.

    Fails (SystemExit) when opa cannot read the policies (OPA's own messages, e.g. a Rego syntax error, are what
    it says), when reason_codes cannot be read, or when a listed code has no annotated rule or an annotated code is
    not listed."""
    inspected = json.loads(opa_output([opa, "inspect", "-a", "--format", "json", policies]))
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
    order = read_json(f"{policies}/gatehouse/data.json").get("reason_codes")
    if not isinstance(order, list):
        raise SystemExit(f"{policies}/gatehouse/data.json: no reason_codes list")
    problems = [f"{c} is in reason_codes but no rule is annotated with it" for c in order if c not in rules]
    problems += [f"{c} is annotated but missing from reason_codes" for c in rules if c not in order]
    if problems:
        raise SystemExit("\n".join(problems))
    return {code: rules[code] for code in order}


def opa_output(command):
    """What `command` (an opa run) prints; when it fails, exits with what opa said, not with a traceback."""
    try:
        done = subprocess.run(command, capture_output=True, text=True)
    except OSError as e:
        raise SystemExit(f"cannot run {command[0]}: {e.strerror}")
    if done.returncode != 0:
        said = (done.stderr.strip() or done.stdout.strip() or "no message")
        raise SystemExit(f"{os.path.basename(command[0])} {command[1]} failed (exit {done.returncode}):\n{said}")
    return done.stdout


def read_json(path):
    """The JSON document at `path`; exits naming the file and where it is not JSON, not with a traceback."""
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except OSError as e:
        raise SystemExit(f"cannot read {path}: {e.strerror}")
    except UnicodeDecodeError as e:
        raise SystemExit(f"{path} is not valid UTF-8: byte offset {e.start}")
    except json.JSONDecodeError as e:
        raise SystemExit(f"{path}:{e.lineno}:{e.colno}: not JSON: {e.msg}")
