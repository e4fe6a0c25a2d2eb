package gatehouse.access_test

import data.gatehouse.authz
import data.gatehouse.authz.access
import data.gatehouse.testing

row(name) := data.gatehouse.access_table[name]

ended := object.union(testing.thread_a1, {"live": false})

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
	d1 := authz.decision with input as testing.call_as(ended, "wiki_write", {"path": "p.md", "content": "x"})
	testing.codes(d1) == ["parent_not_active"]
	d2 := authz.decision with input as testing.call_as(testing.outside_full, "wiki_write", {"path": "p.md", "content": "x"})
	d2.allow
}

test_access_field_absent_read_only_denies_writes if {
	not access.ok(row("wiki_write")) with input as {"caller": json.remove(testing.thread_a1, ["readOnly"])}
}

test_access_field_absent_read_only_string_denies_writes if {
	not access.ok(row("wiki_write")) with input as {"caller": object.union(testing.thread_a1, {"readOnly": "false"})}
}

test_access_field_absent_live_denies_writes if {
	not access.ok(row("wiki_write")) with input as {"caller": json.remove(testing.thread_a1, ["live"])}
}

test_access_field_absent_kind_denies_caller_bound if {
	not access.ok(row("t3_worktree_status")) with input as {"caller": json.remove(testing.thread_a1, ["kind"])}
}

test_access_field_absent_kind_denies_writes_without_live if {
	caller := json.remove(object.union(testing.thread_a1, {"live": false}), ["kind"])
	not access.ok(row("wiki_write")) with input as {"caller": caller}
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
		not access.ok(row("wiki_write")) with input as {"caller": object.union(testing.thread_a1, {"live": live})}
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
