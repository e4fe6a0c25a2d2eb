# METADATA
# description: Shared fixtures for the policy unit tests. Names follow cases/public-failures.md (a1, a2, r1).
package gatehouse.testing

all_capabilities := ["preview", "project.work.read", "project.work.write", "wiki.read", "wiki.write", "orchestration"]

thread_a1 := {
	"kind": "thread",
	"readOnly": false,
	"live": true,
	"limits": {"runtimeMode": "full-access", "interactionMode": "default"},
	"capabilities": all_capabilities,
	"logicalAgentId": "a1",
	"threadId": "t1",
}

thread_a2_supervised := {
	"kind": "thread",
	"readOnly": false,
	"live": true,
	"limits": {"runtimeMode": "approval-required", "interactionMode": "plan"},
	"capabilities": all_capabilities,
	"logicalAgentId": "a2",
	"threadId": "t2",
}

outside_full := {
	"kind": "outside_agent",
	"readOnly": false,
	"live": false,
	"limits": {"runtimeMode": "full-access", "interactionMode": "default"},
	"capabilities": ["project.work.read", "project.work.write", "wiki.read", "wiki.write", "orchestration"],
	"logicalAgentId": "o1",
}

outside_read_only := {
	"kind": "outside_agent",
	"readOnly": true,
	"live": false,
	"limits": {"runtimeMode": "approval-required", "interactionMode": "default"},
	"capabilities": ["project.work.read", "wiki.read"],
	"logicalAgentId": "r1",
}

# A complete decision input for `tool` called by a1 with `args`.
call(tool, args) := call_as(thread_a1, tool, args)

# The same input with `caller` instead of a1 (built whole: object.union would merge the callers).
call_as(caller, tool, args) := {
	"tool": tool,
	"arguments": args,
	"argumentErrors": [],
	"caller": caller,
	"targets": {"threads": {}},
	"wiki": {"root": concat("/", ["agents", object.get(caller, "logicalAgentId", "a1")])},
}

# The reason codes of a decision, in order.
codes(decision) := [r.code | some r in decision.reasons]
