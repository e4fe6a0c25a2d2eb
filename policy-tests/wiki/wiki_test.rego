package gatehouse.wiki_test

import data.gatehouse.authz
import data.gatehouse.authz.wiki
import data.gatehouse.testing

read(path) := d if {
	d := authz.decision with input as testing.call("wiki_read", {"path": path})
}

# cases/public-failures.md row 1: containment compares whole segments, never string prefixes.
test_wiki_within_compares_segments if {
	not wiki.within(["agents", "a1"], ["agents", "a10", "page.md"])
	not wiki.within(["agents", "a1"], ["agents", "a1-old", "page.md"])
	wiki.within(["agents", "a1"], ["agents", "a1", "page.md"])
	wiki.within(["agents", "a1"], ["agents", "a1"])
	not wiki.within(["agents", "a1"], ["agents"])
	not wiki.within([], ["agents"])
}

test_wiki_sibling_prefix_escape if {
	d := read("../a10/page.md")
	testing.codes(d) == ["path_invalid", "path_escape"]
}

test_wiki_resolved_path_is_the_obligation if {
	read("notes/plan.md").obligations == {"wikiPath": "agents/a1/notes/plan.md"}
	d := authz.decision with input as testing.call("wiki_list", {"path": "."})
	d.obligations == {"wikiPath": "agents/a1"}
}

test_wiki_page_tools_never_name_the_root if {
	every tool in ["wiki_read", "wiki_write", "wiki_delete"] {
		d := authz.decision with input as testing.call(tool, {"path": ".", "content": "x", "baseRevision": "r1"})
		d.reasons == [{"code": "path_invalid", "message": "a page path names a page below the subtree root, not \".\""}]
	}
}

test_wiki_default_path_is_root if {
	d := authz.decision with input as testing.call("wiki_list", {})
	d.obligations.wikiPath == "agents/a1"
}

# rows 3, 4, 7: every other shape is path_invalid; nothing is decoded.
test_wiki_rejected_shapes if {
	every path in [
		"", "/etc/passwd", "file:///x", "C:/x", "//host/x", "~/x", "%2e%2e/x", "sub\\..\\..\\x",
		"page.md\u0000x", "\uff0e\uff0e/x", "a/./b", "a//b", "page.md.", " a", "a ", "a:b", "tab\there",
	] {
		"path_invalid" in testing.codes(read(path))
	}
}

test_wiki_accepted_shapes if {
	every path in ["page.md", "Été/日本.md", "a b/c-d_e.f", "v1.2/x", "\u0661.md"] {
		read(path).allow
	}
}

test_wiki_segment_limits if {
	testing.codes(read(concat("/", [s | some _ in numbers.range(1, 33); s := "d"]))) == ["path_invalid"]
	read(concat("/", [s | some _ in numbers.range(1, 32); s := "d"])).allow
	testing.codes(read(concat("", [s | some _ in numbers.range(1, 257); s := "p"]))) == ["path_invalid"]
	read(concat("", [s | some _ in numbers.range(1, 256); s := "p"])).allow
}

test_wiki_field_absent_path_denied if {
	d := authz.decision with input as testing.call("wiki_read", {})
	d.reasons == [{"code": "path_invalid", "message": "a path is required"}]
}

test_wiki_field_absent_path_null_denied if {
	d := authz.decision with input as testing.call("wiki_write", {"path": null, "content": "x"})
	testing.codes(d) == ["path_invalid"]
}

test_wiki_field_absent_root_denied if {
	d := authz.decision with input as json.remove(testing.call("wiki_read", {"path": "page.md"}), ["wiki/root"])
	d.reasons == [{"code": "path_invalid", "message": "the caller has no wiki subtree"}]
}

test_wiki_parent_absent_wiki_denied if {
	d := authz.decision with input as json.remove(testing.call("wiki_read", {"path": "page.md"}), ["wiki"])
	testing.codes(d) == ["path_invalid"]
}

test_wiki_parent_absent_arguments_denied if {
	not wiki.ok with input as json.remove(testing.call("wiki_read", {}), ["arguments"])
}

test_wiki_invalid_root_denied if {
	d := authz.decision with input as object.union(testing.call("wiki_read", {"path": "x"}), {"wiki": {"root": "agents/../a2"}})
	testing.codes(d) == ["path_invalid"]
}

test_wiki_not_applied_to_other_tools if {
	wiki.ok with input as testing.call("t3_thread_list", {"path": "../.."})
}

# Mutation survivors (scripts/policy-mutation.py).
test_wiki_folder_tools_use_the_path_argument if {
	d1 := authz.decision with input as testing.call("wiki_list", {"path": "notes"})
	d1.obligations == {"wikiPath": "agents/a1/notes"}
	d2 := authz.decision with input as testing.call("wiki_search", {"path": "notes", "query": "q"})
	d2.obligations == {"wikiPath": "agents/a1/notes"}
}

test_wiki_segment_rules_apply_up_to_the_limit if {
	testing.codes(read(concat("/", array.concat([s | some _ in numbers.range(1, 31); s := "d"], ["a:b"])))) == ["path_invalid"]

	# past the limit only the count is reported: the segment walk is bounded
	over := concat("/", array.concat([s | some _ in numbers.range(1, 32); s := "d"], ["a:b"]))
	read(over).reasons == [{"code": "path_invalid", "message": "a path has at most 32 segments"}]
}

test_wiki_escape_walk_is_bounded_by_the_segment_limit if {
	testing.codes(read(concat("/", [s | some _ in numbers.range(1, 32); s := ".."]))) == ["path_invalid", "path_escape"]
	testing.codes(read(concat("/", [s | some _ in numbers.range(1, 33); s := ".."]))) == ["path_invalid"]
}

test_wiki_escape_walk_counts_only_named_segments if {
	every path in ["/../x", "./../x", "a//../../x"] {
		testing.codes(read(path)) == ["path_invalid", "path_escape"]
	}
	testing.codes(read("a/b/../../c")) == ["path_invalid"]
}

test_wiki_single_segment_root if {
	d := authz.decision with input as object.union(testing.call("wiki_read", {"path": "p.md"}), {"wiki": {"root": "solo"}})
	d.obligations == {"wikiPath": "solo/p.md"}
}

# Defence in depth: with the "dot" segment rule switched off, the escape walk alone still denies "..".
test_wiki_escape_denied_even_without_the_dot_rule if {
	rules := object.remove(wiki.segment_rules, ["dot"])
	d := authz.decision with input as testing.call("wiki_read", {"path": "../a2/p.md"}) with wiki.segment_rules as rules
	d.allow == false
	testing.codes(d) == ["path_escape"]
}
