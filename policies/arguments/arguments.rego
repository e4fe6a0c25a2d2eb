# METADATA
# title: Tool arguments
# description: |
#   Arguments must be an object that passed the tool's closed input schema (violations arrive as
#   facts in input.argumentErrors) and must carry no identity key at any depth (docs/domain.md §6).
#   Identity keys are policy data (policies/gatehouse/identity/data.json) and are matched by meaning and
#   by look: the PEP reports every argument key at any depth with its folded forms (input.argumentKeys:
#   NFKC, invisible characters and combining marks dropped, each character read through the UTS #39
#   confusable skeleton with case folding, only letters and digits kept, l read as i, rn as m; a key
#   that looks other than NFKC makes it mean is reported twice; Rego has no NFKC or confusables data),
#   and the policy removes the separators listed in the data (`ignored_separators`) from them and from
#   the key in lower case before comparing. A key present in the arguments but not reported is a
#   schema problem, so an incomplete report cannot hide a key. A requested mode must be a mode of its axis or `inherit` (the schema says so too; the policy
#   does not rely on it).
package gatehouse.authz.arguments

import data.gatehouse.authz.tools

ok if {
	arguments_object
	count(schema_problems) == 0
	count(identity_keys_found) == 0
}

# A compared string's meaning: the string without separators (policy data: an object of one-character
# separators, each mapped to ""). Most keys are `plain` (lower-case ASCII letters and digits, none of them a
# separator), found with one trim; any other string is searched for a separator character by character, and only
# one that holds a separator pays for removing them all (one pass per separator).
meaning(s) := s if {
	plain(s)
} else := strings.replace_n(separators, s) if {
	has_separator(s)
} else := s

# Made only of `plain_characters`: trimming them from both ends leaves nothing.
plain(s) if trim(s, plain_characters) == ""

# Lower-case ASCII letters and digits. A constant, so it costs nothing per evaluation; no separator in the data may
# be one of them (policy-tests/arguments checks that), or a key holding it would be taken for its own meaning.
plain_characters := "abcdefghijklmnopqrstuvwxyz0123456789"

has_separator(s) if {
	some character in split(s, "")
	separators[character] == ""
}

separators := data.gatehouse.identity.ignored_separators

# Every string whose meaning is compared with the identity keys (each reported folded form and each member name
# in lower case; most keys give the same string twice), with its meaning, derived once per evaluation.
meanings := {s: meaning(s) | some s in compared}

compared contains entry.folded if {
	some entry in input.argumentKeys
	is_string(entry.folded)
}

compared contains lower(key) if some key in argument_key_names

# The identity keys that apply to the called tool, held in the data in the PEP's folded form already (lower case, no
# separator; policy-tests/arguments checks that, and the gateway's tests that each is its own fold), so they are not
# re-derived on every evaluation.
identity_key(meaning) if every_tool_keys[meaning]

identity_key(meaning) if toolkit_keys[meaning]

every_tool_keys := data.gatehouse.identity.every_tool

toolkit_keys := data.gatehouse.identity.by_toolkit[tools.row.toolkit]

# Every member name of every object in the arguments, at any depth.
argument_key_names contains key if {
	walk(input.arguments, [_, value])
	is_object(value)
	some key, _ in value
}

# Identity keys present anywhere in the arguments, as the caller spelled them: by the folded form the
# PEP reported for the key ...
identity_keys_found contains entry.key if {
	some entry in input.argumentKeys
	is_string(entry.folded)
	identity_key(meanings[entry.folded])
}

# ... and, whatever was reported, by the key itself in lower case.
identity_keys_found contains key if {
	some key in argument_key_names
	identity_key(meanings[lower(key)])
}

# The reported keys, as one set built once (a complete rule: looking a key up in a partial set would evaluate its
# body again for every key in Go OPA, quadratic in the number of keys).
reported_keys := {entry.key |
	some entry in input.argumentKeys
	is_string(entry.folded)
}

# A key the PEP did not fold cannot be matched by meaning: deny it as unvalidated.
schema_problems contains "argument keys were not folded" if {
	some key in argument_key_names
	not reported_keys[key]
}

# Schema violations reported by the PEP, minus unknown-key violations already named as identity keys.
schema_problems contains problem.message if {
	some problem in input.argumentErrors
	not names_identity_key(problem)
}

# An absent error list is itself a problem: the PEP always sends one, so absence means it did not validate.
schema_problems contains "arguments were not validated" if not errors_listed

schema_problems contains "arguments must be an object" if not arguments_object

# Says which values the field takes, never the value sent.
schema_problems contains concat("", [field, " must be one of: ", concat(", ", axis_values(axis))]) if {
	some axis, field in tools.row.modeFields
	value := input.arguments[field]
	not mode_value(axis, value)
}

axis_values(axis) := array.concat(sort([mode | some mode, _ in data.gatehouse.modes.rank[axis]]), [data.gatehouse.modes.inherit])

mode_value(axis, value) if _ = data.gatehouse.modes.rank[axis][value]

mode_value(_, value) if value == data.gatehouse.modes.inherit

# Named so that `not` sees an undefined input as false: `not is_array(input.x)` never fires when x is absent.
errors_listed if is_array(input.argumentErrors)

arguments_object if is_object(input.arguments)

names_identity_key(problem) if {
	problem.keyword == "additionalProperties"
	problem.property in identity_keys_found
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
