# METADATA
# title: Caller facts
# description: |
#   What the other families know about the caller, derived here from the facts the PIP sends and never
#   taken as a verdict (docs/domain.md §1, §2, §4): whether a thread caller owns a live run, whether the
#   caller may change anything, its mode limits (narrowed by T3-Mode-Limit where
#   policies/gatehouse/modes/data.json says so) and the capability scopes it holds
#   (policies/gatehouse/capabilities/data.json). An absent fact never counts in the caller's favour.
#   The ceiling claim and the T3-Mode-Limit values arrive exactly as received (the PEP checks only their
#   syntax); a name that is not in policies/gatehouse/modes/data.json is judged here, with a reason of
#   its own, and such a caller may call nothing and sees no tool.
#   When a lookup failed because a service is down, the facts it would have given are unknown and the
#   call is denied as `unavailable` (retryable), not with a reason that blames the caller.
package gatehouse.authz.caller

import data.gatehouse.authz.tools

rank := data.gatehouse.modes.rank

# The caller kind, when it is one the policy knows.
kind := input.caller.kind if input.caller.kind in {"thread", "outside_agent"}

# A caller the policy can judge: a known kind; an outside agent with a ceiling of the data; a T3-Mode-Limit,
# when one was sent, that names a mode of each axis. Every caller-level rule (access.ok) needs it, so a caller
# that is not known calls nothing and lists no tool.
known if {
	kind
	not ceiling_unknown
	not mode_limit_unknown
}

# --- the outside agent's ceiling -------------------------------------------------------------------

ceilings := data.gatehouse.modes.ceilings

# An outside agent's ceiling claim names a ceiling of the data; absent, or any other value, it is unknown.
ceiling_known if is_object(ceilings[input.caller.ceiling])

ceiling_unknown if {
	kind == "outside_agent"
	not ceiling_known
}

# --- the T3-Mode-Limit header ----------------------------------------------------------------------

# The header was sent: the fact is present, whatever its value.
mode_limit_sent if _ = input.caller.modeLimit

# The axes whose value in the header is not a mode of that axis (absent or not a string included).
mode_limit_unknown_axes contains axis if {
	mode_limit_sent
	some axis in data.gatehouse.modes.axes
	not mode_limit_names_mode(axis)
}

mode_limit_names_mode(axis) if _ = rank[axis][input.caller.modeLimit[axis]]

mode_limit_unknown if count(mode_limit_unknown_axes) > 0

# --- the calling thread ----------------------------------------------------------------------------

thread_found if {
	kind == "thread"
	input.caller.thread.lookup == "found"
}

# The host could not report the calling thread: its liveness and modes are unknown.
thread_unavailable if {
	kind == "thread"
	input.caller.thread.lookup == "unavailable"
}

# A thread caller owns a live run: the thread exists, is not archived, has an active run, and runs on the
# provider instance the session was attached on.
live if {
	thread_found
	input.caller.thread.archived == false
	input.caller.thread.activeRun == true
	is_string(input.caller.session.providerInstanceId)
	input.caller.thread.providerInstanceId == input.caller.session.providerInstanceId
}

# --- may the caller change anything ----------------------------------------------------------------

# Every thread caller may; an outside agent only when approved above read-only.
writable if kind == "thread"

writable if {
	kind == "outside_agent"
	input.caller.ceiling in data.gatehouse.modes.writable_ceilings
}

# --- mode limits -----------------------------------------------------------------------------------

# The caller's own limit on `axis`: a thread's current mode, or the outside agent's approved ceiling.
base_limit(axis) := input.caller.thread[axis] if thread_found

base_limit(axis) := ceilings[input.caller.ceiling][axis] if kind == "outside_agent"

narrowed if {
	kind in data.gatehouse.modes.narrowed_by_mode_limit
	is_object(input.caller.modeLimit)
}

# The effective limit on `axis`; T3-Mode-Limit narrows it and never widens it.
limit(axis) := base_limit(axis) if not narrowed

limit(axis) := narrower(axis, base_limit(axis), input.caller.modeLimit[axis]) if narrowed

# The lower of two modes on `axis` (the delivery family caps a new thread's modes with it too); a mode that is
# not on the axis has no rank and yields nothing.
narrower(axis, a, b) := a if rank[axis][a] <= rank[axis][b]

narrower(axis, a, b) := b if rank[axis][b] < rank[axis][a]

# `mode` is a mode of `axis` at or below the caller's effective limit.
at_or_below(axis, mode) if rank[axis][mode] <= rank[axis][limit(axis)]

# --- capability scopes -----------------------------------------------------------------------------

# Scopes granted by the agent's settings: each setting named in the data must be exactly `true`.
held contains scope if {
	some scope, setting in data.gatehouse.capabilities.granted_by_setting
	object.get(input.caller.settings, setting, false) == true
}

held contains scope if {
	writable
	some scope in data.gatehouse.capabilities.granted_to_writers
}

# --- facts a failed lookup left unknown ------------------------------------------------------------

# The called row needs the calling thread's state: its liveness (class) or its modes (mode rules).
needs_thread_state(row) if data.gatehouse.access_classes[row.class].live != "never"

needs_thread_state(row) if count(row.modeFields) > 0

needs_thread_state(row) if count(row.threadFields) > 0

needs_thread_state(row) if count(data.gatehouse.access_classes[row.class].minimumLimits) > 0

unknown contains "the calling thread's state" if {
	thread_unavailable
	needs_thread_state(tools.row)
}

unknown contains concat("", ["the thread in ", field]) if {
	some field in tools.row.threadFields
	input.targets.threads[input.arguments[field]].lookup == "unavailable"
}

# METADATA
# title: unavailable
# description: A fact the call needs could not be looked up because a service failed; retry later.
# custom:
#   code: unavailable
#   retryable: true
denials["unavailable"] := concat("", ["a service did not answer, so this is unknown: ", concat(", ", sort(unknown))]) if {
	count(unknown) > 0
}

# METADATA
# title: caller_unknown
# description: The decision input names no known caller kind; the PEP always sends one, so deny.
# custom:
#   code: caller_unknown
denials["caller_unknown"] := "the decision input has no known caller" if {
	tools.ok
	not kind
}

# METADATA
# title: ceiling_unknown
# description: An outside agent's token carries no ceiling of policies/gatehouse/modes/data.json; such a caller
#   may call nothing and sees no tool.
# custom:
#   code: ceiling_unknown
denials["ceiling_unknown"] := "the token's approved ceiling is not one this policy knows" if {
	ceiling_unknown
}

# METADATA
# title: mode_limit_unknown
# description: The T3-Mode-Limit header names something that is not a mode of its axis (whoever sent it); the
#   request may call nothing and sees no tool.
# custom:
#   code: mode_limit_unknown
denials["mode_limit_unknown"] := concat("", [
	"T3-Mode-Limit names no known mode for ",
	concat(", ", sort(mode_limit_unknown_axes)),
]) if {
	mode_limit_unknown
}
