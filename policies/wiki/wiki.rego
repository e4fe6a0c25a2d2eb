# METADATA
# title: Wiki subtree confinement
# description: |
#   Every argument field listed in the row's `paths` holds a wiki path relative to the caller's subtree, which
#   this family chooses from the caller facts (docs/domain.md §1, §7): a thread's `agents/<logicalAgentId>`, an
#   outside agent's `outside-agents/<logicalAgentId>` (folders in policies/gatehouse/wiki/data.json `roots`),
#   or, for an outside agent whose registration says `sharesThreadAgent`, that thread agent's subtree instead;
#   an id that is not one valid segment leaves the caller without a subtree. Segments are separated by "/"
#   only; each uses letters and digits of any script, "-", "_", "." and inner spaces, does not start or end
#   with a space, does not end with ".", is not "." or "..", and is at most `limits.maxSegmentBytes` bytes of
#   UTF-8 (the number the wiki store can hold as a file name); at most `limits.maxSegments` segments; "."
#   alone is the subtree root. Nothing is decoded or normalised. Containment is decided segment by segment,
#   never by string prefix. An allowed call gets the subtree as the obligation `wikiRoot` and the resolved
#   full path of every field as `wikiPaths`, keyed by field.
package gatehouse.authz.wiki

import data.gatehouse.authz.tools

limits := data.gatehouse.wiki.limits

max_segments := limits.maxSegments

max_segment_bytes := limits.maxSegmentBytes

# UTF-8 length of `s` in bytes, exactly: base64 turns every 3 bytes into 4 characters and pads the last
# group with "=", so n = 3 * count / 4 - padding. (count() counts code points, and Wasm has no byte count.)
utf8_bytes(s) := ((count(encoded) / 4) * 3) - (count(encoded) - count(trim_right(encoded, "="))) if {
	encoded := base64.encode(s)
}

specs := tools.row.paths

applies if count(specs) > 0

# The path in `field` as given, or the field's default when the argument is omitted.
raw(field) := input.arguments[field] if specs[field]

raw(field) := specs[field].default if {
	not has_argument(field)
	is_string(specs[field].default)
}

has_argument(field) if _ = input.arguments[field]

# Each field's segments, split once per evaluation (functions are not memoised; rules are).
segments(field) := field_segments[field]

field_segments := {field: split(raw(field), "/") | some field, _ in specs; is_string(raw(field))}

# Segments below the subtree root: none for ".".
relative(field) := [] if raw(field) == "."

relative(field) := segments(field) if raw(field) != "."

# --- whose subtree: separate namespaces per caller kind (docs/domain.md §1, §7) ----------------------

roots := data.gatehouse.wiki.roots

# A registration may let an outside agent work in one thread agent's subtree; it says so explicitly
# (input.caller.sharesThreadAgent), and only an outside agent can be given another agent's subtree: the fact
# is ignored for a thread.
shares if {
	input.caller.kind == "outside_agent"
	_ = input.caller.sharesThreadAgent
}

# The caller's subtree as segments: the shared thread agent's, or <folder of its kind>/<logicalAgentId>. The id
# must be one valid segment, else the caller has no subtree (an unknown kind has no folder).
root_segments := [roots.thread, input.caller.sharesThreadAgent] if {
	shares
	valid_id(input.caller.sharesThreadAgent)
}

root_segments := [roots[input.caller.kind], input.caller.logicalAgentId] if {
	not shares
	valid_id(input.caller.logicalAgentId)
}

valid_id(id) if {
	is_string(id)
	count(segment_problems(id)) == 0
}

# The subtree, returned as the obligation `wikiRoot`: the handler works in it and nowhere else.
root := concat("/", root_segments)

# Named so that `not` sees an absent path as false: `not is_string(raw)` never fires when raw is undefined.
path_given(field) if is_string(raw(field))

# --- path rules: [field, problem] pairs ------------------------------------------------------------

path_problems contains [field, "a path is required"] if {
	some field, _ in specs
	not path_given(field)
	not has_argument(field)
}

# Sent, but not a string (a number, null, an array): the path was given, so it is not "required".
path_problems contains [field, "a path must be a string"] if {
	some field, _ in specs
	not path_given(field)
	has_argument(field)
	not tools.argument_omitted(field)
}

# A path longer than its schema admits is not sent (null in its place).
path_problems contains [field, "the path is longer than any path the schema admits, so it was not read"] if {
	some field, _ in specs
	tools.argument_omitted(field)
}

path_problems contains [field, concat("", ["a path may have at most ", format_int(max_segments, 10), " segments"])] if {
	some field, _ in specs
	count(relative(field)) > max_segments
}

# A page lives below the subtree root: "." names the root folder, which no page tool may read, write or delete.
path_problems contains [field, "a page path must name a page below the subtree root, not \".\""] if {
	some field, spec in specs
	spec.names == "page"
	raw(field) == "."
}

path_problems contains [field, problem] if {
	some field, _ in specs
	count(relative(field)) <= max_segments
	some segment in relative(field)
	some problem in segment_problems(segment)
}

segment_problems(segment) := {problem |
	some rule, problem in segment_rules
	not passes(rule, segment)
}

segment_rules := {
	"nonempty": "no segment may be empty (no leading, trailing or doubled \"/\")",
	"charset": "a segment may use only letters, digits, \"-\", \"_\", \".\" and inner spaces (U+0020)",
	"spaces": "no segment may start or end with a space",
	"dot": "no segment may end with \".\" or be \".\" or \"..\"",
	"length": concat("", ["a segment may have at most ", format_int(max_segment_bytes, 10), " bytes of UTF-8"]),
}

passes("nonempty", segment) if segment != ""

# An ASCII name (ascii_name below) needs no facts.
passes("charset", segment) if ascii_name(segment)

# Any other name is checked against the Unicode general categories of its characters, a fact the PEP sends
# for every segment of a confined path (input.unicode: segment -> categories of its characters other than
# "-", "_", "." and space). No regex: its cost would grow with the script a name is written in. A segment
# without the fact fails.
passes("charset", segment) if {
	not ascii_name(segment)
	categories := input.unicode[segment]
	is_array(categories)
	every category in categories {
		name_categories[category]
	}
}

passes("spaces", segment) if {
	not startswith(segment, " ")
	not endswith(segment, " ")
}

passes("dot", segment) if {
	not endswith(segment, ".")
	segment != "."
	segment != ".."
}

# ASCII names have one byte per character: only other names pay for the base64 count.
passes("length", segment) if {
	ascii_name(segment)
	count(segment) <= max_segment_bytes
}

passes("length", segment) if {
	not ascii_name(segment)
	utf8_bytes(segment) <= max_segment_bytes
}

# Letters of any script and decimal digits (Unicode general categories L* and Nd).
name_categories := {"Lu", "Ll", "Lt", "Lm", "Lo", "Nd"}

ascii_name_characters := "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_. -"

# Plain ASCII: trimming every allowed ASCII character leaves nothing. Every segment the rules check is tried once
# per evaluation (functions are not memoised, and each segment is checked by several rules).
ascii_name(segment) if ascii_names[segment]

ascii_name(segment) if {
	not checked_segments[segment]
	trim(segment, ascii_name_characters) == ""
}

# Complete rules, so each set is built once and a lookup is a lookup in every engine (a partial set's body would be
# evaluated again per lookup in Go OPA).
ascii_names := {segment |
	some segment in checked_segments
	trim(segment, ascii_name_characters) == ""
}

checked_segments := path_segments | caller_ids

path_segments := {segment |
	some field, _ in specs
	some segment in segments(field)
}

# The ids a subtree root is built from (root_segments), each a single segment.
caller_ids := {id | id := input.caller.logicalAgentId} | {id | id := input.caller.sharesThreadAgent}

has_problems(field) if {
	some pair in path_problems
	pair[0] == field
}

valid(field) if {
	path_given(field)
	not has_problems(field)
}

# A segment that descends into a folder: not empty, ".", or "..".
names_folder(s) if {
	s != ""
	s != "."
	s != ".."
}

# --- containment -----------------------------------------------------------------------------------

# `root` contains `target` when target starts with every segment of root, compared whole.
within(root, target) if {
	count(root) > 0
	count(target) >= count(root)
	array.slice(target, 0, count(root)) == root
}

# Lexical escape check, independent of the segment rules: walking the raw segments from the root,
# ".." must never climb above it. Bounded by max_segments so the quadratic walk stays small.
escapes(field) if {
	count(segments(field)) <= max_segments
	some i, s in segments(field)
	s == ".." # only a ".." lowers the depth, so the walk first goes below the root at one
	depth(field, i) < 0
}

depth(field, i) := count([j | some j, s in segments(field); j <= i; names_folder(s)]) - count([j |
	some j, s in segments(field)
	j <= i
	s == ".."
])

resolved(field) := array.concat(root_segments, relative(field)) if valid(field)

# Inside the subtree, by the segment rules and by the independent escape walk.
confined(field) if {
	within(root_segments, resolved(field))
	not escapes(field)
}

# --- result ----------------------------------------------------------------------------------------

ok if not applies

ok if {
	applies
	every field, _ in specs {
		confined(field)
	}
}

default obligations := {}

obligations := {
	"wikiPaths": {field: concat("/", resolved(field)) | some field, _ in specs; confined(field)},
	"wikiRoot": root,
} if {
	applies
}

# METADATA
# title: path_invalid
# description: A wiki path breaks a path rule, or the caller has no valid wiki subtree.
# custom:
#   code: path_invalid
denials["path_invalid"] := concat("; ", sort(problems)) if {
	applies
	problems := {concat(": ", pair) | some pair in path_problems} | {"the caller has no wiki subtree" | not root_segments}
	count(problems) > 0
}

# METADATA
# title: path_escape
# description: A wiki path resolves outside the caller's subtree.
# custom:
#   code: path_escape
denials["path_escape"] := concat("; ", sort({concat("", [field, ": the path leaves the caller's subtree"]) |
	some field, _ in specs
	escapes(field)
})) if {
	applies
	some field, _ in specs
	escapes(field)
}
