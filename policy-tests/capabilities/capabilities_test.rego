package gatehouse.capabilities_test

import data.gatehouse.authz
import data.gatehouse.authz.caller
import data.gatehouse.authz.capabilities
import data.gatehouse.testing

with_settings(settings) := object.union(testing.thread_a1, {"settings": settings})

setting(path, value) := json.patch(testing.all_settings, [{"op": "replace", "path": path, "value": value}])

test_capabilities_held_follow_settings if {
	caller.held == {"preview", "project.work.read", "project.work.write", "wiki.read", "wiki.write", "orchestration"} with input as {"caller": testing.thread_a1}
	caller.held == {"orchestration"} with input as {"caller": with_settings(testing.no_settings)}
	caller.held == {"project.work.read", "project.work.write", "wiki.read"} with input as {"caller": testing.outside_read_only}
}

# A setting grants its scope only when it is exactly true.
test_capabilities_setting_must_be_true if {
	every value in ["true", 1, null, {}] {
		not "wiki.write" in caller.held with input as {"caller": with_settings(setting("/wiki/write", value))}
	}
}

# Scope names match exactly: a made-up row asking for a near-miss name is never satisfied.
test_capabilities_exact_match_only if {
	every near in ["wiki", "wiki.write-legacy", "WIKI.WRITE", "wiki.write ", "wiki.*"] {
		row := object.union(data.gatehouse.access_table.wiki_write, {"capability": near})
		d := authz.decision with input as testing.call("made_up", {"path": "p.md", "content": "x"})
			with data.gatehouse.access_table as {"made_up": row}
		testing.codes(d) == ["capability_missing"]
	}
}

test_capabilities_preview_off_leaves_project_and_wiki if {
	c := with_settings(setting("/browserAccess", false))
	d1 := authz.decision with input as testing.call_as(c, "preview_open", {"url": "http://x"})
	testing.codes(d1) == ["capability_missing"]
	d2 := authz.decision with input as testing.call_as(c, "wiki_read", {"path": "p.md"})
	d2.allow
	d3 := authz.decision with input as testing.call_as(c, "project_work_list", {})
	d3.allow
}

test_capabilities_wiki_off_leaves_preview if {
	c := with_settings(setting("/wiki/read", false))
	d1 := authz.decision with input as testing.call_as(c, "wiki_read", {"path": "p.md"})
	testing.codes(d1) == ["capability_missing"]
	d2 := authz.decision with input as testing.call_as(c, "preview_status", {})
	d2.allow
}

test_capabilities_outside_agent_never_holds_preview if {
	d := authz.decision with input as testing.call_as(testing.outside_full, "preview_status", {})
	testing.codes(d) == ["thread_credential_required", "capability_denied"]
}

# Without the never-held rule, preview would pass for an outside agent whose settings grant it.
test_capabilities_never_held_overrides_settings if {
	"preview" in caller.held with input as {"caller": testing.outside_full}
	not capabilities.ok(data.gatehouse.access_table.preview_status) with input as {"caller": testing.outside_full}
	row := object.union(data.gatehouse.access_table.wiki_read, {"capability": "preview"})
	d := authz.decision with input as testing.call_as(testing.outside_full, "made_up", {"path": "p.md"})
		with data.gatehouse.access_table as {"made_up": row}
	testing.codes(d) == ["capability_denied"]
}

test_capabilities_orchestration_only_for_writers if {
	"orchestration" in caller.held with input as {"caller": testing.outside_full}
	not "orchestration" in caller.held with input as {"caller": testing.outside_read_only}
	not "orchestration" in caller.held with input as {"caller": json.remove(testing.outside_full, ["ceiling"])}
}

test_capabilities_tool_without_capability_needs_none if {
	capabilities.ok(data.gatehouse.access_table.t3_thread_list) with input as {"caller": with_settings(testing.no_settings)}
}

test_capabilities_field_absent_denies if {
	not capabilities.ok(data.gatehouse.access_table.wiki_read) with input as {"caller": json.remove(testing.thread_a1, ["settings"])}
	not capabilities.ok(data.gatehouse.access_table.wiki_read) with input as {"caller": json.remove(testing.thread_a1, ["settings/wiki/read"])}
	not capabilities.ok(data.gatehouse.access_table.wiki_read) with input as {"caller": json.remove(testing.thread_a1, ["settings/wiki"])}
}

test_capabilities_parent_absent_denies if {
	not capabilities.ok(data.gatehouse.access_table.wiki_read) with input as {}
}

# Mutation survivors (scripts/policy-mutation.py): a never-held scope stays unheld even when the settings
# grant it, on a made-up read row that no class rule denies first; only string scopes match.
never_held_table := {"peek": {
	"toolkit": "thread", "class": "read", "capability": "preview",
	"threadFields": [], "modeFields": {}, "paths": {},
}}

test_capabilities_never_held_even_when_granted if {
	caller := testing.outside_full
	d := authz.decision with input as testing.call_as(caller, "peek", {})
		with data.gatehouse.access_table as never_held_table
	d.allow == false
	testing.codes(d) == ["capability_denied"]
	v := authz.visible_tools with input as {"caller": caller}
		with data.gatehouse.access_table as never_held_table
	v == set()
}

test_capabilities_only_string_scopes_match if {
	not capabilities.ok({"capability": ["preview"]}) with input as {"caller": testing.thread_a1}
}

# --- the Project Service binding: a fact, judged here for the scopes the data names ---------------------

unbound(c) := json.patch(c, [{"op": "replace", "path": "/settings/project/bound", "value": false}])

project_calls := {
	"project_work_list": {},
	"project_work_get": {"runId": "r1"},
	"project_work_submit": {"runId": "r1", "runRevision": "run:1", "assignmentRevision": "position:1", "result": {}},
	"project_operation_get": {"operationId": "op1"},
}

test_capabilities_project_tools_need_a_binding if {
	every tool, args in project_calls {
		d := authz.decision with input as testing.call_as(unbound(testing.thread_a1), tool, args)
		d.reasons == [{"code": "project_not_bound", "message": "no Project Service project is bound to this agent"}]
		authz.decision.allow with input as testing.call(tool, args)
	}
}

# Which scopes need a binding is policy data (project_binding_required), not a list of tools.
test_capabilities_binding_follows_the_data if {
	every scope, _ in data.gatehouse.capabilities.project_binding_required {
		capabilities.needs_binding(scope)
	}
	not capabilities.needs_binding("wiki.read")
	not capabilities.needs_binding(null)
	d := authz.decision with input as testing.call_as(unbound(testing.thread_a1), "wiki_read", {"path": "p.md"})
		with data.gatehouse.capabilities.project_binding_required as {"wiki.read": true}
	testing.codes(d) == ["project_not_bound"]
	p := authz.decision with input as testing.call_as(unbound(testing.thread_a1), "project_work_list", {})
		with data.gatehouse.capabilities.project_binding_required as {"wiki.read": true}
	p.allow
	n := authz.decision with input as testing.call_as(unbound(testing.thread_a1), "project_work_list", {})
		with data.gatehouse.capabilities.project_binding_required as {"project.work.read": false}
	n.allow
}

test_capabilities_other_tools_need_no_binding if {
	every tool, args in {"wiki_read": {"path": "p.md"}, "t3_thread_list": {}, "delegate_task": {"task": "t"}} {
		authz.decision.allow with input as testing.call_as(unbound(testing.thread_a1), tool, args)
	}
}

# Without the scope and without the binding, both are said.
test_capabilities_project_off_and_unbound_says_both if {
	c := with_settings(setting("/project", {"enabled": false, "bound": false}))
	d := authz.decision with input as testing.call_as(c, "project_work_list", {})
	testing.codes(d) == ["capability_missing", "project_not_bound"]
}

test_capabilities_binding_must_be_true if {
	every value in ["true", 1, null, {}] {
		c := with_settings(setting("/project/bound", value))
		d := authz.decision with input as testing.call_as(c, "project_work_list", {})
		testing.codes(d) == ["project_not_bound"]
	}
}

test_capabilities_field_absent_bound_is_not_bound if {
	c := json.remove(testing.thread_a1, ["settings/project/bound"])
	d := authz.decision with input as testing.call_as(c, "project_work_list", {})
	testing.codes(d) == ["project_not_bound"]
}

test_capabilities_parent_absent_project_is_not_bound if {
	c := json.remove(testing.thread_a1, ["settings/project"])
	d := authz.decision with input as testing.call_as(c, "project_work_list", {})
	testing.codes(d) == ["capability_missing", "project_not_bound"]
	not capabilities.project_bound with input as {}
}
