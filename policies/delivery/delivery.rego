# METADATA
# title: Project Work notice delivery
# description: |
#   Whether a Project Work notice may be delivered, and where (docs/domain.md §9). The PEP sends facts: the
#   environment's Project client id, the notice's routing fields (never its display names), the agent's
#   delivery profile (the Project client it is bound to, its configured modes and its limit) with its Project
#   binding from the agent settings, and the shell of the thread mapped to agent + project as the host reports
#   it. A notice is delivered only when the agent is bound to this client and to the notice's project; into the
#   mapped thread when that thread is found, not archived and belongs to the same agent and project; otherwise
#   into a new thread, whose modes (the agent's configured modes capped by its limit, axis by axis) are the
#   `modes` obligation. A thread lookup that failed is `unavailable` (a fault: the notice stays pending).
package gatehouse.authz.delivery

import data.gatehouse.authz.caller

axes := data.gatehouse.modes.axes

facts := input.notice

# --- the notice and the agent ---------------------------------------------------------------------

version_ok if facts.notice.version in data.gatehouse.notice.versions

agent_known if facts.agent.found == true

client_bound if {
	agent_known
	is_string(facts.environment.projectClientId)
	facts.agent.projectClientId == facts.environment.projectClientId
}

project_bound if {
	agent_known
	facts.agent.project.enabled == true
	facts.agent.project.projectServiceProjectId == facts.notice.projectId
}

# --- the mapped thread ------------------------------------------------------------------------------

lookup := facts.thread.lookup

thread_unavailable if lookup == "unavailable"

# The mapped thread is the agent's current thread for this project: deliver into it.
thread_current if {
	lookup == "found"
	facts.thread.archived == false
	facts.thread.agentId == facts.notice.agentId
	facts.thread.workProjectId == facts.notice.projectId
}

# The mapped thread exists but runs as another agent or for another project.
thread_foreign if {
	lookup == "found"
	not thread_owned
}

thread_owned if {
	facts.thread.agentId == facts.notice.agentId
	facts.thread.workProjectId == facts.notice.projectId
}

# No current thread: none mapped, the mapped one is gone, or it is archived (owned, but no longer current).
needs_thread if lookup in {"none", "not_found"}

needs_thread if {
	lookup == "found"
	thread_owned
	facts.thread.archived == true
}

# --- the modes of a new thread ----------------------------------------------------------------------

# Axis by axis, the narrower of the configured mode and the limit; a configured mode left out is the limit. A
# member of the limit that is not an axis, or a mode that is not on its axis, has no rank and yields nothing.
capped[axis] := mode if {
	some axis, limit in facts.agent.limit
	mode := caller.narrower(axis, object.get(object.get(facts.agent, "modes", {}), axis, limit), limit)
}

modes_ok if count(capped) == count(axes)

# --- the decision -------------------------------------------------------------------------------------

default allow := false

allow if {
	version_ok
	client_bound
	project_bound
	thread_current
}

allow if {
	version_ok
	client_bound
	project_bound
	needs_thread
	modes_ok
}

default obligations := {}

obligations := {"modes": capped} if {
	allow
	needs_thread
}

# METADATA
# title: notice_version_unsupported
# description: The notice's version is not one this gateway reads.
# custom:
#   code: notice_version_unsupported
denials["notice_version_unsupported"] := "the notice version is not supported" if not version_ok

# METADATA
# title: notice_agent_unknown
# description: The notice names an agent without a delivery profile in this environment.
# custom:
#   code: notice_agent_unknown
denials["notice_agent_unknown"] := "the agent has no notice delivery profile here" if not agent_known

# METADATA
# title: notice_client_not_bound
# description: The agent is not bound to this environment's Project client.
# custom:
#   code: notice_client_not_bound
denials["notice_client_not_bound"] := "the agent is not bound to this Project client" if {
	agent_known
	not client_bound
}

# METADATA
# title: notice_project_not_bound
# description: The agent's Project integration is off or bound to another project than the notice's.
# custom:
#   code: notice_project_not_bound
denials["notice_project_not_bound"] := "the agent is not bound to the notice's project" if {
	agent_known
	not project_bound
}

# The code is documented with the caller family; here it means the host could not report the mapped thread.
denials["unavailable"] := "the host could not report the agent's thread; the notice stays pending" if {
	thread_unavailable
}

# METADATA
# title: notice_thread_not_owned
# description: The thread mapped to the notice's agent and project belongs to another agent or project.
# custom:
#   code: notice_thread_not_owned
denials["notice_thread_not_owned"] := "the mapped thread belongs to another agent or project" if thread_foreign

# METADATA
# title: notice_modes_invalid
# description: A new thread is needed but the agent's limit or configured modes are missing or not modes.
# custom:
#   code: notice_modes_invalid
denials["notice_modes_invalid"] := "the agent's configured modes or limit are not valid modes" if {
	needs_thread
	not modes_ok
}

# Anything else left the decision undecided (e.g. an unknown lookup outcome): deny, never deliver.
denials["unavailable"] := "the thread facts are not understood; the notice stays pending" if {
	not thread_unavailable
	not thread_current
	not thread_foreign
	not needs_thread
	agent_known
}

default reasons := []

reasons := [{"code": code, "message": denials[code]} |
	some code in data.gatehouse.reason_codes
	denials[code]
] if {
	not allow
}
