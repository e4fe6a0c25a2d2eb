# METADATA
# title: Mode ceilings
# description: |
#   Two independent lattices, runtime and interaction (docs/domain.md §2; ranks in
#   policies/gatehouse/modes/data.json). A caller never gets, starts or changes a thread above its own
#   limits (docs/domain.md §3); the limits themselves come from the caller family:
#   - requested modes (rows with modeFields, whatever their class) must be at or below the caller's
#     limit; `inherit` or an omitted mode resolves to the caller's own, returned as the obligation
#     `modes`, keyed by the row's mode field;
#   - every thread named by a row's threadFields must run within the caller's limits; a target that
#     does not exist is denied; an omitted id is the caller's own thread;
#   - classes with minimumLimits (write_environment) need limits at least that high on each axis.
#   While the calling thread's state is unknown (host failed) no escalation is claimed: the caller
#   family denies with `unavailable`.
package gatehouse.authz.modes

import data.gatehouse.authz.caller
import data.gatehouse.authz.tools

axes := data.gatehouse.modes.axes

at_or_below(axis, mode) if caller.at_or_below(axis, mode)

# --- requested modes -------------------------------------------------------------------------------

# The mode a call asks for on `axis`, with `inherit` and omission resolved to the caller's limit.
requested(axis) := input.arguments[tools.row.modeFields[axis]] if not inherits(axis)

requested(axis) := caller.limit(axis) if inherits(axis)

inherits(axis) if not input.arguments[tools.row.modeFields[axis]]

inherits(axis) if input.arguments[tools.row.modeFields[axis]] == data.gatehouse.modes.inherit

requested_within if {
	every axis, _ in tools.row.modeFields {
		requested_within_axis(axis)
	}
}

is_mode(axis, mode) if _ = data.gatehouse.modes.rank[axis][mode]

# Named so that `not` also fires when the requested mode or the limit is undefined.
requested_within_axis(axis) if at_or_below(axis, requested(axis))

# --- target threads --------------------------------------------------------------------------------

targets_within if {
	every field in tools.row.threadFields {
		target_within(field)
	}
}

# An omitted id is the caller's own thread, which runs at the caller's modes by definition.
target_within(field) if {
	not input.arguments[field]
	caller_has_thread
}

target_within(field) if {
	found_target(field)
	every axis in axes {
		target_within_axis(field, axis)
	}
}

# Named so that `not` also fires when a found thread lacks a mode.
target_within_axis(field, axis) if at_or_below(axis, found_target(field)[axis])

caller_has_thread if {
	caller.kind == "thread"
	is_string(input.caller.threadId)
}

found_target(field) := thread if {
	thread := input.targets.threads[input.arguments[field]]
	thread.lookup == "found"
}

# A named thread that was not found, or not looked up at all; one whose lookup failed is `unavailable`. An id too
# long for its schema was not sent, so it names no thread to look for: the schema family reports it.
unresolved_targets contains field if {
	some field in tools.row.threadFields
	input.arguments[field]
	not found_target(field)
	not target_unavailable(field)
	not tools.argument_omitted(field)
}

unresolved_targets contains field if {
	some field in tools.row.threadFields
	not input.arguments[field]
	not caller_has_thread
}

target_unavailable(field) if input.targets.threads[input.arguments[field]].lookup == "unavailable"

# --- class minimum (write_environment) -------------------------------------------------------------

# Caller-level: the caller's limits reach the row's class minimum on every axis; also used for tools/list.
caller_reaches(row) if {
	class := data.gatehouse.access_classes[row.class]
	every axis, minimum in class.minimumLimits {
		at_or_below(axis, minimum)
	}
}

# --- escalations: [axis, problem] pairs ------------------------------------------------------------

# A requested value that is not a mode of the axis is the schema family's finding, not an escalation.
escalations contains [axis, concat("", ["requested ", axis, " is above the caller's limit"])] if {
	some axis, _ in tools.row.modeFields
	is_mode(axis, requested(axis))
	not requested_within_axis(axis)
}

escalations contains [axis, concat("", ["target thread in ", field, " runs with its ", axis, " above the caller's limit"])] if {
	some field in tools.row.threadFields
	found_target(field)
	some axis in axes
	not target_within_axis(field, axis)
}

escalations contains [axis, concat("", ["this tool needs the caller's ", axis, " limit to be at least ", minimum])] if {
	some axis, minimum in data.gatehouse.access_classes[tools.row.class].minimumLimits
	not at_or_below(axis, minimum)
}

# --- result ----------------------------------------------------------------------------------------

ok if {
	requested_within
	targets_within
	caller_reaches(tools.row)
}

default obligations := {}

# The modes the handler must use, keyed by the row's mode field: requested, or the caller's own where
# inherited or omitted.
obligations := {"modes": {field: requested(axis) | some axis, field in tools.row.modeFields}} if {
	count(tools.row.modeFields) > 0
}

# The escalations reported on one axis.
escalation_messages(axis) := {pair[1] | some pair in escalations; pair[0] == axis}

# METADATA
# title: thread_not_found
# description: A thread named by the call does not exist (or the caller has no thread of its own).
# custom:
#   code: thread_not_found
denials["thread_not_found"] := concat("", [
	"target thread could not be found: ",
	concat(", ", sort(unresolved_targets)),
]) if {
	count(unresolved_targets) > 0
}

# METADATA
# title: runtime_mode_escalation_denied
# description: The call asks for, or acts on a thread with, a runtime mode above the caller's limit. Not claimed
#   while the calling thread's state is unknown because the host failed.
# custom:
#   code: runtime_mode_escalation_denied
denials["runtime_mode_escalation_denied"] := concat("; ", sort(messages)) if {
	not caller.thread_unavailable
	messages := escalation_messages("runtimeMode")
	count(messages) > 0
}

# METADATA
# title: interaction_mode_escalation_denied
# description: The call asks for, or acts on a thread with, an interaction mode above the caller's limit. Not
#   claimed while the calling thread's state is unknown because the host failed.
# custom:
#   code: interaction_mode_escalation_denied
denials["interaction_mode_escalation_denied"] := concat("; ", sort(messages)) if {
	not caller.thread_unavailable
	messages := escalation_messages("interactionMode")
	count(messages) > 0
}
