package gatehouse.capabilities_test

import data.gatehouse.authz
import data.gatehouse.authz.capabilities
import data.gatehouse.testing

with_caps(caps) := object.union(testing.thread_a1, {"capabilities": caps})

test_capabilities_exact_match_only if {
	every near in ["wiki", "wiki.write-legacy", "WIKI.WRITE", "wiki.write ", "wiki.*"] {
		d := authz.decision with input as testing.call_as(with_caps([near]), "wiki_write", {"path": "p.md", "content": "x"})
		testing.codes(d) == ["capability_missing"]
	}
}

test_capabilities_preview_off_leaves_project_and_wiki if {
	caller := with_caps(["project.work.read", "project.work.write", "wiki.read", "wiki.write", "orchestration"])
	d1 := authz.decision with input as testing.call_as(caller, "preview_open", {"url": "http://x"})
	testing.codes(d1) == ["capability_missing"]
	d2 := authz.decision with input as testing.call_as(caller, "wiki_read", {"path": "p.md"})
	d2.allow
	d3 := authz.decision with input as testing.call_as(caller, "project_work_list", {})
	d3.allow
}

test_capabilities_wiki_off_leaves_preview if {
	caller := with_caps(["preview", "project.work.read", "orchestration"])
	d1 := authz.decision with input as testing.call_as(caller, "wiki_read", {"path": "p.md"})
	testing.codes(d1) == ["capability_missing"]
	d2 := authz.decision with input as testing.call_as(caller, "preview_status", {})
	d2.allow
}

test_capabilities_outside_agent_never_holds_preview if {
	caller := object.union(testing.outside_full, {"capabilities": ["preview"]})
	d := authz.decision with input as testing.call_as(caller, "preview_status", {})
	testing.codes(d) == ["thread_credential_required", "capability_denied"]
}

test_capabilities_tool_without_capability_needs_none if {
	capabilities.ok(data.gatehouse.access_table.t3_thread_list) with input as {"caller": with_caps([])}
}

test_capabilities_field_absent_denies if {
	not capabilities.ok(data.gatehouse.access_table.wiki_read) with input as {"caller": json.remove(testing.thread_a1, ["capabilities"])}
}

test_capabilities_parent_absent_denies if {
	not capabilities.ok(data.gatehouse.access_table.wiki_read) with input as {}
}

# Mutation survivors (scripts/policy-mutation.py): a never-held scope stays unheld even when the settings
# grant it, on a made-up read row that no class rule denies first; only string scopes match.
never_held_table := {"peek": {
	"toolkit": "thread", "class": "read", "capability": "preview",
	"threadFields": [], "modeFields": {},
}}

test_capabilities_never_held_even_when_granted if {
	caller := object.union(testing.outside_full, {"capabilities": ["preview"]})
	d := authz.decision with input as testing.call_as(caller, "peek", {})
		with data.gatehouse.access_table as never_held_table
	d.allow == false
	testing.codes(d) == ["capability_denied"]
	v := authz.visible_tools with input as {"caller": caller}
		with data.gatehouse.access_table as never_held_table
	v == []
}

test_capabilities_only_string_scopes_match if {
	not capabilities.ok({"capability": ["preview"]}) with input as {"caller": with_caps([["preview"]])}
}
