# METADATA
# description: |
#   Shared fixtures for the policy unit tests: decision inputs made of facts, as the PIP sends them
#   (schemas/decision-input.json). a1 and a2 are thread agents, o1 and r1 outside agents.
package gatehouse.testing

all_settings := {"browserAccess": true, "project": {"enabled": true, "bound": true}, "wiki": {"read": true, "write": true}}

no_settings := {"browserAccess": false, "project": {"enabled": false, "bound": false}, "wiki": {"read": false, "write": false}}

# A thread caller that owns a live run: found, not archived, active run, same provider instance as its session.
live_thread(agent, thread_id, runtime, interaction) := {
	"kind": "thread",
	"logicalAgentId": agent,
	"threadId": thread_id,
	"session": {"providerInstanceId": "pi-1"},
	"thread": {
		"lookup": "found",
		"archived": false,
		"activeRun": true,
		"providerInstanceId": "pi-1",
		"runtimeMode": runtime,
		"interactionMode": interaction,
	},
	"settings": all_settings,
}

thread_a1 := live_thread("a1", "t1", "full-access", "default")

thread_a2_supervised := live_thread("a2", "t2", "approval-required", "plan")

outside(agent, ceiling, settings) := {
	"kind": "outside_agent",
	"logicalAgentId": agent,
	"ceiling": ceiling,
	"settings": settings,
}

outside_full := outside("o1", "full-access", all_settings)

outside_read_only := outside("r1", "read-only", {"browserAccess": false, "project": {"enabled": true, "bound": true}, "wiki": {"read": true, "write": false}})

# `caller` with the calling thread's shell replaced by `thread` (merged member by member).
with_thread(caller, thread) := object.union(caller, {"thread": object.union(caller.thread, thread)})

# A complete decision input for `tool` called by a1 with `args`.
call(tool, args) := call_as(thread_a1, tool, args)

# The same input with `caller` instead of a1 (built whole: object.union would merge the callers).
call_as(caller, tool, args) := {
	"tool": tool,
	"arguments": args,
	"argumentErrors": [],
	"argumentKeys": argument_keys(args),
	"caller": caller,
	"targets": {"threads": {}},
}

# The argument keys the PEP reports, folded as it folds them (gateway ArgumentKeys.fold); test keys are ASCII, where
# the fold is lower case with l and 1 read as i, 0 as o and rn written m (the separators are left for the policy).
argument_keys(args) := [{"path": pointer(array.concat(path, [key])), "key": key, "folded": ascii_fold(key)} |
	walk(args, [path, value])
	is_object(value)
	some key, _ in value
]

ascii_fold(key) := strings.replace_n({"l": "i", "1": "i", "0": "o", "rn": "m"}, lower(key))

# A JSON Pointer (RFC 6901) to the value at `path`.
pointer(path) := concat("", [concat("", ["/", strings.replace_n({"~": "~0", "/": "~1"}, sprintf("%v", [p]))]) | some p in path])

# `input_` with argumentKeys reporting `key` folded as `folded` (for keys ascii_fold does not fold).
folded_as(input_, key, folded) := object.union(input_, {"argumentKeys": [refolded |
	some entry in input_.argumentKeys
	refolded := object.union(entry, {"folded": folded_if(entry, key, folded)})
]})

folded_if(entry, key, folded) := folded if entry.key == key

folded_if(entry, key, _) := entry.folded if entry.key != key

# The reason codes of a decision, in order.
codes(decision) := [r.code | some r in decision.reasons]

# The obligations other than the quota every allowed call carries (policy-tests/quotas checks that one).
without_quota(decision) := json.remove(decision.obligations, ["quota"])
