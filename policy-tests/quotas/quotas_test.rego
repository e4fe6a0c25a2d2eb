package gatehouse.quotas_test

import data.gatehouse.authz
import data.gatehouse.authz.quotas
import data.gatehouse.testing

quota_of(caller, tool, args) := d.obligations.quota if {
	d := authz.decision with input as testing.call_as(caller, tool, args)
}

# The quota data with a JSON patch applied (a `with` on a path inside the data document does not replace it).
patched(patch) := json.patch(data.gatehouse.quotas, patch)

# Every row of the access table, for both caller kinds that may call it, is charged to a budget of the data:
# no allowed call goes out without a quota (the PEP would refuse it as policy_unavailable).
test_quotas_every_row_and_kind_has_a_budget if {
	every tool, _ in data.gatehouse.access_table {
		every kind in ["thread", "outside_agent"] {
			class := quotas.bucket_class with input as {"tool": tool, "caller": {"kind": kind}}
			is_object(data.gatehouse.quotas.budgets[kind][class])
		}
	}
}

test_quotas_allowed_call_carries_its_bucket if {
	quota_of(testing.thread_a1, "wiki_write", {"path": "p.md", "content": "x"}) == {"bucket": "thread/wiki_write/a1", "class": "wiki_write", "ratePerMinute": 120, "burst": 30}
}

# The capability's budget wins over the access class's; a capability without one falls back to the class.
class_of(tool, args) := d.obligations.quota.class if {
	d := authz.decision with input as testing.call(tool, args)
}

test_quotas_capability_before_class if {
	submit := {"runId": "r", "runRevision": "run:1", "assignmentRevision": "position:1", "result": {}}
	class_of("project_work_submit", submit) == "project_write"
	class_of("wiki_read", {"path": "p.md"}) == "read"
	class_of("t3_thread_list", {}) == "read"
	class_of("t3_worktree_status", {}) == "read"
	class_of("delegate_task", {"prompt": "p"}) == "act"
}

test_quotas_numbers_per_caller_kind if {
	quota_of(testing.outside_full, "wiki_read", {"path": "p.md"}) == {"bucket": "outside_agent/read/o1", "class": "read", "ratePerMinute": 600, "burst": 60}
}

# The key is built from trusted facts only: arguments that look like identity never change it.
test_quotas_bucket_ignores_arguments if {
	a := quota_of(testing.thread_a1, "wiki_read", {"path": "p.md"})
	b := quota_of(testing.thread_a1, "wiki_read", {"path": "other/q.md"})
	a == b
}

# Two agents never share a bucket, and one agent's classes are separate buckets.
test_quotas_buckets_per_agent_and_class if {
	a1 := quota_of(testing.thread_a1, "wiki_read", {"path": "p.md"})
	a2 := quota_of(testing.live_thread("a2", "t2", "full-access", "default"), "wiki_read", {"path": "p.md"})
	a1.bucket != a2.bucket
	w := quota_of(testing.thread_a1, "wiki_write", {"path": "p.md", "content": "x"})
	a1.bucket != w.bucket
}

test_quotas_denial_carries_no_quota if {
	d := authz.decision with input as testing.call("wiki_read", {"path": "../a2/p.md"})
	not d.allow
	d.obligations == {}
}

test_quotas_no_budget_in_the_data_gives_no_quota if {
	d := authz.decision with input as testing.call("wiki_read", {"path": "p.md"})
		with data.gatehouse.quotas as patched([{"op": "remove", "path": "/budgets/thread"}])
	d.allow
	not d.obligations.quota
	d.obligations.wikiRoot == "agents/a1"
}

# Numbers that are not whole numbers of at least one give no quota (the PEP then refuses the call).
test_quotas_bad_numbers_give_no_quota if {
	every bad in [0, -1, 1.5, "10", null, true] {
		rate := patched([{"op": "replace", "path": "/budgets/thread/read", "value": {"ratePerMinute": bad, "burst": 5}}])
		d1 := authz.decision with input as testing.call("t3_thread_list", {}) with data.gatehouse.quotas as rate
		not d1.obligations.quota
		burst := patched([{"op": "replace", "path": "/budgets/thread/read", "value": {"ratePerMinute": 5, "burst": bad}}])
		d2 := authz.decision with input as testing.call("t3_thread_list", {}) with data.gatehouse.quotas as burst
		not d2.obligations.quota
	}
}

test_quotas_smallest_numbers_are_one if {
	ones := patched([{"op": "replace", "path": "/budgets/thread/read", "value": {"ratePerMinute": 1, "burst": 1}}])
	d := authz.decision with input as testing.call("t3_thread_list", {}) with data.gatehouse.quotas as ones
	q := d.obligations.quota
	q.ratePerMinute == 1
	q.burst == 1
}

test_quotas_empty_agent_id_gives_no_quota if {
	every id in ["", 7, null] {
		not quotas.agent_id with input as {"caller": object.union(testing.thread_a1, {"logicalAgentId": id})}
	}
	quotas.agent_id == "a1" with input as {"caller": testing.thread_a1}
}

# A capability the data does not name falls back to the class; one it names never does.
test_quotas_class_fallback_only_without_capability_budget if {
	none := patched([{"op": "replace", "path": "/capability_budgets", "value": {}}])
	quotas.bucket_class == "write" with input as {"tool": "wiki_write"} with data.gatehouse.quotas as none
	quotas.bucket_class == "wiki_write" with input as {"tool": "wiki_write"}
}

# tools/list is decided at visible_tools, which has no obligations at all: listing is never charged.
test_quotas_listing_has_no_quota if {
	names := authz.visible_tools with input as {"caller": testing.thread_a1}
	"wiki_write" in names
}
