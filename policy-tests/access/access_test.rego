package gatehouse.access_test

import data.gatehouse.authz
import data.gatehouse.authz.access
import data.gatehouse.testing

row(name) := data.gatehouse.access_table[name]

ended := testing.with_thread(testing.thread_a1, {"activeRun": false})

write_call(caller) := testing.call_as(caller, "wiki_write", {"path": "p.md", "content": "x"})

test_access_read_allowed_for_everyone if {
	every caller in [testing.thread_a1, ended, testing.outside_full, testing.outside_read_only] {
		access.ok(row("t3_thread_read")) with input as {"caller": caller}
	}
}

test_access_read_only_client_only_reads if {
	every tool in ["wiki_write", "project_work_submit", "t3_thread_send", "t3_thread_launch", "t3_project_update"] {
		d := authz.decision with input as testing.call_as(testing.outside_read_only, tool, {})
		"read_only_client" in testing.codes(d)
	}
}

test_access_read_as_caller_needs_a_thread_but_not_a_live_run if {
	access.ok(row("t3_worktree_status")) with input as {"caller": ended}
	d := authz.decision with input as testing.call_as(testing.outside_full, "t3_worktree_status", {})
	testing.codes(d) == ["thread_credential_required"]
}

test_access_act_as_caller_needs_a_live_thread if {
	d1 := authz.decision with input as testing.call_as(ended, "preview_open", {"url": "http://x"})
	testing.codes(d1) == ["parent_not_active"]
	d2 := authz.decision with input as testing.call_as(testing.outside_full, "preview_open", {"url": "http://x"})
	"thread_credential_required" in testing.codes(d2)
}

test_access_write_needs_live_run_only_for_threads if {
	d1 := authz.decision with input as write_call(ended)
	testing.codes(d1) == ["parent_not_active"]
	d2 := authz.decision with input as write_call(testing.outside_full)
	d2.allow
}

# Each fact behind "owns a live run" is needed: changing or removing any one of them is not live.
test_access_live_needs_every_fact if {
	every change in [
		{"archived": true}, {"archived": "false"}, {"activeRun": false}, {"activeRun": "true"},
		{"providerInstanceId": "pi-2"}, {"lookup": "not_found"},
	] {
		d := authz.decision with input as write_call(testing.with_thread(testing.thread_a1, change))
		testing.codes(d) == ["parent_not_active"]
	}
}

test_access_field_absent_live_facts_deny_writes if {
	every path in [
		"thread/archived", "thread/activeRun", "thread/providerInstanceId", "thread/lookup",
		"session/providerInstanceId", "thread", "session",
	] {
		d := authz.decision with input as write_call(json.remove(testing.thread_a1, [path]))
		d.allow == false
		"parent_not_active" in testing.codes(d)
	}
}

# A provider instance that matches only because both are absent is no match.
test_access_both_instances_absent_is_not_live if {
	caller := json.remove(testing.thread_a1, ["thread/providerInstanceId", "session/providerInstanceId"])
	not access.ok(row("wiki_write")) with input as {"caller": caller}
}

# `live` sent as a verdict is not a fact the policy reads.
test_access_live_verdict_is_ignored if {
	caller := object.union(ended, {"live": true})
	not access.ok(row("wiki_write")) with input as {"caller": caller}
}

test_access_thread_lookup_unavailable_is_unavailable_not_blame if {
	caller := testing.with_thread(testing.thread_a1, {"lookup": "unavailable"})
	d := authz.decision with input as write_call(json.remove(caller, ["thread/activeRun"]))
	testing.codes(d) == ["unavailable"]
}

test_access_thread_lookup_unavailable_still_reads if {
	caller := json.remove(testing.with_thread(testing.thread_a1, {"lookup": "unavailable"}), ["thread/runtimeMode", "thread/interactionMode"])
	d := authz.decision with input as testing.call_as(caller, "wiki_read", {"path": "p.md"})
	d.allow
}

test_access_read_only_ceiling_denies_writes if {
	d := authz.decision with input as write_call(testing.outside_read_only)
	testing.codes(d) == ["read_only_client", "capability_missing"]
}

test_access_field_absent_ceiling_denies_writes if {
	not access.ok(row("wiki_write")) with input as {"caller": json.remove(testing.outside_full, ["ceiling"])}
}

test_access_unknown_ceiling_denies_writes if {
	not access.ok(row("wiki_write")) with input as {"caller": object.union(testing.outside_full, {"ceiling": "root"})}
}

# `readOnly` sent as a verdict is not a fact the policy reads.
test_access_read_only_verdict_is_ignored if {
	caller := object.union(testing.outside_read_only, {"readOnly": false})
	not access.ok(row("wiki_write")) with input as {"caller": caller}
}

test_access_field_absent_kind_denies_caller_bound if {
	not access.ok(row("t3_worktree_status")) with input as {"caller": json.remove(testing.thread_a1, ["kind"])}
}

test_access_field_absent_kind_denies_writes if {
	not access.ok(row("wiki_write")) with input as {"caller": json.remove(testing.thread_a1, ["kind"])}
}

test_access_parent_absent_denies_everything_but_plain_reads if {
	not access.ok(row("wiki_write")) with input as {}
	not access.ok(row("t3_worktree_status")) with input as {}
}

test_access_unknown_class_denies if {
	not access.ok({"class": "admin"}) with input as {"caller": testing.thread_a1}
}

# Mutation survivors (scripts/policy-mutation.py): only a literal `true` makes a caller live, only a literal
# `false` relaxes a class, and an unknown `live` value in a class is never satisfied. Made-up classes below.
test_access_live_must_be_literally_true if {
	every live in [null, "true", 1, {}] {
		not access.ok(row("wiki_write")) with input as {"caller": testing.with_thread(testing.thread_a1, {"activeRun": live})}
	}
}

made_up_classes := {
	"writes_absent": {"threadCaller": false, "live": "never", "minimumLimits": {}},
	"writes_not_boolean": {"threadCaller": false, "writes": "false", "live": "never", "minimumLimits": {}},
	"thread_caller_absent": {"writes": false, "live": "never", "minimumLimits": {}},
	"thread_caller_not_boolean": {"threadCaller": null, "writes": false, "live": "never", "minimumLimits": {}},
	"live_unknown": {"threadCaller": false, "writes": false, "live": "sometimes", "minimumLimits": {}},
}

test_access_class_without_writes_counts_as_writing if {
	every class in ["writes_absent", "writes_not_boolean"] {
		not access.ok({"class": class}) with input as {"caller": testing.outside_read_only}
			with data.gatehouse.access_classes as made_up_classes
	}
	access.ok({"class": "writes_absent"}) with input as {"caller": testing.outside_full}
		with data.gatehouse.access_classes as made_up_classes
}

test_access_class_without_thread_caller_is_caller_bound if {
	every class in ["thread_caller_absent", "thread_caller_not_boolean"] {
		not access.ok({"class": class}) with input as {"caller": testing.outside_full}
			with data.gatehouse.access_classes as made_up_classes
	}
	access.ok({"class": "thread_caller_absent"}) with input as {"caller": testing.thread_a1}
		with data.gatehouse.access_classes as made_up_classes
}

test_access_class_with_unknown_live_value_denies if {
	not access.ok({"class": "live_unknown"}) with input as {"caller": testing.thread_a1}
		with data.gatehouse.access_classes as made_up_classes
}

test_access_caller_unknown_only_for_known_tools if {
	d1 := authz.decision with input as json.remove(testing.call("no_such_tool", {}), ["caller"])
	not "caller_unknown" in testing.codes(d1)
	d2 := authz.decision with input as json.remove(testing.call("wiki_read", {"path": "p.md"}), ["caller"])
	"caller_unknown" in testing.codes(d2)
}
