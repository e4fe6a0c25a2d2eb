# METADATA
# title: Capability scopes
# description: |
#   A row's capability must be held by the caller, matched by exact equality (no prefixes, no
#   hierarchy). The scopes a caller holds are derived in the caller family from the agent's settings
#   on this call (docs/domain.md §4). Scopes are independent: each row names one, and nothing else is
#   consulted. Some scopes can never be held by a caller kind whatever its settings say (outside agents
#   never hold `preview`; policies/gatehouse/capabilities/data.json). A scope that acts on the agent's
#   Project Service project (`project_binding_required` in the same data) also needs the agent's settings to
#   bind one (the fact `settings.project.bound`), else `project_not_bound`.
package gatehouse.authz.capabilities

import data.gatehouse.authz.caller
import data.gatehouse.authz.tools

ok(row) if row.capability == null

ok(row) if {
	is_string(row.capability)
	caller.held[row.capability]
	not never_held(row.capability)
	bound_where_needed(row.capability)
}

never_held(capability) if capability in data.gatehouse.capabilities.never_held[caller.kind]

# --- the Project Service binding -------------------------------------------------------------------

# A scope needs the binding when the data lists it (looked up, like every set held as an object).
needs_binding(capability) if data.gatehouse.capabilities.project_binding_required[capability]

project_bound if input.caller.settings.project.bound == true

bound_where_needed(capability) if not needs_binding(capability)

bound_where_needed(_) if project_bound

called_never_held if never_held(tools.row.capability)

# METADATA
# title: capability_denied
# description: The tool's capability can never be held by this kind of caller.
# custom:
#   code: capability_denied
denials["capability_denied"] := concat("", ["this kind of caller never holds ", tools.row.capability]) if {
	called_never_held
}

# METADATA
# title: capability_missing
# description: The caller's settings do not grant the tool's capability.
# custom:
#   code: capability_missing
denials["capability_missing"] := concat("", ["the caller does not hold ", tools.row.capability]) if {
	is_string(tools.row.capability)
	not caller.held[tools.row.capability]
	not called_never_held
}

# METADATA
# title: project_not_bound
# description: The tool acts on the agent's Project Service project, and the agent's settings bind none.
# custom:
#   code: project_not_bound
denials["project_not_bound"] := "no Project Service project is bound to this agent" if {
	needs_binding(tools.row.capability)
	not project_bound
}
