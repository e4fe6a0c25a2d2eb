package gatehouse.caller_test

import data.gatehouse.authz
import data.gatehouse.authz.caller
import data.gatehouse.testing

test_caller_kind_must_be_known if {
	caller.kind == "thread" with input as {"caller": testing.thread_a1}
	not caller.kind with input as {"caller": object.union(testing.thread_a1, {"kind": "admin"})}
	not caller.kind with input as {"caller": json.remove(testing.thread_a1, ["kind"])}
	not caller.kind with input as {}
}

test_caller_unknown_kind_denies_with_caller_unknown if {
	d := authz.decision with input as testing.call_as(json.remove(testing.thread_a1, ["kind"]), "t3_thread_list", {})
	"caller_unknown" in testing.codes(d)
	d.allow == false
}

test_caller_live_thread if {
	caller.live with input as {"caller": testing.thread_a1}
}

test_caller_outside_agent_is_never_live if {
	not caller.live with input as {"caller": object.union(testing.outside_full, {"thread": testing.thread_a1.thread, "session": testing.thread_a1.session})}
}

test_caller_parent_absent_is_nothing if {
	not caller.live with input as {}
	not caller.writable with input as {}
	count(caller.held) == 0 with input as {}
	not caller.limit("runtimeMode") with input as {}
}

test_caller_unavailable_only_where_the_row_needs_the_thread if {
	c := testing.with_thread(testing.thread_a1, {"lookup": "unavailable"})
	count(caller.unknown) == 0 with input as testing.call_as(c, "t3_thread_list", {})
	caller.unknown == {"the calling thread's state"} with input as testing.call_as(c, "t3_worktree_status", {})
		with data.gatehouse.access_classes.read_as_caller.live as "always"
	caller.unknown == {"the calling thread's state"} with input as testing.call_as(c, "t3_thread_launch", {"projectId": "p", "prompt": "p"})
}

test_caller_outside_agent_thread_facts_are_ignored if {
	c := object.union(testing.outside_full, {"thread": {"lookup": "unavailable"}})
	count(caller.unknown) == 0 with input as testing.call_as(c, "wiki_write", {"path": "p.md", "content": "x"})
}

test_caller_target_unavailable_is_unknown if {
	inp := object.union(testing.call("t3_thread_send", {"threadId": "t9", "message": "m"}), {"targets": {"threads": {"t9": {"lookup": "unavailable"}}}})
	caller.unknown == {"the thread in threadId"} with input as inp
}

# Mutation survivors: a provider instance that is JSON null on both sides is no match.
test_caller_null_instances_are_not_live if {
	c := json.patch(testing.thread_a1, [
		{"op": "replace", "path": "/thread/providerInstanceId", "value": null},
		{"op": "replace", "path": "/session/providerInstanceId", "value": null},
	])
	not caller.live with input as {"caller": c}
}

# Only a known kind may write: an unknown kind with a writable ceiling may not.
test_caller_unknown_kind_with_a_ceiling_is_not_writable if {
	not caller.writable with input as {"caller": object.union(testing.outside_full, {"kind": "admin"})}
}

# Every writable ceiling gives its own runtime limit and the default interaction limit.
test_caller_every_ceiling_has_its_limits if {
	every ceiling in ["approval-required", "auto-accept-edits", "auto", "full-access"] {
		c := testing.outside("o3", ceiling, testing.all_settings)
		caller.writable with input as {"caller": c}
		caller.limit("runtimeMode") == ceiling with input as {"caller": c}
		caller.limit("interactionMode") == "default" with input as {"caller": c}
	}
}

# A read row that names one thread or one mode still needs the calling thread's state (made-up rows).
test_caller_one_thread_or_mode_field_needs_the_thread if {
	c := testing.with_thread(testing.thread_a1, {"lookup": "unavailable"})
	rows := {
		"peek_thread": {"toolkit": "thread", "class": "read", "capability": null, "threadFields": ["threadId"], "modeFields": {}, "paths": {}},
		"peek_mode": {"toolkit": "thread", "class": "read", "capability": null, "threadFields": [], "modeFields": {"runtimeMode": "runtimeMode"}, "paths": {}},
		"peek_minimum": {"toolkit": "thread", "class": "read_minimum", "capability": null, "threadFields": [], "modeFields": {}, "paths": {}},
	}
	classes := object.union(data.gatehouse.access_classes, {"read_minimum": {"threadCaller": false, "writes": false, "live": "never", "minimumLimits": {"runtimeMode": "auto"}}})
	every tool in ["peek_thread", "peek_mode", "peek_minimum"] {
		caller.unknown == {"the calling thread's state"} with input as testing.call_as(c, tool, {})
			with data.gatehouse.access_table as rows
			with data.gatehouse.access_classes as classes
	}
}

# Only the fields a row names as threads are looked at: another argument naming an unavailable id is nothing.
test_caller_only_thread_fields_name_targets if {
	inp := object.union(testing.call("wiki_read", {"path": "t9"}), {"targets": {"threads": {"t9": {"lookup": "unavailable"}}}})
	count(caller.unknown) == 0 with input as inp
}

test_caller_every_unknown_fact_is_named if {
	rows := {"two": {"toolkit": "thread", "class": "write_threads", "capability": null, "threadFields": ["a", "b"], "modeFields": {}, "paths": {}}}
	inp := object.union(testing.call("two", {"a": "t8", "b": "t9"}), {"targets": {"threads": {"t8": {"lookup": "unavailable"}, "t9": {"lookup": "unavailable"}}}})
	d := authz.decision with input as inp with data.gatehouse.access_table as rows
	d.reasons == [{"code": "unavailable", "message": "a service did not answer, so this is unknown: the thread in a, the thread in b"}]
}

# --- the ceiling claim, judged here: the PEP sends it exactly as the token carries it ------------------

with_ceiling(ceiling) := object.union(testing.outside_full, {"ceiling": ceiling})

test_caller_every_ceiling_of_the_data_is_known if {
	every ceiling, _ in data.gatehouse.modes.ceilings {
		caller.known with input as {"caller": with_ceiling(ceiling)}
	}
}

test_caller_unknown_ceiling_denies_every_tool if {
	every value in ["root", "FULL-ACCESS", "full_access", "read-only ", "", "admin", 3, true, null, {"runtimeMode": "auto"}] {
		not caller.known with input as {"caller": with_ceiling(value)}
		every tool, args in valid_calls {
			d := authz.decision with input as testing.call_as(with_ceiling(value), tool, args)
			"ceiling_unknown" in testing.codes(d)
			d.allow == false
		}
	}
}

# The read tools an outside agent may call: there, the unknown ceiling is the only reason.
test_caller_unknown_ceiling_is_its_own_reason if {
	d := authz.decision with input as testing.call_as(with_ceiling("superuser"), "t3_thread_list", {})
	d.reasons == [{"code": "ceiling_unknown", "message": "the token's approved ceiling is not one this policy knows"}]
}

test_caller_field_absent_ceiling_is_unknown if {
	c := json.remove(testing.outside_full, ["ceiling"])
	d := authz.decision with input as testing.call_as(c, "t3_thread_list", {})
	testing.codes(d) == ["ceiling_unknown"]
}

test_caller_parent_absent_has_no_ceiling_reason if {
	d := authz.decision with input as json.remove(testing.call("t3_thread_list", {}), ["caller"])
	testing.codes(d) == ["caller_unknown"]
}

# A thread has no ceiling: a ceiling fact on a thread is not read, known or not.
test_caller_thread_ceiling_is_ignored if {
	c := object.union(testing.thread_a1, {"ceiling": "root"})
	caller.known with input as {"caller": c}
	d := authz.decision with input as testing.call_as(c, "t3_thread_list", {})
	d.allow
}

# Renaming a ceiling is a data change only: the new name is known, the old one is not.
test_caller_ceilings_are_policy_data if {
	ceilings := object.union(object.remove(data.gatehouse.modes.ceilings, ["full-access"]), {"everything": data.gatehouse.modes.ceilings["full-access"]})
	writable := ["approval-required", "auto-accept-edits", "auto", "everything"]
	d := authz.decision with input as testing.call_as(with_ceiling("everything"), "wiki_write", {"path": "p.md", "content": "x"})
		with data.gatehouse.modes.ceilings as ceilings
		with data.gatehouse.modes.writable_ceilings as writable
	d.allow
	old := authz.decision with input as testing.call_as(testing.outside_full, "wiki_write", {"path": "p.md", "content": "x"})
		with data.gatehouse.modes.ceilings as ceilings
		with data.gatehouse.modes.writable_ceilings as writable
	"ceiling_unknown" in testing.codes(old)
}

# One call of every tool with arguments its schema accepts.
valid_calls := {
	"t3_thread_list": {},
	"t3_worktree_status": {},
	"wiki_read": {"path": "p.md"},
	"wiki_write": {"path": "p.md", "content": "x"},
	"project_work_list": {},
	"t3_thread_launch": {"projectId": "p", "prompt": "p"},
	"t3_project_update": {"projectId": "p", "name": "n"},
}

# --- the T3-Mode-Limit header, judged here: the PEP sends the two names exactly as received ------------

with_limit(c, runtime, interaction) := object.union(c, {"modeLimit": {"runtimeMode": runtime, "interactionMode": interaction}})

test_caller_known_mode_limits if {
	every runtime, _ in data.gatehouse.modes.rank.runtimeMode {
		every interaction, _ in data.gatehouse.modes.rank.interactionMode {
			caller.known with input as {"caller": with_limit(testing.outside_full, runtime, interaction)}
		}
	}
}

# An unknown name is a bad request for any caller: the header narrows outside agents only, but a thread that
# sends one has asked for a limit nobody knows (docs/domain.md §1).
test_caller_unknown_mode_limit_denies_every_caller if {
	every c in [testing.outside_full, testing.thread_a1, testing.outside_read_only] {
		every limit in [["autox", "default"], ["auto", "planning"], ["plan", "auto"], ["inherit", "default"], ["Auto", "default"]] {
			lc := with_limit(c, limit[0], limit[1])
			not caller.known with input as {"caller": lc}
			d := authz.decision with input as testing.call_as(lc, "t3_thread_list", {})
			d.allow == false
			"mode_limit_unknown" in testing.codes(d)
		}
	}
}

test_caller_unknown_mode_limit_names_the_axes if {
	d := authz.decision with input as testing.call_as(with_limit(testing.thread_a1, "fast", "chat"), "t3_thread_list", {})
	d.reasons == [{"code": "mode_limit_unknown", "message": "T3-Mode-Limit names no known mode for interactionMode, runtimeMode"}]
	r := authz.decision with input as testing.call_as(with_limit(testing.thread_a1, "auto", "chat"), "t3_thread_list", {})
	r.reasons == [{"code": "mode_limit_unknown", "message": "T3-Mode-Limit names no known mode for interactionMode"}]
}

test_caller_field_absent_mode_limit_axis_is_unknown if {
	every axis in ["runtimeMode", "interactionMode"] {
		c := json.remove(with_limit(testing.outside_full, "auto", "default"), [concat("/", ["modeLimit", axis])])
		d := authz.decision with input as testing.call_as(c, "t3_thread_list", {})
		d.reasons == [{"code": "mode_limit_unknown", "message": concat("", ["T3-Mode-Limit names no known mode for ", axis])}]
	}
}

test_caller_mode_limit_of_the_wrong_shape_is_unknown if {
	every value in ["auto/default", null, [], {}, {"runtimeMode": 1, "interactionMode": "default"}] {
		c := object.union(testing.thread_a1, {"modeLimit": value})
		not caller.known with input as {"caller": c}
	}
}

test_caller_parent_absent_mode_limit_is_no_reason if {
	caller.known with input as {"caller": testing.outside_full}
	count(caller.mode_limit_unknown_axes) == 0 with input as {"caller": testing.outside_full}
	count(caller.mode_limit_unknown_axes) == 0 with input as {}
	not caller.known with input as {}
}
