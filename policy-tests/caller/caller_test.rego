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
