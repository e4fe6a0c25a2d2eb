# METADATA
# title: Wiki subtree confinement
# description: |
#   A wiki path argument is relative to the caller's subtree (input.wiki.root, agents/<agentId>).
#   Segments are separated by "/" only; each uses letters and digits of any script, "-", "_", "."
#   and inner spaces, does not start or end with a space, does not end with ".", is not "." or "..",
#   and is at most 256 characters; at most 32 segments; "." alone is the subtree root. Nothing is
#   decoded or normalised. Containment is decided segment by segment, never by string prefix, and the
#   resolved full path is returned as the obligation `wikiPath` (DOMAIN.md §7).
package gatehouse.authz.wiki

import data.gatehouse.authz.tools

max_segments := 32

max_segment_chars := 256

spec := tools.row.wikiPath

applies if is_object(spec)

# The path as given, or the row's default when the argument is omitted.
raw := input.arguments[spec.field]

raw := spec.default if {
	not has_argument
	is_string(spec.default)
}

has_argument if _ = input.arguments[spec.field]

segments := split(raw, "/") if is_string(raw)

# Segments below the subtree root: none for ".".
relative := [] if raw == "."

relative := segments if raw != "."

root_segments := split(input.wiki.root, "/") if {
	is_string(input.wiki.root)
	every segment in split(input.wiki.root, "/") {
		count(segment_problems(segment)) == 0
	}
}

# --- path rules ------------------------------------------------------------------------------------

path_problems contains "a path is required" if not path_given

# Named so that `not` sees an absent path as false: `not is_string(raw)` never fires when raw is undefined.
path_given if is_string(raw)

path_problems contains concat("", ["a path has at most ", format_int(max_segments, 10), " segments"]) if {
	count(relative) > max_segments
}

# A page lives below the subtree root: "." names the root folder, which no page tool may read, write or delete.
path_problems contains "a page path names a page below the subtree root, not \".\"" if {
	spec.names == "page"
	raw == "."
}

path_problems contains problem if {
	count(relative) <= max_segments
	some segment in relative
	some problem in segment_problems(segment)
}

segment_problems(segment) := {problem |
	some rule, problem in segment_rules
	not passes(rule, segment)
}

segment_rules := {
	"nonempty": "segments are not empty (no leading, trailing or doubled \"/\")",
	"charset": "segments use only letters, digits, \"-\", \"_\", \".\" and inner spaces",
	"spaces": "segments do not start or end with a space",
	"dot": "segments do not end with \".\" and are not \".\" or \"..\" (use \".\" alone for the subtree root)",
	"length": concat("", ["segments have at most ", format_int(max_segment_chars, 10), " characters"]),
}

passes("nonempty", segment) if segment != ""

# ASCII names are checked without a regex: the Wasm engine compiles a regex on every evaluation, and the
# Unicode classes below cost milliseconds to compile, so only names with other characters pay for them.
passes("charset", segment) if trim(segment, ascii_name_characters) == ""

passes("charset", segment) if {
	trim(segment, ascii_name_characters) != ""
	regex.match(`^[\p{L}\p{Nd}_. -]*$`, segment)
}

ascii_name_characters := "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_. -"

passes("spaces", segment) if {
	not startswith(segment, " ")
	not endswith(segment, " ")
}

passes("dot", segment) if {
	not endswith(segment, ".")
	not segment in {".", ".."}
}

passes("length", segment) if count(segment) <= max_segment_chars

valid if {
	path_given
	count(path_problems) == 0
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
escapes if {
	count(segments) <= max_segments
	some i, _ in segments
	depth(i) < 0
}

depth(i) := count([j | some j, s in segments; j <= i; not s in {"", ".", ".."}]) - count([j |
	some j, s in segments
	j <= i
	s == ".."
])

resolved := array.concat(root_segments, relative) if valid

# --- result ----------------------------------------------------------------------------------------

ok if not applies

ok if {
	applies
	within(root_segments, resolved)
	not escapes
}

default obligations := {}

obligations := {"wikiPath": concat("/", resolved)} if {
	applies
	within(root_segments, resolved)
}

# METADATA
# title: path_invalid
# description: The wiki path breaks a path rule, or the caller has no valid wiki subtree.
# custom:
#   code: path_invalid
denials["path_invalid"] := concat("; ", sort(problems)) if {
	applies
	problems := path_problems | {"the caller has no wiki subtree" | not root_segments}
	count(problems) > 0
}

# METADATA
# title: path_escape
# description: The wiki path resolves outside the caller's subtree.
# custom:
#   code: path_escape
denials["path_escape"] := "the path leaves the caller's subtree" if {
	applies
	escapes
}
