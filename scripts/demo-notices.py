"""The Project Work notice part of `make demo` (docs/domain.md §9), against a running `make run`.

Assigns work to agent a1 through the local Project Service's demo route, which emits a notice to this
environment's Project client; shows the gateway delivering it (a thread is created at the capped modes, with one
aggregate message), then three more notices while that thread's turn runs (gathered, nothing sent), the turn
ending, and the one aggregate message that follows. Env: GATEHOUSE_DATA_DIR, LOCAL_URL (from demo-credentials.env).
"""
import json
import os
import sys
import time
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.environ.get("GATEHOUSE_DATA_DIR", os.path.join(ROOT, ".gatehouse-data"))
# The local-services of the `make run` that wrote demo-credentials.env (its LOCAL_URL), never another one: the
# service credential read below is sent there.
LOCAL = os.environ.get("LOCAL_URL") or "http://127.0.0.1:" + os.environ.get("GATEHOUSE_LOCAL_PORT", "8181")


def secret(name):
    with open(os.path.join(DATA, "secrets", name), encoding="utf-8") as f:
        return f.read().strip()


def env_file():
    values = {}
    with open(os.path.join(DATA, "demo-credentials.env"), encoding="utf-8") as f:
        for line in f:
            key, _, value = line.strip().partition("=")
            values[key] = value
    return values


GATEWAY = env_file()["MCP_URL"].rsplit("/mcp", 1)[0]
ADMIN = secret("admin-credential")
SERVICE = secret("service-credential")


def call(method, url, credential, body=None, headers=None):
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(url, data=data, method=method, headers={
        "Authorization": "Bearer " + credential, "Content-Type": "application/json", **(headers or {})})
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read() or b"null")


def counts():
    return call("GET", GATEWAY + "/admin/notices", ADMIN)["counts"]


def assign(run_id, title):
    notice = call("POST", LOCAL + "/project/v1/admin/assignments", SERVICE, {
        "clientId": "gatehouse-local", "agentId": "a1", "agentName": "Agent one", "projectId": "ps-demo",
        "projectName": "Demo project", "runId": run_id, "title": title})
    print(f"  Project Service emits notice {notice['noticeId']} ({notice['assignmentRevision']})")


def wait_for(what, test):
    for _ in range(60):
        if test():
            return
        time.sleep(0.5)
    sys.exit(f"timed out waiting for {what}; see .gatehouse-data/logs/gateway.log")


def thread():
    threads = call("GET", LOCAL + "/host/v1/threads?agentId=a1&workProjectId=ps-demo", SERVICE)["threads"]
    return threads[-1] if threads else None


def messages(thread_id):
    return call("GET", LOCAL + "/host/v1/threads/" + thread_id, SERVICE)["messages"]


def main():
    stamp = time.strftime("%H%M%S")
    print("\n=== Project Work notices (docs/domain.md §9) ===")
    print("notice counts before:", counts())
    before = counts()["delivered"]
    existing = thread()
    if existing and existing["activeRunId"]:
        call("POST", LOCAL + f"/host/v1/threads/{existing['threadId']}/interrupt", SERVICE, {},
             {"Gatehouse-Agent-Id": "a1"})
    assign(f"run-{stamp}-1", "Write the release notes")
    wait_for("the first delivery", lambda: counts()["delivered"] > before)
    current = thread()
    print(f"  delivered into thread {current['threadId']} (modes {current['runtimeMode']}/"
          f"{current['interactionMode']}: full-access/plan capped by the limit auto/default)")
    print("  message:", messages(current["threadId"])[-1]["text"].replace("\n", "\n           "))
    sent = len(messages(current["threadId"]))
    print(f"the thread's turn is running (active run {thread()['activeRunId']}); three more notices:")
    for i in range(2, 5):
        assign(f"run-{stamp}-{i}", f"Follow-up task {i}")
    wait_for("the notices to be gathered", lambda: counts()["coalesced"] >= 3)
    print("  gathered while busy:", counts(), "- messages in the thread still", len(messages(current["threadId"])))
    print("the turn ends (host: run ended)")
    call("POST", LOCAL + f"/host/v1/threads/{current['threadId']}/interrupt", SERVICE, {},
         {"Gatehouse-Agent-Id": "a1"})
    wait_for("the aggregate", lambda: len(messages(current["threadId"])) > sent)
    print("  one aggregate, built from the Project Service's open work (not from the notices):")
    print("  message:", messages(current["threadId"])[-1]["text"].replace("\n", "\n           "))
    print("notice counts after:", counts())


if __name__ == "__main__":
    main()
