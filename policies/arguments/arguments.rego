# METADATA
# title: Tool arguments
# description: |
#   Arguments must be an object that passed the tool's closed input schema (violations arrive as
#   facts in input.argumentErrors) and must carry no identity key at any depth (docs/domain.md §6).
#   Identity keys are policy data (policies/gatehouse/identity/data.json), compared without regard to
#   case. A requested mode must be a mode of its axis or `inherit` (the schema says so too; the policy
#   does not rely on it).
package gatehouse.authz.arguments

import data.gatehouse.authz.tools

ok if {
	arguments_object
	count(schema_problems) == 0
	count(identity_keys_found) == 0
}

# Lower-cased identity keys that apply to the called tool.
identity_keys := {key | some key in data.gatehouse.identity.every_tool} | {key |
	some key in data.gatehouse.identity.by_toolkit[tools.row.toolkit]
}

# Identity keys present anywhere in the arguments, as the caller spelled them.
identity_keys_found contains key if {
	walk(input.arguments, [_, value])
	is_object(value)
	some key, _ in value
	lower(key) in identity_keys
}

# Schema violations reported by the PEP, minus unknown-key violations already named as identity keys.
schema_problems contains problem.message if {
	some problem in input.argumentErrors
	not names_identity_key(problem)
}

# An absent error list is itself a problem: the PEP always sends one, so absence means it did not validate.
schema_problems contains "arguments were not validated" if not errors_listed

schema_problems contains "arguments must be an object" if not arguments_object

schema_problems contains concat("", [field, " is not a mode of ", axis]) if {
	some axis, field in tools.row.modeFields
	value := input.arguments[field]
	not mode_value(axis, value)
}

mode_value(axis, value) if _ = data.gatehouse.modes.rank[axis][value]

mode_value(_, value) if value == data.gatehouse.modes.inherit

# Named so that `not` sees an undefined input as false: `not is_array(input.x)` never fires when x is absent.
errors_listed if is_array(input.argumentErrors)

arguments_object if is_object(input.arguments)

names_identity_key(problem) if {
	problem.keyword == "additionalProperties"
	lower(problem.property) in identity_keys
}

# METADATA
# title: identity_argument
# description: An argument names an identity key; identity comes only from the trusted session.
# custom:
#   code: identity_argument
denials["identity_argument"] := concat("", [
	"identity comes from the session, not from arguments: ",
	concat(", ", sort(identity_keys_found)),
]) if {
	count(identity_keys_found) > 0
}

# METADATA
# title: schema
# description: The arguments do not satisfy the tool's closed input schema.
# custom:
#   code: schema
denials["schema"] := concat("; ", sort(schema_problems)) if {
	count(schema_problems) > 0
}
