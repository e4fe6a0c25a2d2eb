"""Builds the golden cases of the notice entry point: policy-tests/golden/delivery/cases.json.

Usage: python3 policy-tests/golden/generate_notice.py <opa binary>

Every combination of the delivery facts (docs/domain.md §9): client binding, project binding, notice version and
the mapped thread's shell, each with a new thread's configured modes and limit. The decision comes from the pinned
OPA at gatehouse/authz/notice; a case is written only when the small oracle below predicts the same allow, reason
codes and obligations. The file carries its entry point, so `opa test` and the Java engines replay it there.
"""
import copy
import itertools
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.join(HERE, "..", "..")
ENTRYPOINT = "gatehouse/authz/notice"
RANK = {"runtimeMode": ["approval-required", "auto-accept-edits", "auto", "full-access"],
        "interactionMode": ["plan", "default"]}
ORDER = json.load(open(os.path.join(REPO, "policies/gatehouse/data.json")))["reason_codes"]

THREADS = {
    "none": {"lookup": "none"},
    "not_found": {"lookup": "not_found"},
    "unavailable": {"lookup": "unavailable"},
    "current": {"lookup": "found", "threadId": "t-1", "archived": False, "agentId": "a1", "workProjectId": "ps-1"},
    "archived": {"lookup": "found", "threadId": "t-1", "archived": True, "agentId": "a1", "workProjectId": "ps-1"},
    "other_agent": {"lookup": "found", "threadId": "t-9", "archived": False, "agentId": "a2",
                    "workProjectId": "ps-1"},
    "other_project": {"lookup": "found", "threadId": "t-9", "archived": False, "agentId": "a1",
                      "workProjectId": "ps-2"},
}
MODES = {
    "wide_capped": ({"runtimeMode": "full-access", "interactionMode": "default"},
                    {"runtimeMode": "auto-accept-edits", "interactionMode": "plan"}),
    "narrow_kept": ({"runtimeMode": "approval-required", "interactionMode": "plan"},
                    {"runtimeMode": "auto", "interactionMode": "default"}),
    "invalid_limit": ({"runtimeMode": "auto", "interactionMode": "plan"},
                      {"runtimeMode": "sudo", "interactionMode": "default"}),
}


def make(client, project, version, thread, modes):
    configured, limit = MODES[modes]
    return {"notice": {
        "environment": {"projectClientId": "c-local"},
        "notice": {"noticeId": "n-1", "version": version, "agentId": "a1", "projectId": "ps-1"},
        "agent": {"found": True, "projectClientId": "c-local" if client else "c-other",
                  "project": {"enabled": True, "projectServiceProjectId": "ps-1" if project else "ps-2"},
                  "modes": configured, "limit": limit},
        "thread": copy.deepcopy(THREADS[thread])}}


def oracle(inp):
    f = inp["notice"]
    agent, thread = f["agent"], f["thread"]
    codes = set()
    if f["notice"]["version"] != 1:
        codes.add("notice_version_unsupported")
    if agent["projectClientId"] != f["environment"]["projectClientId"]:
        codes.add("notice_client_not_bound")
    if agent["project"]["projectServiceProjectId"] != f["notice"]["projectId"]:
        codes.add("notice_project_not_bound")
    owned = thread.get("agentId") == "a1" and thread.get("workProjectId") == "ps-1"
    found = thread["lookup"] == "found"
    needs = thread["lookup"] in ("none", "not_found") or (found and owned and thread["archived"])
    modes = {}
    for axis, ranks in RANK.items():
        lim, want = agent["limit"][axis], agent["modes"][axis]
        if lim in ranks and want in ranks:
            modes[axis] = ranks[min(ranks.index(lim), ranks.index(want))]
    if thread["lookup"] == "unavailable":
        codes.add("unavailable")
    if found and not owned:
        codes.add("notice_thread_not_owned")
    if needs and len(modes) != 2:
        codes.add("notice_modes_invalid")
    allow = not codes
    return {"allow": allow, "codes": [c for c in ORDER if c in codes],
            "obligations": {"modes": modes} if allow and needs else {}}


def main():
    opa = sys.argv[1]
    cases = []
    for client, project, version, thread, modes in itertools.product([True, False], [True, False], [1, 2],
                                                                       THREADS, MODES):
        name = (f"{'client' if client else 'other_client'}__{'project' if project else 'other_project'}"
                f"__v{version}__thread_{thread}__{modes}")
        cases.append({"name": name, "input": make(client, project, version, thread, modes)})
    with tempfile.TemporaryDirectory() as tmp:
        with open(os.path.join(tmp, "data.json"), "w", encoding="utf-8") as f:
            json.dump({"golden_inputs": [c["input"] for c in cases]}, f)
        out = subprocess.check_output([opa, "eval", "--format", "json", "-d", os.path.join(REPO, "policies"),
                                       "-d", os.path.join(tmp, "data.json"),
                                       "[d | some i in data.golden_inputs; d := data.gatehouse.authz.notice "
                                       "with input as i]"])
    decisions = json.loads(out)["result"][0]["expressions"][0]["value"]
    bad = 0
    for c, d in zip(cases, decisions):
        got = {"allow": d["allow"], "codes": [r["code"] for r in d["reasons"]], "obligations": d["obligations"]}
        if got != oracle(c["input"]):
            bad += 1
            print(f"DISAGREE {c['name']}\n  oracle: {oracle(c['input'])}\n  policy: {got}")
        c["expected"] = d
    if bad:
        sys.exit(f"{bad} cases disagree; nothing written")
    os.makedirs(os.path.join(HERE, "delivery"), exist_ok=True)
    with open(os.path.join(HERE, "delivery", "cases.json"), "w", encoding="utf-8") as f:
        json.dump({"entrypoint": ENTRYPOINT, "cases": cases}, f, indent=1, ensure_ascii=False)
        f.write("\n")
    print(f"wrote {len(cases)} golden cases for {ENTRYPOINT}")


if __name__ == "__main__":
    main()
