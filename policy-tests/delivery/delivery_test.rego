package gatehouse.delivery_test

import data.gatehouse.authz

# An agent bound to this client and project, its mapped thread current: delivered into that thread.
base := {"notice": {
	"environment": {"projectClientId": "c-local"},
	"notice": {"noticeId": "n-1", "version": 1, "agentId": "a1", "projectId": "ps-1"},
	"agent": {
		"found": true,
		"projectClientId": "c-local",
		"project": {"enabled": true, "projectServiceProjectId": "ps-1"},
		"modes": {"runtimeMode": "full-access", "interactionMode": "plan"},
		"limit": {"runtimeMode": "auto", "interactionMode": "default"},
	},
	"thread": {"lookup": "found", "threadId": "t-1", "archived": false, "agentId": "a1", "workProjectId": "ps-1"},
}}

with_fact(path, value) := json.patch(base, [{"op": "add", "path": path, "value": value}])

without(path) := json.remove(base, [path])

codes(d) := [r.code | some r in d.reasons]

test_delivery_into_current_thread_without_obligation if {
	d := authz.notice with input as base
	d == {"allow": true, "reasons": [], "obligations": {}}
}

test_delivery_no_thread_creates_one_with_capped_modes if {
	d := authz.notice with input as with_fact("/notice/thread", {"lookup": "none"})
	d.allow == true
	d.obligations == {"modes": {"runtimeMode": "auto", "interactionMode": "plan"}}
}

test_delivery_thread_gone_or_archived_creates_one if {
	every thread in [
		{"lookup": "not_found"},
		{"lookup": "found", "archived": true, "agentId": "a1", "workProjectId": "ps-1"},
	] {
		d := authz.notice with input as with_fact("/notice/thread", thread)
		d.allow == true
		d.obligations.modes.runtimeMode == "auto"
	}
}

test_delivery_configured_modes_absent_take_the_limit if {
	i := json.patch(without("notice/agent/modes"), [{"op": "add", "path": "/notice/thread", "value": {"lookup": "none"}}])
	d := authz.notice with input as i
	d.obligations.modes == {"runtimeMode": "auto", "interactionMode": "default"}
}

test_delivery_narrower_configured_modes_are_kept if {
	i := json.patch(base, [
		{"op": "add", "path": "/notice/thread", "value": {"lookup": "none"}},
		{"op": "add", "path": "/notice/agent/modes", "value": {"runtimeMode": "approval-required", "interactionMode": "plan"}},
	])
	d := authz.notice with input as i
	d.obligations.modes == {"runtimeMode": "approval-required", "interactionMode": "plan"}
}

test_delivery_limit_absent_or_invalid_refused if {
	every i in [
		json.patch(without("notice/agent/limit"), [{"op": "add", "path": "/notice/thread", "value": {"lookup": "none"}}]),
		json.patch(base, [
			{"op": "add", "path": "/notice/thread", "value": {"lookup": "none"}},
			{"op": "add", "path": "/notice/agent/limit/runtimeMode", "value": "root"},
		]),
		json.patch(base, [
			{"op": "add", "path": "/notice/thread", "value": {"lookup": "none"}},
			{"op": "add", "path": "/notice/agent/modes/interactionMode", "value": "chaos"},
		]),
	] {
		d := authz.notice with input as i
		codes(d) == ["notice_modes_invalid"]
	}
}

test_delivery_other_client_refused if {
	d := authz.notice with input as with_fact("/notice/agent/projectClientId", "c-other")
	codes(d) == ["notice_client_not_bound"]
}

test_delivery_client_absent_refused if {
	every i in [without("notice/agent/projectClientId"), without("notice/environment/projectClientId"), without("notice/environment")] {
		d := authz.notice with input as i
		codes(d) == ["notice_client_not_bound"]
	}
}

test_delivery_other_project_refused if {
	every i in [
		with_fact("/notice/notice/projectId", "ps-2"),
		with_fact("/notice/agent/project/enabled", false),
		without("notice/agent/project/enabled"),
		without("notice/agent/project/projectServiceProjectId"),
		without("notice/agent/project"),
	] {
		d := authz.notice with input as i
		"notice_project_not_bound" in codes(d)
		d.allow == false
	}
}

test_delivery_unknown_agent_refused if {
	every i in [with_fact("/notice/agent", {"found": false}), without("notice/agent"), without("notice/agent/found")] {
		d := authz.notice with input as i
		codes(d) == ["notice_agent_unknown"]
	}
}

test_delivery_foreign_thread_refused if {
	every i in [with_fact("/notice/thread/agentId", "a2"), with_fact("/notice/thread/workProjectId", "ps-2"), without("notice/thread/agentId")] {
		d := authz.notice with input as i
		codes(d) == ["notice_thread_not_owned"]
	}
}

test_delivery_thread_unavailable_is_a_fault if {
	d := authz.notice with input as with_fact("/notice/thread", {"lookup": "unavailable"})
	codes(d) == ["unavailable"]
}

test_delivery_thread_facts_not_understood_deny if {
	every i in [without("notice/thread"), with_fact("/notice/thread/lookup", "maybe"), without("notice/thread/archived")] {
		d := authz.notice with input as i
		codes(d) == ["unavailable"]
	}
}

test_delivery_version_unsupported_refused if {
	every i in [with_fact("/notice/notice/version", 2), without("notice/notice/version")] {
		d := authz.notice with input as i
		codes(d) == ["notice_version_unsupported"]
	}
}

test_delivery_notice_absent_refused if {
	every i in [without("notice/notice"), without("notice"), {}] {
		d := authz.notice with input as i
		d.allow == false
		count(d.reasons) > 0
	}
}

# Names are display-only: they are not even facts, so a rename cannot change the decision.
test_delivery_names_do_not_decide if {
	i := with_fact("/notice/notice/agentName", "Renamed")
	d := authz.notice with input as i
	d.allow == true
}

# Only the literal JSON values count: a string "true" or "false" is not a boolean fact.
test_delivery_non_boolean_facts_deny if {
	every i in [
		with_fact("/notice/agent/found", "true"),
		with_fact("/notice/agent/project/enabled", "true"),
	] {
		d := authz.notice with input as i
		d.allow == false
	}
	every i in [with_fact("/notice/thread/archived", "no"), with_fact("/notice/thread/archived", "yes")] {
		d := authz.notice with input as i
		codes(d) == ["unavailable"]
	}
}

test_delivery_profile_facts_without_found_do_not_count if {
	d := authz.notice with input as with_fact("/notice/agent/found", false)
	d.reasons == [{"code": "notice_agent_unknown", "message": "the agent has no notice delivery profile here"}]
}

test_delivery_unknown_agent_is_the_only_reason if {
	i := json.patch(base, [
		{"op": "add", "path": "/notice/agent", "value": {"found": false}},
		{"op": "add", "path": "/notice/thread", "value": {"lookup": "maybe"}},
	])
	d := authz.notice with input as i
	codes(d) == ["notice_agent_unknown"]
}

test_delivery_not_understood_thread_message if {
	d := authz.notice with input as with_fact("/notice/thread/lookup", "maybe")
	d.reasons == [{"code": "unavailable", "message": "the thread facts are not understood; the notice stays pending"}]
}

test_delivery_archived_foreign_thread_refused_not_replaced if {
	i := json.patch(base, [
		{"op": "add", "path": "/notice/thread/archived", "value": true},
		{"op": "add", "path": "/notice/thread/agentId", "value": "a2"},
	])
	d := authz.notice with input as i
	codes(d) == ["notice_thread_not_owned"]
}

test_delivery_archived_owned_needs_a_found_lookup if {
	d := authz.notice with input as json.patch(base, [
		{"op": "add", "path": "/notice/thread/archived", "value": true},
		{"op": "add", "path": "/notice/thread/lookup", "value": "maybe"},
	])
	codes(d) == ["unavailable"]
}

test_delivery_limit_member_off_the_axes_gives_nothing if {
	i := json.patch(base, [
		{"op": "add", "path": "/notice/thread", "value": {"lookup": "none"}},
		{"op": "add", "path": "/notice/agent/limit", "value": {"runtimeMode": "auto", "colour": "auto"}},
	])
	d := authz.notice with input as i
	codes(d) == ["notice_modes_invalid"]
}
