"""An independent reading of docs/domain.md §1-§7, used to check the golden matrix.

It predicts allow, the reason codes (in policy order) and the obligations of a decision input without OPA.
generate.py refuses to write a case where this oracle and the policy disagree, so a golden case is stored
only when two separate implementations of the rules agree on it.
"""
import json
import os
import re
import unicodedata

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "..", "..", "policies", "gatehouse")


def _load(*parts):
    with open(os.path.join(DATA, *parts, "data.json"), encoding="utf-8") as f:
        return json.load(f)


TABLE = _load("access_table")
CLASSES = _load("access_classes")
CODES = _load()["reason_codes"]
IDENTITY = _load("identity")
WIKI = _load("wiki")
QUOTAS = _load("quotas")
MAX_SEGMENTS = WIKI["limits"]["maxSegments"]
MAX_SEGMENT_BYTES = WIKI["limits"]["maxSegmentBytes"]
RUNTIME = ["approval-required", "auto-accept-edits", "auto", "full-access"]
INTERACTION = ["plan", "default"]
AXES = {"runtimeMode": RUNTIME, "interactionMode": INTERACTION}
WRITES = {"act_as_caller", "write", "write_threads", "start_threads", "write_environment"}
THREAD_ONLY = {"read_as_caller", "act_as_caller"}


def _rank(axis, mode):
    order = AXES[axis]
    return order.index(mode) if isinstance(mode, str) and mode in order else None


CEILING_RUNTIME = {"read-only": "approval-required", "approval-required": "approval-required",
                   "auto-accept-edits": "auto-accept-edits", "auto": "auto", "full-access": "full-access"}
PROJECT_SCOPES = {"project.work.read", "project.work.write"}


def _ceiling_unknown(caller):
    """docs/domain.md §1: an outside agent's token names one of the five ceilings, else it may call nothing."""
    return caller.get("kind") == "outside_agent" and not (
        isinstance(caller.get("ceiling"), str) and caller["ceiling"] in CEILING_RUNTIME)


def _mode_limit_unknown(caller):
    """docs/domain.md §1: a T3-Mode-Limit that was sent names a mode of each axis, whoever sent it."""
    if "modeLimit" not in caller:
        return False
    limit = caller["modeLimit"]
    return not isinstance(limit, dict) or any(_rank(axis, limit.get(axis)) is None for axis in AXES)


def _bound(caller):
    st = caller.get("settings") if isinstance(caller.get("settings"), dict) else {}
    p = st.get("project") if isinstance(st.get("project"), dict) else {}
    return p.get("bound") is True


def _thread(caller):
    return caller.get("thread") if caller.get("kind") == "thread" and isinstance(caller.get("thread"), dict) else {}


def _live(caller):
    t, s = _thread(caller), caller.get("session") if isinstance(caller.get("session"), dict) else {}
    return (t.get("lookup") == "found" and t.get("archived") is False and t.get("activeRun") is True
            and isinstance(s.get("providerInstanceId"), str) and t.get("providerInstanceId") == s["providerInstanceId"])


def _writable(caller):
    return caller.get("kind") == "thread" or (
        caller.get("kind") == "outside_agent" and caller.get("ceiling") in RUNTIME)


def _base_limit(caller, axis):
    if caller.get("kind") == "thread":
        t = _thread(caller)
        return t.get(axis) if t.get("lookup") == "found" else None
    if caller.get("kind") == "outside_agent" and caller.get("ceiling") in CEILING_RUNTIME:
        return CEILING_RUNTIME[caller["ceiling"]] if axis == "runtimeMode" else "default"
    return None


def _limit(caller, axis):
    base = _rank(axis, _base_limit(caller, axis))
    if caller.get("kind") != "outside_agent" or not isinstance(caller.get("modeLimit"), dict):
        return base
    narrow = _rank(axis, caller["modeLimit"].get(axis))
    if base is None or narrow is None:
        return None
    return min(base, narrow)


def _held(caller):
    st = caller.get("settings") if isinstance(caller.get("settings"), dict) else {}
    p = st.get("project") if isinstance(st.get("project"), dict) else {}
    w = st.get("wiki") if isinstance(st.get("wiki"), dict) else {}
    held = set()
    if st.get("browserAccess") is True:
        held.add("preview")
    if p.get("enabled") is True:
        held |= {"project.work.read", "project.work.write"}
    if w.get("read") is True:
        held.add("wiki.read")
    if w.get("write") is True:
        held.add("wiki.write")
    if _writable(caller):
        held.add("orchestration")
    return held


def _within(caller, axis, mode):
    want, have = _rank(axis, mode), _limit(caller, axis)
    return want is not None and have is not None and want <= have


_IGNORABLE_RANGES = [(0x034F, 0x034F), (0x115F, 0x1160), (0x17B4, 0x17B5), (0x180B, 0x180F), (0x3164, 0x3164),
                     (0xFE00, 0xFE0F), (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3), (0xE0000, 0xE0FFF)]


def _ignorable(ch):
    """Format characters and Unicode's other default-ignorable code points (zero-width, fillers, selectors)."""
    return unicodedata.category(ch) == "Cf" or any(lo <= ord(ch) <= hi for lo, hi in _IGNORABLE_RANGES)


def meaning(key):
    """docs/domain.md §6: NFKC, full case folding, separators, format and zero-width characters and
    surrounding whitespace ignored."""
    s = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", key).casefold())
    s = "".join(ch for ch in s if not _ignorable(ch))
    s = "".join(" " if ch.isspace() else ch for ch in s).strip()
    for sep in IDENTITY["ignored_separators"]:
        s = s.replace(sep, "")
    return s


def _object_keys(value):
    if isinstance(value, dict):
        for k, v in value.items():
            yield k
            yield from _object_keys(v)
    elif isinstance(value, list):
        for v in value:
            yield from _object_keys(v)


def _identity_found(args, toolkit):
    keys = {meaning(k) for k in [*IDENTITY["every_tool"], *IDENTITY["by_toolkit"].get(toolkit, {})]}
    return {k for k in _object_keys(args) if meaning(k) in keys}, keys


_SEGMENT_CHARS = re.compile(r"^[\w .\-]*$")


ASCII_NAME = set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_. -")


def _segment_ok(seg, facts=None):
    """`facts` is input.unicode: a name that is not plain ASCII is only judged when the PEP described it."""
    if seg == "" or len(seg.encode("utf-8")) > MAX_SEGMENT_BYTES:
        return False
    if facts is not None and not set(seg) <= ASCII_NAME and not isinstance(facts.get(seg), list):
        return False
        return False
    if not set(seg) <= ASCII_NAME and not isinstance(facts.get(seg), list):
        return False
    # letters and digits of any script, "-", "_", ".", spaces: \w minus the connector punctuation other than "_"
    for ch in seg:
        cat = unicodedata.category(ch)
        if not (cat.startswith("L") or cat == "Nd" or ch in "-_. "):
            return False
    if seg.startswith(" ") or seg.endswith(" ") or seg.endswith("."):
        return False
    return seg not in (".", "..")


def root_of(caller, facts):
    """docs/domain.md §1, §7: the thread agent's subtree an outside agent's registration shares, else the caller
    kind's own folder and id; None when the id that would name it is not one valid segment."""
    kind, agent = caller.get("kind"), caller.get("logicalAgentId")
    if kind == "outside_agent" and "sharesThreadAgent" in caller:
        shared = caller["sharesThreadAgent"]
        return "agents/" + shared if isinstance(shared, str) and _segment_ok(shared, facts) else None
    folder = {"thread": "agents", "outside_agent": "outside-agents"}.get(kind)
    return folder + "/" + agent if folder and isinstance(agent, str) and _segment_ok(agent, facts) else None


def _wiki_field(inp, field, spec):
    """Returns (codes, resolved path or None) for one confined path field."""
    args = inp.get("arguments") if isinstance(inp.get("arguments"), dict) else {}
    raw = args[field] if field in args else spec.get("default")
    facts = inp.get("unicode") if isinstance(inp.get("unicode"), dict) else {}
    root = root_of(inp.get("caller") or {}, facts)
    root_segs = root.split("/") if root is not None else None
    codes = []
    valid = False
    segs = raw.split("/") if isinstance(raw, str) else None
    if isinstance(raw, str):
        rel = [] if raw == "." else segs
        valid = len(rel) <= MAX_SEGMENTS and all(_segment_ok(s, facts) for s in rel) and not (spec["names"] == "page" and raw == ".")
    if not valid or root_segs is None:
        codes.append("path_invalid")
    escapes = False
    if segs is not None and len(segs) <= MAX_SEGMENTS:
        depth = 0
        for s in segs:
            depth += -1 if s == ".." else (0 if s in ("", ".") else 1)
            if depth < 0:
                escapes = True
    if escapes:
        codes.append("path_escape")
    if valid and root_segs is not None and not escapes:
        rel = [] if raw == "." else segs
        return codes, "/".join(root_segs + rel)
    return codes, None


def _needs_thread_state(row):
    cls = CLASSES[row["class"]]
    return cls["live"] != "never" or bool(row["modeFields"]) or bool(row["threadFields"]) or bool(cls["minimumLimits"])


def _whole_positive(n):
    return isinstance(n, (int, float)) and not isinstance(n, bool) and n >= 1 and n == int(n)


def _quota(row, caller):
    """docs/domain.md §10: the capability's budget class, else the access class's; numbers per caller kind."""
    cls = QUOTAS["capability_budgets"].get(row["capability"]) if isinstance(row["capability"], str) else None
    cls = cls or QUOTAS["class_budgets"].get(row["class"])
    budget = QUOTAS["budgets"].get(caller.get("kind"), {}).get(cls)
    agent = caller.get("logicalAgentId")
    if not isinstance(budget, dict) or not isinstance(agent, str) or not agent:
        return None
    rate, burst = budget.get("ratePerMinute"), budget.get("burst")
    if not (_whole_positive(rate) and _whole_positive(burst)):
        return None
    return {"bucket": f"{caller['kind']}/{cls}/{agent}", "class": cls, "ratePerMinute": rate, "burst": burst}


def decide(inp):
    """Returns {"allow": bool, "codes": [...], "obligations": {...}} for one decision input."""
    codes = set()
    caller = inp.get("caller") or {}
    tool = inp.get("tool")
    row = TABLE.get(tool) if isinstance(tool, str) else None
    if row is None:
        codes.add("unknown_tool")
    args = inp.get("arguments")
    found, keys = _identity_found(args, row["toolkit"] if row else None)
    if found:
        codes.add("identity_argument")
    errors = inp.get("argumentErrors")
    reported = {e.get("key") for e in inp.get("argumentKeys") or [] if isinstance(e.get("folded"), str)}
    for e in inp.get("argumentKeys") or []:
        if isinstance(e.get("folded"), str) and meaning(e["folded"]) in keys:
            found.add(e["key"])
    if found:
        codes.add("identity_argument")
    problems = not isinstance(errors, list) or not isinstance(args, dict) or any(
        not (e.get("keyword") == "additionalProperties" and e.get("property") in found)
        for e in errors) or any(k not in reported for k in _object_keys(args))
    a = args if isinstance(args, dict) else {}
    if row is not None:
        for axis, field in row["modeFields"].items():
            if field in a and a[field] != "inherit" and _rank(axis, a[field]) is None:
                problems = True
    if problems:
        codes.add("schema")
    obligations = {}
    if row is not None:
        cls = row["class"]
        kind = caller.get("kind")
        thread_unavailable = kind == "thread" and _thread(caller).get("lookup") == "unavailable"
        unknown = thread_unavailable and _needs_thread_state(row)
        if kind not in ("thread", "outside_agent"):
            codes.add("caller_unknown")
        if _ceiling_unknown(caller):
            codes.add("ceiling_unknown")
        if _mode_limit_unknown(caller):
            codes.add("mode_limit_unknown")
        if cls in WRITES and not _writable(caller):
            codes.add("read_only_client")
        if cls in THREAD_ONLY and kind != "thread":
            codes.add("thread_credential_required")
        needs_live = cls == "act_as_caller" or (cls in WRITES and kind != "outside_agent")
        if needs_live and not _live(caller) and not thread_unavailable:
            codes.add("parent_not_active")
        escalations = set()

        def axis_code(axis):
            return "runtime_mode_escalation_denied" if axis == "runtimeMode" else "interaction_mode_escalation_denied"

        modes = {}
        for axis, field in row["modeFields"].items():
            want = a.get(field)
            if not want or want == "inherit":
                limit = _limit(caller, axis)
                want = AXES[axis][limit] if limit is not None else None
            modes[field] = want
            if _rank(axis, want) is not None and not _within(caller, axis, want):
                escalations.add(axis_code(axis))
        for field in row["threadFields"]:
            tid = a.get(field)
            if not tid:
                if not (kind == "thread" and isinstance(caller.get("threadId"), str)):
                    codes.add("thread_not_found")
                continue
            shell = ((inp.get("targets") or {}).get("threads") or {}).get(tid)
            lookup = shell.get("lookup") if isinstance(shell, dict) else None
            if lookup == "unavailable":
                unknown = True
                continue
            if lookup != "found":
                codes.add("thread_not_found")
                continue
            for axis in AXES:
                if not _within(caller, axis, shell.get(axis)):
                    escalations.add(axis_code(axis))
        for axis, minimum in CLASSES[cls]["minimumLimits"].items():
            if not _within(caller, axis, minimum):
                escalations.add(axis_code(axis))
        if not thread_unavailable:
            codes |= escalations
        if unknown:
            codes.add("unavailable")
        cap = row["capability"]
        if cap is not None:
            if kind == "outside_agent" and cap == "preview":
                codes.add("capability_denied")
            elif cap not in _held(caller):
                codes.add("capability_missing")
            if cap in PROJECT_SCOPES and not _bound(caller):
                codes.add("project_not_bound")
        paths = {}
        for field, spec in row["paths"].items():
            wiki_codes, path = _wiki_field(inp, field, spec)
            codes.update(wiki_codes)
            if path is not None:
                paths[field] = path
        if modes:
            obligations["modes"] = modes
        if row["paths"]:
            obligations["wikiPaths"] = paths
            facts = inp.get("unicode") if isinstance(inp.get("unicode"), dict) else {}
            obligations["wikiRoot"] = root_of(caller, facts)
        quota = _quota(row, caller)
        if quota is not None:
            obligations["quota"] = quota
    allow = not codes
    return {"allow": allow, "codes": [c for c in CODES if c in codes], "obligations": obligations if allow else {}}


def visible(caller):
    """Tool names whose caller-level rules pass (class, class minimum modes, capability)."""
    names = []
    for name in sorted(TABLE):
        d = decide({"tool": name, "arguments": {}, "argumentErrors": [], "caller": caller,
                    "targets": {"threads": {}}})
        caller_level = {"caller_unknown", "ceiling_unknown", "mode_limit_unknown", "read_only_client",
                        "thread_credential_required", "parent_not_active", "capability_denied",
                        "capability_missing", "project_not_bound"}
        row = TABLE[name]
        if row["class"] == "write_environment":
            caller_level |= {"runtime_mode_escalation_denied", "interaction_mode_escalation_denied"}
        if not caller_level & set(d["codes"]):
            names.append(name)
    return names
