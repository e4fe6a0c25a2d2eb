# METADATA
# title: Capability scopes
# description: |
#   A row's capability must be held by the caller, matched by exact equality (no prefixes, no
#   hierarchy). The scopes a caller holds are derived in the caller family from the agent's settings
#   on this call (docs/domain.md §4). Scopes are independent: each row names one, and nothing else is
#   consulted. Some scopes can never be held by a caller kind whatever its settings say (outside agents
#   never hold `preview`; policies/gatehouse/capabilities/data.json).
package gatehouse.authz.capabilities

import data.gatehouse.authz.caller
import data.gatehouse.authz.tools

ok(row) if row.capability == null

ok(row) if {
	is_string(row.capability)
	caller.held[row.capability]
	not never_held(row.capability)
}

never_held(capability) if capability in data.gatehouse.capabilities.never_held[caller.kind]

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
	not ok(tools.row)
	not called_never_held
}

called_never_held if never_held(tools.row.capability)
