# METADATA
# title: Gatehouse authorization decision
# description: |
#   The two entry points the PEP calls. `decision` answers one tools/call; `visible_tools` answers
#   tools/list with the names the caller may call, in one evaluation. Each family below owns its own
#   rules and reason codes; this package only joins them. Deny by default: `allow` is true only when
#   every family positively says so (docs/domain.md §3-§7). Facts about the caller are
#   derived once, in the caller family.
package gatehouse.authz

import data.gatehouse.authz.access
import data.gatehouse.authz.arguments
import data.gatehouse.authz.caller
import data.gatehouse.authz.capabilities
import data.gatehouse.authz.delivery
import data.gatehouse.authz.modes
import data.gatehouse.authz.quotas
import data.gatehouse.authz.tools
import data.gatehouse.authz.wiki

# METADATA
# title: decision
# description: '{allow, reasons: [{code, message}], obligations} for one tools/call (schemas/decision.json).'
# entrypoint: true
decision := {
	"allow": allow,
	"reasons": reasons,
	"obligations": obligations,
}

# METADATA
# title: visible_tools
# description: |
#   The names of the tools whose caller-level rules pass (class, class minimum modes, capability), as a set (no
#   order). Those rules read only a row's class and capability, so they are evaluated once per class and once
#   per distinct capability, and each row costs two lookups: linear in the size of the access table.
# entrypoint: true
visible_tools contains name if {
	some name, row in data.gatehouse.access_table
	visible_classes[row.class]
	visible_capabilities[row.capability]
}

visible_classes contains class if {
	some class, _ in data.gatehouse.access_classes
	access.ok({"class": class})
	modes.caller_reaches({"class": class})
}

visible_capabilities contains capability if {
	some capability in {row.capability | some row in data.gatehouse.access_table}
	capabilities.ok({"capability": capability})
}

# METADATA
# title: enforcement
# description: |
#   What the PEP reads from this revision to enforce it, read once when the revision is activated (docs/design.md,
#   "One served revision"): the access table, every tool's input schema, the reason catalogue generated from the
#   rules' METADATA (those two are staged into the bundle by scripts/bundle-source.py), the ceilings an outside
#   agent's token may name, for operators choosing one, and the modes of each axis, for operators writing a
#   delivery profile.
# entrypoint: true
enforcement := {
	"accessTable": data.gatehouse.access_table,
	"toolSchemas": data.gatehouse.tool_schemas,
	"reasons": data.gatehouse.reasons,
	"ceilings": sort([ceiling | some ceiling, _ in data.gatehouse.modes.ceilings]),
	"modes": {axis: sort([mode | some mode, _ in data.gatehouse.modes.rank[axis]]) | some axis in data.gatehouse.modes.axes},
}

# METADATA
# title: held_capabilities
# description: The sorted capability scopes the caller of the input holds, derived from its facts by the caller
#   family, for the admin read API (GET /admin/agents/{id}/capabilities). A scope its kind never holds is left
#   out whatever the settings grant, so the answer is what a call needing the scope is decided on.
# entrypoint: true
held_capabilities := sort([scope | some scope in caller.held; not capabilities.never_held(scope)])

default allow := false

allow if {
	tools.ok
	count(caller.unknown) == 0
	arguments.ok
	access.ok(tools.row)
	modes.ok
	capabilities.ok(tools.row)
	wiki.ok
}

# One reason per code, in the order of data.gatehouse.reason_codes, so every engine returns the same list.
# Collected only for a denial: an allowed call needs none, and collecting them costs most of its evaluation.
default reasons := []

reasons := [{"code": code, "message": message} |
	some code in data.gatehouse.reason_codes
	message := denial(code)
] if {
	not allow
}

# Each family's denials, evaluated once; looked up by code above. Two families naming one code with different
# messages is a conflict, an evaluation error, so a denial (codes are unique per family by design).
denial(code) := family_denials[_][code]

family_denials := [
	tools.denials,
	caller.denials,
	arguments.denials,
	access.denials,
	modes.denials,
	capabilities.denials,
	wiki.denials,
]

default obligations := {}

# Every allowed call is charged to the quota the policy names (docs/domain.md §10); denials carry none.
obligations := object.union(object.union(modes.obligations, wiki.obligations), quotas.obligations) if allow

# METADATA
# title: notice
# description: |
#   '{allow, reasons, obligations}' for one Project Work notice (docs/domain.md §9): may it be delivered,
#   into the mapped thread or (with the `modes` obligation) into a new one. Decided by the delivery family.
# entrypoint: true
notice := {
	"allow": delivery.allow,
	"reasons": delivery.reasons,
	"obligations": delivery.obligations,
}
