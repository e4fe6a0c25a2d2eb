package gatehouse.modes_test

import data.gatehouse.authz
import data.gatehouse.authz.caller
import data.gatehouse.authz.modes
import data.gatehouse.testing

launch(caller, extra) := testing.call_as(caller, "t3_thread_launch", object.union({"projectId": "p", "prompt": "go"}, extra))

send(caller, target) := object.union(
	testing.call_as(caller, "t3_thread_send", {"threadId": "t9", "message": "m"}),
	{"targets": {"threads": {"t9": target}}},
)

test_modes_supervised_plan_thread_launches_at_its_modes_or_below if {
	d := authz.decision with input as launch(testing.thread_a2_supervised, {"runtimeMode": "approval-required", "interactionMode": "plan"})
	d.allow
	d.obligations.modes == {"runtimeMode": "approval-required", "interactionMode": "plan"}
}

test_modes_supervised_plan_thread_refused_above_on_each_axis if {
	d1 := authz.decision with input as launch(testing.thread_a2_supervised, {"runtimeMode": "full-access"})
	testing.codes(d1) == ["runtime_mode_escalation_denied"]
	d2 := authz.decision with input as launch(testing.thread_a2_supervised, {"interactionMode": "default"})
	testing.codes(d2) == ["interaction_mode_escalation_denied"]
	d3 := authz.decision with input as launch(testing.thread_a2_supervised, {"runtimeMode": "auto", "interactionMode": "default"})
	testing.codes(d3) == ["runtime_mode_escalation_denied", "interaction_mode_escalation_denied"]
}

test_modes_inherit_and_omitted_resolve_to_the_callers if {
	d1 := authz.decision with input as launch(testing.thread_a2_supervised, {"runtimeMode": "inherit"})
	d1.obligations.modes == {"runtimeMode": "approval-required", "interactionMode": "plan"}
	d2 := authz.decision with input as launch(testing.thread_a1, {})
	d2.obligations.modes == {"runtimeMode": "full-access", "interactionMode": "default"}
}

# Not a mode at all is a schema finding, not an escalation, even for a full-access caller.
test_modes_unknown_requested_mode_is_schema_only if {
	every value in ["root", "FULL-ACCESS", "", 3, true] {
		d := authz.decision with input as launch(testing.thread_a1, {"runtimeMode": value})
		testing.codes(d) == ["schema"]
	}
	d2 := authz.decision with input as launch(testing.thread_a2_supervised, {"interactionMode": "everything"})
	testing.codes(d2) == ["schema"]
}

test_modes_delegate_task_gets_the_ceiling_check_too if {
	d := authz.decision with input as testing.call_as(testing.thread_a2_supervised, "delegate_task", {"task": "t", "runtimeMode": "auto"})
	testing.codes(d) == ["runtime_mode_escalation_denied"]
}

test_modes_send_to_thread_above_caller_denied if {
	d := authz.decision with input as send(testing.thread_a2_supervised, {"lookup": "found", "runtimeMode": "auto", "interactionMode": "plan"})
	testing.codes(d) == ["runtime_mode_escalation_denied"]
}

test_modes_send_to_thread_within_allowed if {
	d := authz.decision with input as send(testing.thread_a2_supervised, {"lookup": "found", "runtimeMode": "approval-required", "interactionMode": "plan"})
	d.allow
}

test_modes_target_not_found_denied if {
	d := authz.decision with input as send(testing.thread_a1, {"lookup": "not_found"})
	testing.codes(d) == ["thread_not_found"]
}

test_modes_target_lookup_unavailable_is_unavailable if {
	d := authz.decision with input as send(testing.thread_a1, {"lookup": "unavailable"})
	testing.codes(d) == ["unavailable"]
}

# An id longer than its schema admits is not sent (null, listed in omittedArguments) and not looked up: the schema
# check's error is the reason, not a thread that "could not be found".
test_modes_target_too_long_to_send_is_the_schema_finding if {
	call := testing.call_as(testing.thread_a1, "t3_thread_send", {"threadId": null, "message": "m"})
	omitted := object.union(call, {
		"omittedArguments": {"/threadId": {"length": 300000, "sha256": "0000000000000000000000000000000000000000000000000000000000000000"}},
		"argumentErrors": [{"keyword": "maxLength", "instanceLocation": "/threadId", "message": "threadId is too long"}],
	})
	d := authz.decision with input as omitted
	d.allow == false
	testing.codes(d) == ["schema"]

	# The same null without the omission is an id that names no thread.
	d2 := authz.decision with input as call
	"thread_not_found" in testing.codes(d2)
}

test_modes_target_field_absent_lookup_denied if {
	d := authz.decision with input as send(testing.thread_a1, {"runtimeMode": "plan", "interactionMode": "plan"})
	testing.codes(d) == ["thread_not_found"]
}

# `found` sent as a verdict is not the lookup fact.
test_modes_target_found_verdict_is_ignored if {
	d := authz.decision with input as send(testing.thread_a1, {"found": true, "runtimeMode": "approval-required", "interactionMode": "plan"})
	testing.codes(d) == ["thread_not_found"]
}

test_modes_target_found_without_modes_denied if {
	d := authz.decision with input as send(testing.thread_a1, {"lookup": "found"})
	d.allow == false
	testing.codes(d) == ["runtime_mode_escalation_denied", "interaction_mode_escalation_denied"]
}

test_modes_target_not_looked_up_denied if {
	d := authz.decision with input as json.remove(send(testing.thread_a1, {}), ["targets"])
	testing.codes(d) == ["thread_not_found"]
}

test_modes_omitted_target_is_own_thread if {
	d := authz.decision with input as testing.call_as(testing.thread_a2_supervised, "t3_thread_interrupt", {})
	d.allow
}

test_modes_omitted_target_without_own_thread_denied if {
	d := authz.decision with input as testing.call_as(testing.outside_full, "t3_thread_interrupt", {})
	testing.codes(d) == ["thread_not_found"]
}

test_modes_environment_needs_full_access_and_default if {
	d1 := authz.decision with input as testing.call_as(testing.thread_a2_supervised, "t3_project_update", {"projectId": "p"})
	testing.codes(d1) == ["runtime_mode_escalation_denied", "interaction_mode_escalation_denied"]
	d2 := authz.decision with input as testing.call("t3_project_update", {"projectId": "p"})
	d2.allow
}

test_modes_mode_limit_narrows if {
	caller := object.union(testing.outside_full, {"modeLimit": {"runtimeMode": "auto", "interactionMode": "default"}})
	d1 := authz.decision with input as launch(caller, {"runtimeMode": "full-access"})
	testing.codes(d1) == ["runtime_mode_escalation_denied"]
	d2 := authz.decision with input as launch(caller, {})
	d2.obligations.modes.runtimeMode == "auto"
}

test_modes_mode_limit_never_widens if {
	c := object.union(testing.outside("o2", "approval-required", testing.all_settings), {"modeLimit": {"runtimeMode": "full-access", "interactionMode": "default"}})
	caller.limit("runtimeMode") == "approval-required" with input as {"caller": c}
}

# The header is sent for every caller; it narrows outside agents only (a thread's limits are its modes).
test_modes_mode_limit_does_not_narrow_threads if {
	c := object.union(testing.thread_a1, {"modeLimit": {"runtimeMode": "approval-required", "interactionMode": "plan"}})
	d := authz.decision with input as launch(c, {})
	d.obligations.modes == {"runtimeMode": "full-access", "interactionMode": "default"}
}

test_modes_read_only_limits_are_the_narrowest_runtime if {
	caller.limit("runtimeMode") == "approval-required" with input as {"caller": testing.outside_read_only}
	caller.limit("interactionMode") == "default" with input as {"caller": testing.outside_read_only}
}

test_modes_thread_lookup_unavailable_claims_no_escalation if {
	c := json.remove(testing.with_thread(testing.thread_a1, {"lookup": "unavailable"}), ["thread/runtimeMode", "thread/interactionMode"])
	d := authz.decision with input as launch(c, {"runtimeMode": "full-access"})
	testing.codes(d) == ["unavailable"]
	d2 := authz.decision with input as testing.call_as(c, "t3_project_update", {"projectId": "p"})
	testing.codes(d2) == ["unavailable"]
}

test_modes_thread_not_found_has_no_limits if {
	c := testing.with_thread(testing.thread_a1, {"lookup": "not_found"})
	not caller.limit("runtimeMode") with input as {"caller": c}
}

test_modes_mode_limit_malformed_denies if {
	caller := object.union(testing.outside_full, {"modeLimit": {"runtimeMode": "everything"}})
	d := authz.decision with input as launch(caller, {})
	d.allow == false
}

test_modes_field_absent_thread_modes_denies if {
	d := authz.decision with input as launch(json.remove(testing.thread_a1, ["thread/runtimeMode", "thread/interactionMode"]), {"runtimeMode": "auto"})
	d.allow == false
	"runtime_mode_escalation_denied" in testing.codes(d)
}

test_modes_field_absent_one_axis_denies if {
	d := authz.decision with input as launch(json.remove(testing.thread_a1, ["thread/interactionMode"]), {"interactionMode": "plan"})
	testing.codes(d) == ["interaction_mode_escalation_denied"]
}

test_modes_field_absent_ceiling_denies if {
	d := authz.decision with input as launch(json.remove(testing.outside_full, ["ceiling"]), {"runtimeMode": "approval-required"})
	d.allow == false
}

test_modes_parent_absent_denies if {
	d := authz.decision with input as json.remove(launch(testing.thread_a1, {}), ["caller"])
	d.allow == false
	not modes.ok with input as {"tool": "t3_thread_launch", "arguments": {}}
}

# Mutation survivors (scripts/policy-mutation.py). Made-up rows: one mode field, two target fields, and a
# launch into a named thread (requested and target escalation on one axis).
made_up_rows := {
	"one_axis": {
		"toolkit": "thread", "class": "start_threads", "capability": null,
		"threadFields": [], "modeFields": {"runtimeMode": "runtimeMode"}, "paths": {},
	},
	"two_targets": {
		"toolkit": "thread", "class": "write_threads", "capability": null,
		"threadFields": ["from", "to"], "modeFields": {}, "paths": {},
	},
	"launch_into": {
		"toolkit": "thread", "class": "start_threads", "capability": null,
		"threadFields": ["threadId"], "modeFields": {"runtimeMode": "runtimeMode"}, "paths": {},
	},
	"launch_into_both": {
		"toolkit": "thread", "class": "start_threads", "capability": null,
		"threadFields": ["threadId"], "modeFields": {"runtimeMode": "runtimeMode", "interactionMode": "interactionMode"},
		"paths": {},
	},
}

test_modes_target_found_must_be_literally_true if {
	every found in ["FOUND", 1, null, true] {
		d := authz.decision with input as send(testing.thread_a1, {"lookup": found, "runtimeMode": "approval-required", "interactionMode": "plan"})
		testing.codes(d) == ["thread_not_found"]
	}
}

# Only a read-only ceiling takes orchestration away: the target check adds nothing to that denial.
test_modes_resolved_targets_not_reported_when_denied_otherwise if {
	read_only := testing.outside("r2", "read-only", testing.all_settings)
	d := authz.decision with input as send(read_only, {"lookup": "found", "runtimeMode": "approval-required", "interactionMode": "plan"})
	testing.codes(d) == ["read_only_client", "capability_missing"]
}

test_modes_one_mode_field_is_an_obligation if {
	d := authz.decision with input as testing.call_as(testing.thread_a2_supervised, "one_axis", {})
		with data.gatehouse.access_table as made_up_rows
	testing.without_quota(d) == {"modes": {"runtimeMode": "approval-required"}}
}

test_modes_every_unresolved_target_is_named if {
	d := authz.decision with input as testing.call("two_targets", {"from": "x1", "to": "x2"})
		with data.gatehouse.access_table as made_up_rows
	d.reasons == [{"code": "thread_not_found", "message": "target thread could not be found: from, to"}]
}

test_modes_every_escalation_on_an_axis_is_named if {
	i := object.union(
		testing.call_as(testing.thread_a2_supervised, "launch_into", {"threadId": "t9", "runtimeMode": "auto"}),
		{"targets": {"threads": {"t9": {"lookup": "found", "runtimeMode": "full-access", "interactionMode": "plan"}}}},
	)
	d := authz.decision with input as i with data.gatehouse.access_table as made_up_rows
	d.reasons == [{"code": "runtime_mode_escalation_denied", "message": "requested runtimeMode is above the caller's limit; target thread in threadId runs with its runtimeMode above the caller's limit"}]
}

test_modes_every_escalation_on_the_interaction_axis_is_named if {
	i := object.union(
		testing.call_as(testing.thread_a2_supervised, "launch_into_both", {"threadId": "t9", "interactionMode": "default"}),
		{"targets": {"threads": {"t9": {"lookup": "found", "runtimeMode": "approval-required", "interactionMode": "default"}}}},
	)
	d := authz.decision with input as i with data.gatehouse.access_table as made_up_rows
	d.reasons == [{"code": "interaction_mode_escalation_denied", "message": "requested interactionMode is above the caller's limit; target thread in threadId runs with its interactionMode above the caller's limit"}]
}

# An omitted target is the caller's own thread only for a thread caller that has one.
test_modes_outside_agent_with_a_thread_id_fact_has_no_own_thread if {
	c := object.union(testing.outside_full, {"threadId": "t1"})
	d := authz.decision with input as testing.call_as(c, "t3_thread_interrupt", {})
	testing.codes(d) == ["thread_not_found"]
	d2 := authz.decision with input as testing.call_as(json.remove(testing.thread_a1, ["threadId"]), "t3_thread_interrupt", {})
	testing.codes(d2) == ["thread_not_found"]
}
