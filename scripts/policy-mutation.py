#!/usr/bin/env python3
"""Policy mutation testing: does `opa test policies policy-tests` notice when a policy is changed?

Each mutant changes one thing in one file under policies/ and the policy tests are run against it on a temp
copy of the tree. A mutant the tests fail on is *killed*; one they pass on *survived* (a rule change no test
notices); one OPA refuses to compile is *invalid* and not counted. The score is killed / (killed + survived),
mutants listed as equivalent in policy-tests/mutation-equivalent.txt (reviewed, with a reason) left out.

Rego mutations (code only: comments and METADATA are never touched):
  comparisons   == <-> !=, `== true` -> `!= false`, `== false` -> `!= true`, <= -> < / >=, < -> <=,
                >= -> > / <=, > -> >=
  negations     `not x` -> `x`; a membership condition `x in y` -> `not x in y`
  conditions    one body line of a rule (or of an `every`) dropped, one at a time
  constants     true <-> false, integers +1 / -1, string literals changed
Data mutations (policies/gatehouse/**/data.json): one list entry dropped, one object member dropped, one
boolean flipped, one number +1.

Each mutant meets the mutated family's unit tests first, then every unit test, then the whole suite with the
golden matrix, stopping at the first that fails: most mutants are killed by their own family's tests, at a
fraction of the cost of the rest.

A whole run (no --only, no --changed) keeps its results under ~/.cache/gatehouse/policy-mutation, keyed by the
SHA-256 of everything that decides them: this script, every file of policies/ and policy-tests/ (the reviewed
equivalents included), the OPA version and --timeout (the newest 8 trees' results are kept). A later run over an
identical tree reuses them and says so; GATEHOUSE_MUTATION_FRESH=1 runs every mutant again. The score, the report
and the exit code are made the same way.

Usage: policy-mutation.py [--min 90] [--jobs 2] [--report target/policy-mutation.txt] [--only SUBSTRING]
                          [--changed REV] [--list] [--opa PATH]
`--changed HEAD` mutates only the lines of policies/ the working tree changed (`make check`); `make test` runs all.
Exit 1 when the score is below --min (every survivor is printed with file:line and the mutation), 2 on setup
errors. Standard library only.
"""
import argparse
import concurrent.futures
import glob
import hashlib
import json
import os
import queue
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_OPA = os.path.expanduser("~/.cache/gatehouse/opa-v1.22.3/opa")
EQUIVALENT_FILE = "policy-tests/mutation-equivalent.txt"
CACHE_DIR = os.path.expanduser("~/.cache/gatehouse/policy-mutation")
CACHE_KEEP = 8  # results of the newest trees kept
COMPILE_ERROR = re.compile(r"rego_(parse|compile|type|unsafe_var|recursion)_error")


class Mutant:
    def __init__(self, path, line, what, original, mutated_text, line_before="", line_after="", rule="-"):
        self.path = path              # relative to ROOT
        self.rule = rule              # the enclosing rule's head line (Rego), "-" for data
        self.line = line              # 1-based
        self.what = what              # e.g. "== -> !="
        self.original = original      # the original line, stripped (identifies the mutant across line moves)
        self.mutated_text = mutated_text
        self.line_before = line_before
        self.line_after = line_after
        self.status = None
        self.detail = ""

    def key(self):
        return (self.path, self.what, self.rule, self.original)

    def describe(self):
        s = f"{self.path}:{self.line}: {self.what}"
        if self.line_before or self.line_after:
            s += f"\n      - {self.line_before.strip()}\n      + {self.line_after.strip() or '(line dropped)'}"
        return s


# --- Rego lexing (one line at a time; the policies have no multi-line strings) --------------------------

TOKEN = re.compile(r"""
    (?P<string>"(?:[^"\\]|\\.)*")
  | (?P<raw>`[^`]*`)
  | (?P<comment>\#.*)
  | (?P<number>\d+(?:\.\d+)?)
  | (?P<ident>[A-Za-z_][A-Za-z0-9_]*)
  | (?P<op>==|!=|<=|>=|:=|[<>=|&{}\[\](),.;:+\-*/%])
  | (?P<space>\s+)
""", re.VERBOSE)


def lex(line):
    tokens, pos = [], 0
    while pos < len(line):
        m = TOKEN.match(line, pos)
        if not m:
            tokens.append(("other", pos, pos + 1, line[pos]))
            pos += 1
            continue
        kind = m.lastgroup
        if kind == "comment":
            break
        if kind != "space":
            tokens.append((kind, m.start(), m.end(), m.group()))
        pos = m.end()
    return tokens


def bracket_delta(tokens):
    d = 0
    for kind, _, _, text in tokens:
        if kind == "op" and text in "{[(":
            d += 1
        elif kind == "op" and text in "}])":
            d -= 1
    return d


COMPARISONS = {
    "==": ["!="], "!=": ["=="],
    "<=": ["<", ">="], "<": ["<="],
    ">=": [">", "<="], ">": [">="],
}


def rego_mutants(rel, text):
    lines = text.split("\n")
    out = []

    def add(i, what, new_line):
        mutated = "\n".join(lines[:i] + ([new_line] if new_line is not None else []) + lines[i + 1:])
        rule = next((l.strip() for l in reversed(lines[:i + 1]) if l and not l[0].isspace() and l[0] not in "#}])"),
                    "-")
        out.append(Mutant(rel, i + 1, what, lines[i].strip(), mutated, lines[i], new_line or "", rule))

    # Blocks: a stack of (kind, statements); kind "body" for rule/else/every bodies, "literal" otherwise.
    stack = []
    bodies = []  # lists of line indexes of complete statements directly in one body
    for i, line in enumerate(lines):
        tokens = lex(line)
        if not tokens:
            continue
        words = [t[3] for t in tokens]
        if words[0] in ("package", "import"):
            continue
        delta = bracket_delta(tokens)
        in_body = bool(stack) and stack[-1][0] == "body"
        # A complete statement directly in a body: balanced on its own line, not a closing brace.
        if in_body and delta == 0 and words[0] not in ("}", "]", ")"):
            stack[-1][1].append(i)
        # Block bookkeeping.
        if delta > 0 and words[-1] == "{" and ("if" in words or words[0] in ("every", "else")):
            stack.append(("body", []))
        elif delta > 0:
            for _ in range(delta):
                stack.append(("literal", []))
        elif delta < 0:
            for _ in range(-delta):
                if stack:
                    kind, stmts = stack.pop()
                    if kind == "body":
                        bodies.append(stmts)

        # Token mutations.
        for n, (kind, start, end, tok) in enumerate(tokens):
            def swap(replacement, what, s=start, e=end):
                add(i, what, line[:s] + replacement + line[e:])

            if kind == "op" and tok in COMPARISONS:
                nxt = tokens[n + 1][3] if n + 1 < len(tokens) else None
                for rep in COMPARISONS[tok]:
                    swap(rep, f"{tok} -> {rep}")
                if tok == "==" and nxt in ("true", "false"):
                    flipped = "false" if nxt == "true" else "true"
                    swap("!= " + flipped, f"== {nxt} -> != {flipped}", start, tokens[n + 1][2])
            elif kind == "ident" and tok in ("true", "false"):
                swap("false" if tok == "true" else "true", f"{tok} -> {'false' if tok == 'true' else 'true'}")
            elif kind == "ident" and tok == "not":
                nxt_start = tokens[n + 1][1] if n + 1 < len(tokens) else end
                swap("", "not x -> x", start, nxt_start)
            elif kind == "number" and "." not in tok:
                value = int(tok)
                swap(str(value + 1), f"{tok} -> {value + 1}")
                if value > 0:
                    swap(str(value - 1), f"{tok} -> {value - 1}")
            elif kind == "string":
                body = tok[1:-1]
                rep = '"X' + body + '"' if body else '"X"'
                swap(rep, f"string {tok} -> {rep}")

        # Membership conditions: `x in y` as a body condition or after an inline `if`.
        if "in" in words and words[0] not in ("some", "every", "not") and ":=" not in words \
                and "some" not in words and "every" not in words and "|" not in words:
            if in_body and delta == 0:
                indent = line[:len(line) - len(line.lstrip())]
                add(i, "x in y -> not x in y", indent + "not " + line.lstrip())
            elif "if" in words and words[-1] != "{":
                at = [t for t in tokens if t[3] == "if"][0]
                rest = line[at[2]:].lstrip()
                if rest and not rest.startswith("not ") and re.search(r"\bin\b", rest):
                    add(i, "x in y -> not x in y", line[:at[2]] + " not " + rest)

    for stmts in bodies:
        if len(stmts) < 2:
            continue  # dropping the only condition leaves an empty body: not Rego
        for i in stmts:
            add(i, "condition dropped", None)
    return out


# --- data mutations -----------------------------------------------------------------------------------

def data_mutants(rel, text):
    doc = json.loads(text)
    lines = text.split("\n")
    out = []

    def line_of(path):
        pos = 0
        for tok in path:
            if isinstance(tok, str):
                m = re.compile(r'"' + re.escape(tok) + r'"\s*:').search(text, pos)
                if not m:
                    break
                pos = m.end()
            else:
                bracket = text.find("[", pos)
                if bracket < 0:
                    break
                pos = bracket
                line_no = text.count("\n", 0, pos)
                if "]" not in lines[line_no][lines[line_no].index("[") if "[" in lines[line_no] else 0:]:
                    return line_no + 2 + tok
                return line_no + 1
        return text.count("\n", 0, pos) + 1

    def pointer(path):
        return "/" + "/".join(str(p) for p in path)

    def emit(path, what, mutated_doc):
        ln = line_of(path)
        original = lines[ln - 1].strip() if 0 < ln <= len(lines) else ""
        m = Mutant(rel, ln, f"{pointer(path)}: {what}", original, json.dumps(mutated_doc, indent=2) + "\n")
        out.append(m)

    def copy_with(path, fn):
        new = json.loads(text)
        parent = new
        for tok in path[:-1]:
            parent = parent[tok]
        fn(parent, path[-1])
        return new

    def walk(value, path):
        if isinstance(value, dict):
            for k, v in value.items():
                if path:  # the file's own top level names whole documents (rows, tables): dropped too
                    pass
                emit(path + [k], "member dropped", copy_with(path + [k], lambda p, key: p.pop(key)))
                walk(v, path + [k])
        elif isinstance(value, list):
            for n, v in enumerate(value):
                emit(path + [n], f"entry {json.dumps(v)} dropped", copy_with(path + [n], lambda p, key: p.pop(key)))
                walk(v, path + [n])
        elif isinstance(value, bool):
            emit(path, f"{json.dumps(value)} -> {json.dumps(not value)}",
                 copy_with(path, lambda p, key: p.__setitem__(key, not p[key])))
        elif isinstance(value, (int, float)):
            emit(path, f"{value} -> {value + 1}", copy_with(path, lambda p, key: p.__setitem__(key, p[key] + 1)))

    walk(doc, [])
    return out


# --- running -----------------------------------------------------------------------------------------

def collect(only):
    mutants = []
    for base, _, files in os.walk(os.path.join(ROOT, "policies")):
        for name in sorted(files):
            full = os.path.join(base, name)
            rel = os.path.relpath(full, ROOT)
            if only and only not in rel:
                continue
            text = open(full, encoding="utf-8").read()
            if name.endswith(".rego"):
                mutants += rego_mutants(rel, text)
            elif name == "data.json" and rel.startswith(os.path.join("policies", "gatehouse")) \
                    and not rel.startswith(os.path.join("policies", "gatehouse", "smoke")):
                # the smoke cases are test data shipped in the bundle, not rule data
                mutants += data_mutants(rel, text)
    mutants.sort(key=lambda m: (m.path, m.line, m.what))
    return mutants


def load_equivalent():
    entries = {}
    path = os.path.join(ROOT, EQUIVALENT_FILE)
    if not os.path.exists(path):
        return entries
    for n, raw in enumerate(open(path, encoding="utf-8"), 1):
        if not raw.strip() or raw.startswith("#"):
            continue
        parts = [p.strip() for p in raw.rstrip("\n").split(" || ")]
        if len(parts) != 5:
            sys.exit(f"{EQUIVALENT_FILE}:{n}: expected 'file || mutation || rule head || original line || reason'")
        entries[tuple(parts[:4])] = parts[4]
    return entries


def compiles(opa, tree):
    p = subprocess.run([opa, "check", "policies"], cwd=tree, capture_output=True, text=True)
    return p.returncode == 0


def suites(opa, tree, timeout):
    """The test runs a mutant meets, cheapest first, each a part of `opa test policies policy-tests`.

    For a mutant of policies/<family>/: that family's unit tests (with the shared test helpers), then every unit
    test, then the whole suite with the golden matrix. Most mutants fail the first, at a fraction of the cost; only
    one they all pass meets the next. A part is used only if it passes on the unmutated tree, so a failure in it is
    the mutant's doing (a part that cannot compile alone would otherwise kill every mutant). Returns the whole suite,
    the units, and the family parts by family.
    """
    tests = os.path.join(tree, "policy-tests")
    dirs = sorted(d for d in os.listdir(tests) if d != "golden" and os.path.isdir(os.path.join(tests, d)))
    units = ["policies"] + [os.path.join("policy-tests", d) for d in dirs]
    helpers = [os.path.join("policy-tests", d) for d in dirs if not glob.glob(os.path.join(tests, d, "*_test.rego"))]
    families = {}
    for family in sorted(os.listdir(os.path.join(tree, "policies"))):
        if family in dirs and family not in (os.path.basename(h) for h in helpers):
            paths = ["policies"] + helpers + [os.path.join("policy-tests", family)]
            if run_suite(opa, tree, timeout, paths)[0] == "survived":
                families[family] = paths
    return ["policies", "policy-tests"], units, families


def run_tests(opa, tree, timeout, parts, path=None):
    whole, units, families = parts
    family = path.split(os.sep)[1] if path and path.count(os.sep) >= 2 else None
    for paths in ([families[family]] if family in families else []) + [units, whole]:
        status, detail = run_suite(opa, tree, timeout, paths)
        if status != "survived":
            return status, detail
    return "survived", ""


def changed_lines(base):
    """Lines of policies/ that differ from git revision `base` (working tree, staged or not; new files whole)."""
    diff = subprocess.run(["git", "diff", "-U0", "--no-color", base, "--", "policies"], cwd=ROOT,
                          capture_output=True, text=True, check=True).stdout
    lines, current = {}, None
    for raw in diff.splitlines():
        if raw.startswith("+++ "):
            current = raw[6:] if raw.startswith("+++ b/") else None
        elif raw.startswith("@@") and current:
            start, _, count = re.match(r"@@ -\S+ \+(\d+)(,(\d+))? @@", raw).groups()
            first, n = int(start), int(count) if count is not None else 1
            lines.setdefault(current, set()).update(range(first, first + n))
    untracked = subprocess.run(["git", "ls-files", "--others", "--exclude-standard", "policies"], cwd=ROOT,
                               capture_output=True, text=True, check=True).stdout.split()
    for path in untracked:
        with open(os.path.join(ROOT, path), encoding="utf-8") as f:
            lines[path] = set(range(1, f.read().count("\n") + 2))
    return lines


def tree_key(opa, timeout):
    """The SHA-256 of everything a whole run's results depend on (see the module's docstring)."""
    h = hashlib.sha256()
    with open(os.path.abspath(__file__), "rb") as f:
        h.update(f.read())
    h.update(subprocess.run([opa, "version"], capture_output=True).stdout)
    h.update(f"timeout={timeout}".encode())
    for d in ("policies", "policy-tests"):
        for path in sorted(glob.glob(os.path.join(ROOT, d, "**"), recursive=True)):
            if os.path.isfile(path):
                h.update(os.path.relpath(path, ROOT).encode() + b"\0")
                with open(path, "rb") as f:
                    h.update(f.read())
                h.update(b"\0")
    return h.hexdigest()


def reuse(mutants, cache_file):
    """Sets every mutant's status from an earlier run over the same tree; the run's seconds, or None."""
    try:
        with open(cache_file, encoding="utf-8") as f:
            kept = json.load(f)
    except (OSError, ValueError):
        return None
    results = kept.get("mutants", [])
    if len(results) != len(mutants) or any(r[0] != m.describe() for r, m in zip(results, mutants)):
        return None
    for (_, status, detail), m in zip(results, mutants):
        m.status, m.detail = status, detail
    return kept.get("seconds")


def keep(mutants, cache_file, seconds):
    os.makedirs(os.path.dirname(cache_file), exist_ok=True)
    partial = cache_file + ".partial"
    with open(partial, "w", encoding="utf-8") as f:
        json.dump({"seconds": seconds, "mutants": [[m.describe(), m.status, m.detail] for m in mutants]}, f)
    os.replace(partial, cache_file)  # whole or not at all: a killed run leaves no half a result
    # Each change to the policies makes a new key; only the newest results can be asked for again.
    kept = sorted(glob.glob(os.path.join(os.path.dirname(cache_file), "*.json")), key=os.path.getmtime)
    for old in kept[:-CACHE_KEEP]:
        os.remove(old)


def run_suite(opa, tree, timeout, paths):
    try:
        p = subprocess.run([opa, "test", "-p", "1", "--timeout", f"{timeout}s"] + paths, cwd=tree,
                           capture_output=True, text=True, timeout=timeout * 4)
    except subprocess.TimeoutExpired:
        return "killed", "timed out"
    output = p.stdout + p.stderr
    if p.returncode == 0:
        return "survived", ""
    if COMPILE_ERROR.search(output):
        if compiles(opa, tree):  # the policy compiles; the tests refuse it (e.g. a type error against a test)
            return "killed", "the tests do not compile against it: " + COMPILE_ERROR.search(output).group(0)
        return "invalid", COMPILE_ERROR.search(output).group(0)
    failed = [l.strip() for l in output.splitlines() if l.strip().startswith("data.") and ("FAIL" in l or "ERROR" in l)]
    return "killed", (failed[0] if failed else output.strip().splitlines()[-1] if output.strip() else "")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--min", type=float, default=90.0, help="minimum score in percent (default 90)")
    ap.add_argument("--jobs", type=int, default=2, help="mutants run in parallel (default 2)")
    ap.add_argument("--report", default=os.path.join(ROOT, "target", "policy-mutation.txt"))
    ap.add_argument("--only", help="mutate only files whose path contains this")
    ap.add_argument("--list", action="store_true", help="list the mutants and stop")
    ap.add_argument("--timeout", type=int, default=20, help="opa test --timeout per test, in seconds")
    ap.add_argument("--opa", default=os.environ.get("GATEHOUSE_OPA", DEFAULT_OPA))
    ap.add_argument("--changed", metavar="REV", help="mutate only the lines of policies/ that differ from git "
                    "revision REV (the working tree's edits for HEAD); nothing to do when none differ")
    args = ap.parse_args()

    mutants = collect(args.only)
    if args.changed:
        changed = changed_lines(args.changed)
        mutants = [m for m in mutants if m.line in changed.get(m.path, ())]
        if not mutants:
            print(f">> policy mutation: no mutant on a line of policies/ changed since {args.changed}")
            return 0
    if args.list:
        for m in mutants:
            print(m.describe())
        print(f"{len(mutants)} mutants")
        return 0
    if not os.access(args.opa, os.X_OK):
        print(f"no OPA at {args.opa} (make opa)", file=sys.stderr)
        return 2

    whole = not args.changed and not args.only
    cache_file = os.path.join(CACHE_DIR, tree_key(args.opa, args.timeout) + ".json") if whole else None
    reused = None
    if cache_file and os.environ.get("GATEHOUSE_MUTATION_FRESH") != "1":
        reused = reuse(mutants, cache_file)
    if reused is not None:
        shown = cache_file.replace(os.path.expanduser("~"), "~", 1)
        print(f">> policy mutation: {len(mutants)} mutants, results reused from a run over this very tree "
              f"({shown}, {reused:.0f} s then); GATEHOUSE_MUTATION_FRESH=1 runs them again", flush=True)
        return report(args, mutants, reused, reused=True)

    started = time.time()
    workdir = tempfile.mkdtemp(prefix="gatehouse-mutation-")
    trees = queue.Queue()
    try:
        for n in range(max(1, args.jobs)):
            tree = os.path.join(workdir, f"tree{n}")
            for d in ("policies", "policy-tests"):
                shutil.copytree(os.path.join(ROOT, d), os.path.join(tree, d))
            trees.put(tree)
        status, detail = run_suite(args.opa, trees.queue[0], args.timeout, ["policies", "policy-tests"])
        if status != "survived":
            print(f"the policy tests fail before any mutation ({detail}); fix them first", file=sys.stderr)
            return 2
        parts = suites(args.opa, trees.queue[0], args.timeout)

        done = [0]
        lock = threading.Lock()

        def run(m):
            tree = trees.get()
            target = os.path.join(tree, m.path)
            original = open(target, encoding="utf-8").read()
            try:
                with open(target, "w", encoding="utf-8") as f:
                    f.write(m.mutated_text)
                m.status, m.detail = run_tests(args.opa, tree, args.timeout, parts, m.path)
            finally:
                with open(target, "w", encoding="utf-8") as f:
                    f.write(original)
                trees.put(tree)
            with lock:
                done[0] += 1
                if done[0] % 50 == 0:
                    print(f"   {done[0]}/{len(mutants)} mutants run", flush=True)

        print(f">> policy mutation: {len(mutants)} mutants, {args.jobs} at a time", flush=True)
        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
            list(pool.map(run, mutants))
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    elapsed = time.time() - started
    if cache_file:
        keep(mutants, cache_file, elapsed)
    return report(args, mutants, elapsed, reused=False)


def report(args, mutants, elapsed, reused):
    """Scores the mutants, writes the report and says how it went; the exit code."""
    equivalent = load_equivalent()
    used = set()
    for m in mutants:
        if m.status == "survived" and m.key() in equivalent:
            m.status = "equivalent"
            m.detail = equivalent[m.key()]
            used.add(m.key())
    by = {s: [m for m in mutants if m.status == s] for s in ("killed", "survived", "invalid", "equivalent")}
    counted = len(by["killed"]) + len(by["survived"])
    score = 100.0 * len(by["killed"]) / counted if counted else 100.0
    raw_score = 100.0 * len(by["killed"]) / (counted + len(by["equivalent"])) if counted else 100.0

    lines = [
        "Gatehouse policy mutation report (scripts/policy-mutation.py)",
        f"mutants {len(mutants)}: killed {len(by['killed'])}, survived {len(by['survived'])}, "
        f"invalid {len(by['invalid'])} (do not compile, not counted), "
        f"equivalent {len(by['equivalent'])} (reviewed in {EQUIVALENT_FILE}, not counted)",
        f"score {score:.1f}% killed (minimum {args.min:g}%), {elapsed:.0f} s with {args.jobs} jobs"
        f"{' (reused: the results of a run over this very tree)' if reused else ''}; "
        f"{raw_score:.1f}% counting the equivalent ones as survivors",
        "",
        "Per file (killed/counted):",
    ]
    for path in sorted({m.path for m in mutants}):
        k = sum(1 for m in mutants if m.path == path and m.status == "killed")
        c = sum(1 for m in mutants if m.path == path and m.status in ("killed", "survived"))
        lines.append(f"  {path}: {k}/{c}")
    lines += ["", f"Survivors ({len(by['survived'])}): no policy test notices these changes"]
    lines += [f"  {m.describe()}\n      equivalent entry: {' || '.join(m.key())} || <why no input can tell>"
              for m in by["survived"]] or ["  none"]
    lines += ["", f"Equivalent ({len(by['equivalent'])}):"]
    lines += [f"  {m.describe()}\n      reason: {m.detail}" for m in by["equivalent"]] or ["  none"]
    mutated_files = {m.path for m in mutants}
    # Only a run over whole files can tell that an entry matches no mutant any more.
    stale = [k for k in equivalent if k not in used and k[0] in mutated_files and not args.changed]
    if stale:
        lines += ["", f"Stale entries in {EQUIVALENT_FILE} (no surviving mutant matches them any more):"]
        lines += [f"  {' || '.join(k)}" for k in stale]
    lines += ["", f"Invalid ({len(by['invalid'])}):"]
    lines += [f"  {m.path}:{m.line}: {m.what} ({m.detail})" for m in by["invalid"]] or ["  none"]
    report = "\n".join(lines) + "\n"
    os.makedirs(os.path.dirname(args.report), exist_ok=True)
    with open(args.report, "w", encoding="utf-8") as f:
        f.write(report)

    print("\n".join(lines[1:3]))
    if by["survived"]:
        print(f"survivors ({len(by['survived'])}):")
        for m in by["survived"]:
            print("  " + m.describe())
    print(f"report: {os.path.relpath(args.report, os.getcwd())}")
    if score < args.min:
        print(f"policy mutation score {score:.1f}% is under the minimum {args.min:g}%", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
