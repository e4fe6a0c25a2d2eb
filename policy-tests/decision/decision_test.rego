package gatehouse.decision_test

import data.gatehouse.authz
import data.gatehouse.testing

test_decision_allowed_call_has_allow_true_no_reasons_and_obligations if {
	d := authz.decision with input as testing.call("wiki_read", {"path": "page.md"})
	d == {"allow": true, "reasons": [], "obligations": {
		"wikiPaths": {"path": "agents/a1/page.md"}, "wikiRoot": "agents/a1",
		"quota": {"bucket": "thread/read/a1", "class": "read", "ratePerMinute": 1200, "burst": 120},
	}}
}

test_decision_denied_call_has_reasons_and_no_obligations if {
	d := authz.decision with input as testing.call_as(testing.outside_read_only, "wiki_write", {"path": "p.md", "content": "x"})
	d.allow == false
	testing.codes(d) == ["read_only_client", "capability_missing"]
	d.obligations == {}
}

test_decision_empty_input_denies if {
	d := authz.decision with input as {}
	d.allow == false
	count(d.reasons) > 0
}

test_decision_caller_absent_denies if {
	d := authz.decision with input as json.remove(testing.call("wiki_read", {"path": "page.md"}), ["caller"])
	d.allow == false
}

test_decision_tool_absent_denies if {
	d := authz.decision with input as json.remove(testing.call("wiki_read", {"path": "page.md"}), ["tool"])
	testing.codes(d) == ["unknown_tool"]
}

test_decision_reasons_follow_the_code_order if {
	d := authz.decision with input as testing.call_as(
		testing.outside_read_only, "t3_thread_launch",
		{"projectId": "p", "prompt": "p", "runtimeMode": "full-access", "agentId": "a2"},
	)
	testing.codes(d) == [
		"identity_argument", "read_only_client",
		"runtime_mode_escalation_denied", "capability_missing",
	]
}

test_decision_modes_and_path_obligations_only_when_allowed if {
	d := authz.decision with input as testing.call("t3_thread_launch", {"projectId": "p", "prompt": "go"})
	testing.without_quota(d) == {"modes": {"runtimeMode": "full-access", "interactionMode": "default"}}
}

test_visible_tools_thread_full_sees_every_tool if {
	v := authz.visible_tools with input as {"caller": testing.thread_a1}
	count(v) == count(data.gatehouse.access_table)
}

test_visible_tools_read_only_sees_reads_it_holds_scopes_for if {
	v := authz.visible_tools with input as {"caller": testing.outside_read_only}
	v == {
		"project_operation_get", "project_work_get", "project_work_list", "t3_project_list", "t3_thread_list",
		"t3_thread_read", "wiki_list", "wiki_read", "wiki_search",
	}
}

test_visible_tools_caller_absent_is_empty if {
	v := authz.visible_tools with input as {}
	v == set()
}

test_visible_tools_ignores_arguments if {
	v1 := authz.visible_tools with input as {"caller": testing.thread_a2_supervised}
	v2 := authz.visible_tools with input as {"caller": testing.thread_a2_supervised, "tool": "x", "arguments": {"agentId": "a1"}}
	v1 == v2
	not "t3_project_update" in v1
	"t3_thread_launch" in v1
}

# Visibility is decided per class and per capability; a row's other fields never change it.
test_visible_tools_follow_class_and_capability_only if {
	table := {
		"a": {"toolkit": "wiki", "class": "read", "capability": "wiki.read", "threadFields": [], "modeFields": {}, "paths": {}},
		"b": {"toolkit": "thread", "class": "write_environment", "capability": "orchestration", "threadFields": ["x"], "modeFields": {}, "paths": {}},
		"c": {"toolkit": "wiki", "class": "read", "capability": "preview", "threadFields": [], "modeFields": {}, "paths": {}},
		"d": {"toolkit": "wiki", "class": "read", "capability": null, "threadFields": [], "modeFields": {}, "paths": {}},
	}
	authz.visible_tools == {"a", "b", "c", "d"} with input as {"caller": testing.thread_a1}
		with data.gatehouse.access_table as table
	authz.visible_tools == {"a", "d"} with input as {"caller": testing.outside_read_only}
		with data.gatehouse.access_table as table
	authz.visible_tools == {"a", "d"} with input as {"caller": testing.thread_a2_supervised}
		with data.gatehouse.access_table as object.remove(table, ["c"])
}

test_enforcement_document_is_the_data_the_pep_reads if {
	schemas := {"wiki_read": {"type": "object"}}
	reasons := {"schema": {"family": "arguments", "retryable": false}}
	ceilings := sort([c | some c, _ in data.gatehouse.modes.ceilings])
	modes := {"runtimeMode": ["approval-required", "auto", "auto-accept-edits", "full-access"], "interactionMode": ["default", "plan"]}
	authz.enforcement == {"accessTable": data.gatehouse.access_table, "toolSchemas": schemas, "reasons": reasons, "ceilings": ceilings, "modes": modes} with data.gatehouse.tool_schemas as schemas
		with data.gatehouse.reasons as reasons
}

test_held_capabilities_document_is_sorted_and_derived if {
	authz.held_capabilities == ["orchestration", "preview", "project.work.read", "project.work.write", "wiki.read", "wiki.write"] with input as {"caller": testing.thread_a1}
	authz.held_capabilities == ["project.work.read", "project.work.write", "wiki.read"] with input as {"caller": testing.outside_read_only}
	authz.held_capabilities == ["orchestration", "project.work.read", "project.work.write", "wiki.read", "wiki.write"] with input as {"caller": testing.outside_full}
	authz.held_capabilities == [] with input as {}
}

# A caller the policy cannot judge sees no tool at all, whatever its settings and class rules would give.
test_visible_tools_unknown_ceiling_or_mode_limit_is_empty if {
	authz.visible_tools == set() with input as {"caller": object.union(testing.outside_full, {"ceiling": "root"})}
	authz.visible_tools == set() with input as {"caller": json.remove(testing.outside_full, ["ceiling"])}
	limit := {"runtimeMode": "auto", "interactionMode": "planning"}
	authz.visible_tools == set() with input as {"caller": object.union(testing.outside_full, {"modeLimit": limit})}
	authz.visible_tools == set() with input as {"caller": object.union(testing.thread_a1, {"modeLimit": limit})}
}

test_visible_tools_project_tools_need_a_binding if {
	caller := json.patch(testing.thread_a1, [{"op": "replace", "path": "/settings/project/bound", "value": false}])
	v := authz.visible_tools with input as {"caller": caller}
	v == {name | some name, row in data.gatehouse.access_table; row.toolkit != "project"}
}
