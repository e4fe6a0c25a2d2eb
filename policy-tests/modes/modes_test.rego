package gatehouse.modes_test

import data.gatehouse.authz
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

test_modes_unknown_requested_mode_denied if {
	d := authz.decision with input as launch(testing.thread_a1, {"runtimeMode": "root"})
	testing.codes(d) == ["runtime_mode_escalation_denied"]
}

test_modes_delegate_task_gets_the_ceiling_check_too if {
	d := authz.decision with input as testing.call_as(testing.thread_a2_supervised, "delegate_task", {"task": "t", "runtimeMode": "auto"})
	testing.codes(d) == ["runtime_mode_escalation_denied"]
}

test_modes_send_to_thread_above_caller_denied if {
	d := authz.decision with input as send(testing.thread_a2_supervised, {"found": true, "runtimeMode": "auto", "interactionMode": "plan"})
	testing.codes(d) == ["runtime_mode_escalation_denied"]
}

test_modes_send_to_thread_within_allowed if {
	d := authz.decision with input as send(testing.thread_a2_supervised, {"found": true, "runtimeMode": "approval-required", "interactionMode": "plan"})
	d.allow
}

test_modes_target_lookup_failed_denied if {
	d := authz.decision with input as send(testing.thread_a1, {"found": false})
	testing.codes(d) == ["thread_not_found"]
}

test_modes_target_found_without_modes_denied if {
	d := authz.decision with input as send(testing.thread_a1, {"found": true})
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
	caller := object.union(testing.outside_read_only, {"readOnly": false, "modeLimit": {"runtimeMode": "full-access", "interactionMode": "default"}})
	modes.limit("runtimeMode") == "approval-required" with input as {"caller": caller}
}

test_modes_mode_limit_malformed_denies if {
	caller := object.union(testing.outside_full, {"modeLimit": {"runtimeMode": "everything"}})
	d := authz.decision with input as launch(caller, {})
	d.allow == false
}

test_modes_field_absent_limits_denies if {
	d := authz.decision with input as launch(json.remove(testing.thread_a1, ["limits"]), {})
	d.allow == false
	"runtime_mode_escalation_denied" in testing.codes(d)
}

test_modes_field_absent_one_axis_denies if {
	d := authz.decision with input as launch(json.remove(testing.thread_a1, ["limits/interactionMode"]), {})
	testing.codes(d) == ["interaction_mode_escalation_denied"]
}

test_modes_parent_absent_denies if {
	d := authz.decision with input as json.remove(launch(testing.thread_a1, {}), ["caller"])
	d.allow == false
	not modes.ok with input as {"tool": "t3_thread_launch", "arguments": {}}
}
