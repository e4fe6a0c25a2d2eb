package gatehouse.wiki_test

import data.gatehouse.authz
import data.gatehouse.authz.wiki
import data.gatehouse.testing

read(path) := d if {
	d := authz.decision with input as testing.call("wiki_read", {"path": path})
}

# Containment compares whole segments, never string prefixes.
test_wiki_within_compares_segments if {
	not wiki.within(["agents", "a1"], ["agents", "a10", "page.md"])
	not wiki.within(["agents", "a1"], ["agents", "a1-old", "page.md"])
	wiki.within(["agents", "a1"], ["agents", "a1", "page.md"])
	wiki.within(["agents", "a1"], ["agents", "a1"])
	wiki.within(["x"], ["x", "page.md"])
	not wiki.within(["agents", "a1"], ["agents"])
	not wiki.within([], ["agents"])
}

test_wiki_sibling_prefix_escape if {
	d := read("../a10/page.md")
	testing.codes(d) == ["path_invalid", "path_escape"]
}

test_wiki_resolved_path_and_root_are_the_obligations if {
	testing.without_quota(read("notes/plan.md")) == {"wikiPaths": {"path": "agents/a1/notes/plan.md"}, "wikiRoot": "agents/a1"}
	d := authz.decision with input as testing.call("wiki_list", {"path": "."})
	testing.without_quota(d) == {"wikiPaths": {"path": "agents/a1"}, "wikiRoot": "agents/a1"}
}

test_wiki_page_tools_never_name_the_root if {
	every tool in ["wiki_read", "wiki_write", "wiki_delete"] {
		d := authz.decision with input as testing.call(tool, {"path": ".", "content": "x", "baseRevision": "r1"})
		d.reasons == [{"code": "path_invalid", "message": "path: a page path must name a page below the subtree root, not \".\""}]
	}
}

test_wiki_default_path_is_root if {
	d := authz.decision with input as testing.call("wiki_list", {})
	d.obligations.wikiPaths.path == "agents/a1"
}

# Every other shape is path_invalid; nothing is decoded.
test_wiki_rejected_shapes if {
	every path in [
		"", "/etc/passwd", "file:///x", "C:/x", "//host/x", "~/x", "%2e%2e/x", "sub\\..\\..\\x",
		"page.md\u0000x", "\uff0e\uff0e/x", "a/./b", "a//b", "page.md.", " a", "a ", "a:b", "tab\there",
	] {
		"path_invalid" in testing.codes(read(path))
	}
}

test_wiki_accepted_shapes if {
	every path in ["page.md", "a b/c-d_e.f", "v1.2/x"] {
		read(path).allow
	}
}

# Names in other scripts are judged by the Unicode categories the PEP reports for each segment.
read_with(path, unicode) := d if {
	d := authz.decision with input as object.union(testing.call("wiki_read", {"path": path}), {"unicode": unicode})
}

test_wiki_letters_and_digits_of_any_script if {
	read_with("Été/日本.md", {"Été": ["Ll", "Lu"], "日本.md": ["Ll", "Lo"]}).allow
	read_with("\u0661.md", {"\u0661.md": ["Ll", "Nd"]}).allow
	read_with("Привет/страница.md", {"Привет": ["Ll", "Lu"], "страница.md": ["Ll"]}).allow
}

test_wiki_other_categories_are_invalid if {
	every category in ["Po", "Pd", "Sm", "So", "Cf", "Cc", "Zs", "Mn", "Cs", "Co", "Cn", "Nl", "No"] {
		d := read_with("a\u2024b.md", {"a\u2024b.md": ["Ll", category]})
		testing.codes(d) == ["path_invalid"]
	}
}

test_wiki_field_absent_unicode_fact_denies if {
	testing.codes(read("Été/x.md")) == ["path_invalid"]
	testing.codes(read_with("Été/x.md", {"x.md": ["Ll"]})) == ["path_invalid"]
	testing.codes(read_with("Été/x.md", {"Été": "Ll"})) == ["path_invalid"]
}

# The ASCII rule needs no fact; ASCII punctuation inside a name is reported by its category like any other.
test_wiki_ascii_names_need_no_fact if {
	read_with("ab", {}).allow
	testing.codes(read_with("a:b", {"a:b": ["Ll", "Po"]})) == ["path_invalid"]
	testing.codes(read("a:b")) == ["path_invalid"]
}

repeat(s, n) := concat("", [s | some _ in numbers.range(1, n)])

# The limits are policy data (policies/gatehouse/wiki/data.json), read here rather than restated.
test_wiki_segment_limits if {
	n := data.gatehouse.wiki.limits.maxSegments
	testing.codes(read(concat("/", [s | some _ in numbers.range(1, n + 1); s := "d"]))) == ["path_invalid"]
	read(concat("/", [s | some _ in numbers.range(1, n); s := "d"])).allow
}

# A segment is limited in bytes of UTF-8, the unit the wiki store's file names are limited in.
test_wiki_segment_bytes_at_the_boundary if {
	data.gatehouse.wiki.limits.maxSegmentBytes == 251
	read(repeat("p", 251)).allow
	testing.codes(read(repeat("p", 252))) == ["path_invalid"]
	e125p := concat("", [repeat("é", 125), "p"])
	read_with(e125p, {e125p: ["Ll"]}).allow # 251 bytes
	testing.codes(read(repeat("é", 126))) == ["path_invalid"] # 252 bytes, 126 characters
	testing.codes(read(repeat("é", 255))) == ["path_invalid"]
	j83pp := concat("", [repeat("日", 83), "pp"])
	read_with(j83pp, {j83pp: ["Ll", "Lo"]}).allow # 251 bytes
	testing.codes(read(repeat("日", 84))) == ["path_invalid"] # 252 bytes
	testing.codes(read(concat("", [repeat("日", 83), "ppp"]))) == ["path_invalid"]
}

test_wiki_utf8_bytes_is_exact if {
	# "aaW" is "YWFX" in base64: only "=" is padding, never a trailing letter.
	every s, n in {"": 0, "a": 1, "ab": 2, "abc": 3, "aaW": 3, "é": 2, "日": 3, "𐐀": 4, "aé日𐐀": 10, "éé": 4} {
		wiki.utf8_bytes(s) == n
	}
}

# --- whose subtree: each caller kind owns its own folder, chosen here from the facts ---------------

read_as(caller) := d if {
	d := authz.decision with input as testing.call_as(caller, "wiki_read", {"path": "page.md"})
}

test_wiki_outside_agent_subtree_is_in_its_own_folder if {
	testing.without_quota(read_as(testing.outside_full)) == {"wikiPaths": {"path": "outside-agents/o1/page.md"}, "wikiRoot": "outside-agents/o1"}
}

# The folders are policy data: renaming one moves every subtree of that kind, with no other change.
test_wiki_root_folders_are_policy_data if {
	d := read_as(testing.outside_full) with data.gatehouse.wiki.roots as {"thread": "threads", "outside_agent": "guests"}
	d.obligations.wikiRoot == "guests/o1"
	t := read_as(testing.thread_a1) with data.gatehouse.wiki.roots as {"thread": "threads", "outside_agent": "guests"}
	t.obligations.wikiPaths.path == "threads/a1/page.md"
}

# Each folder is one plain segment, so a subtree is always exactly two segments.
test_wiki_root_folders_are_single_ascii_segments if {
	every _, folder in data.gatehouse.wiki.roots {
		wiki.ascii_name(folder)
		count(wiki.segment_problems(folder)) == 0
	}
	data.gatehouse.wiki.roots.thread != data.gatehouse.wiki.roots.outside_agent
}

test_wiki_thread_subtree_is_in_the_thread_folder if {
	read_as(testing.thread_a2_supervised).obligations.wikiRoot == "agents/a2"
}

sharing := object.union(testing.outside_full, {"sharesThreadAgent": "a1"})

test_wiki_registration_shares_a_thread_agents_subtree_explicitly if {
	d := read_as(sharing)
	testing.without_quota(d) == {"wikiPaths": {"path": "agents/a1/page.md"}, "wikiRoot": "agents/a1"}
}

test_wiki_sharing_is_for_outside_agents_only if {
	caller := object.union(testing.thread_a2_supervised, {"sharesThreadAgent": "a1"})
	read_as(caller).obligations.wikiRoot == "agents/a2"
}

# A registration that shares a malformed id gives no subtree at all: never the agent's own one instead.
test_wiki_sharing_a_malformed_agent_admits_nothing if {
	every shared in ["", "..", ".", "a1/x", "a1 ", "a:b", 7, null, {"id": "a1"}] {
		caller := object.union(testing.outside_full, {"sharesThreadAgent": shared})
		read_as(caller).reasons == [{"code": "path_invalid", "message": "the caller has no wiki subtree"}]
		not wiki.root_segments with input as testing.call_as(caller, "wiki_read", {"path": "page.md"})
	}
}

test_wiki_malformed_logical_agent_id_admits_nothing if {
	every id in ["", "..", "a1/x", " a1", "a:b", 7, null] {
		caller := object.union(testing.thread_a1, {"logicalAgentId": id})
		read_as(caller).reasons == [{"code": "path_invalid", "message": "the caller has no wiki subtree"}]
	}
}

# Ids in other scripts are judged by the Unicode categories the PEP reports for them, like path segments.
test_wiki_non_ascii_ids_need_their_unicode_fact if {
	caller := object.union(testing.thread_a1, {"logicalAgentId": "Агент"})
	call := testing.call_as(caller, "wiki_read", {"path": "page.md"})
	d := authz.decision with input as object.union(call, {"unicode": {"Агент": ["Ll", "Lu"]}})
	d.obligations.wikiRoot == "agents/Агент"
	testing.codes(authz.decision) == ["path_invalid"] with input as call
	shared := object.union(testing.outside_full, {"sharesThreadAgent": "Агент"})
	s := authz.decision with input as object.union(testing.call_as(shared, "wiki_read", {"path": "page.md"}), {"unicode": {"Агент": ["Ll", "Lu"]}})
	s.obligations.wikiRoot == "agents/Агент"
	testing.codes(authz.decision) == ["path_invalid"] with input as testing.call_as(shared, "wiki_read", {"path": "page.md"})
}

# A caller without a subtree is refused wiki paths only: its other calls are decided as ever.
test_wiki_no_subtree_does_not_touch_other_tools if {
	caller := object.union(testing.thread_a1, {"logicalAgentId": ".."})
	d := authz.decision with input as testing.call_as(caller, "t3_thread_list", {})
	d.allow
	testing.without_quota(d) == {}
}

test_wiki_unknown_kind_has_no_subtree if {
	caller := object.union(testing.thread_a1, {"kind": "admin"})
	not wiki.root_segments with input as testing.call_as(caller, "wiki_read", {"path": "page.md"})
}

test_wiki_field_absent_shares_thread_agent_gives_own_root if {
	wiki.root == "outside-agents/o1" with input as testing.call_as(testing.outside_full, "wiki_read", {"path": "page.md"})
	not wiki.shares with input as testing.call_as(testing.outside_full, "wiki_read", {"path": "page.md"})
}

test_wiki_field_absent_logical_agent_id_admits_no_root if {
	caller := json.remove(testing.thread_a1, ["logicalAgentId"])
	read_as(caller).reasons == [{"code": "path_invalid", "message": "the caller has no wiki subtree"}]
	not wiki.root with input as testing.call_as(caller, "wiki_read", {"path": "page.md"})
}

test_wiki_field_absent_kind_admits_no_root if {
	caller := json.remove(testing.thread_a1, ["kind"])
	"path_invalid" in testing.codes(read_as(caller))
	not wiki.root with input as testing.call_as(caller, "wiki_read", {"path": "page.md"})
}

test_wiki_parent_absent_caller_admits_no_root if {
	input_ := json.remove(testing.call("wiki_read", {"path": "page.md"}), ["caller"])
	not wiki.shares with input as input_
	not wiki.root_segments with input as input_
	d := authz.decision with input as input_
	"path_invalid" in testing.codes(d)
}

test_wiki_field_absent_path_denied if {
	d := authz.decision with input as testing.call("wiki_read", {})
	d.reasons == [{"code": "path_invalid", "message": "path: a path is required"}]
}

# A path sent that is not a string was given: it is said to be no string, never "required" (a new user's trial).
test_wiki_field_not_a_string_is_said_so if {
	every value in [5, null, [], {}, true, 1.5] {
		d := authz.decision with input as testing.call("wiki_read", {"path": value})
		{"code": "path_invalid", "message": "path: a path must be a string"} in d.reasons
		not {"code": "path_invalid", "message": "path: a path is required"} in d.reasons
	}
}

test_wiki_field_absent_path_null_denied if {
	d := authz.decision with input as testing.call("wiki_write", {"path": null, "content": "x"})
	testing.codes(d) == ["path_invalid"]
}

# A path longer than its schema admits reaches the policy as null, listed in omittedArguments: it is said to be too
# long, not missing, and only for the field that was left out.
test_wiki_path_not_sent_for_its_length_is_too_long_not_missing if {
	input_ := object.union(testing.call("wiki_write", {"path": null, "content": "x"}), {
		"argumentErrors": [{
			"keyword": "maxLength", "instanceLocation": "/path", "message": "arguments/path: does not satisfy 'maxLength'",
		}],
		"omittedArguments": {"/path": {"length": 900000, "sha256": "0000000000000000000000000000000000000000000000000000000000000000"}},
	})
	d := authz.decision with input as input_
	d.reasons == [
		{"code": "schema", "message": "arguments/path: does not satisfy 'maxLength'"},
		{"code": "path_invalid", "message": "path: the path is longer than any path the schema admits, so it was not read"},
	]
	m := authz.decision with input as object.union(
		testing.call("made_up_move", {"from": null, "to": "b.md"}),
		{"omittedArguments": {"/from": {"length": 9000, "sha256": "x"}}},
	)
		with data.gatehouse.access_table as {"made_up_move": move_row}
	m.reasons == [{"code": "path_invalid", "message": "from: the path is longer than any path the schema admits, so it was not read"}]
}

test_wiki_parent_absent_arguments_denied if {
	not wiki.ok with input as json.remove(testing.call("wiki_read", {}), ["arguments"])
}

test_wiki_not_applied_to_other_tools if {
	wiki.ok with input as testing.call("t3_thread_list", {"path": "../.."})
}

# A made-up row with two confined paths: each is checked on its own and each gets its obligation.
move_row := {
	"toolkit": "wiki", "class": "write", "capability": "wiki.write", "threadFields": [], "modeFields": {},
	"paths": {"from": {"names": "page"}, "to": {"names": "page"}},
}

move(args) := d if {
	d := authz.decision with input as testing.call("made_up_move", args)
		with data.gatehouse.access_table as {"made_up_move": move_row}
}

test_wiki_every_path_field_is_confined if {
	d := move({"from": "a.md", "to": "notes/b.md"})
	d.allow
	testing.without_quota(d) == {"wikiPaths": {"from": "agents/a1/a.md", "to": "agents/a1/notes/b.md"}, "wikiRoot": "agents/a1"}
	testing.codes(move({"from": "a.md", "to": "../a2/b.md"})) == ["path_invalid", "path_escape"]
	testing.codes(move({"from": "../../x", "to": "b.md"})) == ["path_invalid", "path_escape"]
	move({"from": "a.md"}).reasons == [{"code": "path_invalid", "message": "to: a path is required"}]
	move({"from": "a.md", "to": "b.md"}).allow
}

test_wiki_escape_names_the_field if {
	d := move({"from": "a.md", "to": "x/../../../a2/b.md"})
	d.reasons[1] == {"code": "path_escape", "message": "to: the path leaves the caller's subtree"}
}

# The escape walk stands on its own: with the segment rules switched off, ".." still cannot climb out.
test_wiki_escape_holds_without_segment_rules if {
	not wiki.ok with input as testing.call("wiki_read", {"path": "../a2/secret.md"})
		with wiki.segment_rules as {}
	wiki.escapes("path") with input as testing.call("wiki_read", {"path": "x/../../a2/secret.md"})
}

# The real wiki_move row: both fields confined, each with its obligation; a foreign destination is denied.
test_wiki_move_row_confines_from_and_to if {
	ok := authz.decision with input as testing.call("wiki_move", {"from": "a.md", "to": "notes/b.md", "baseRevision": "r1"})
	ok.allow
	testing.without_quota(ok) == {"wikiPaths": {"from": "agents/a1/a.md", "to": "agents/a1/notes/b.md"}, "wikiRoot": "agents/a1"}
	d := authz.decision with input as testing.call("wiki_move", {"from": "a.md", "to": "../a2/x.md", "baseRevision": "r1"})
	testing.codes(d) == ["path_invalid", "path_escape"]
	d.reasons[1] == {"code": "path_escape", "message": "to: the path leaves the caller's subtree"}
}

# Mutation survivors (scripts/policy-mutation.py).
test_wiki_folder_tools_use_the_path_argument if {
	d1 := authz.decision with input as testing.call("wiki_list", {"path": "notes"})
	d1.obligations.wikiPaths == {"path": "agents/a1/notes"}
	d2 := authz.decision with input as testing.call("wiki_search", {"path": "notes", "query": "q"})
	d2.obligations.wikiPaths == {"path": "agents/a1/notes"}
}

test_wiki_segment_rules_apply_up_to_the_limit if {
	testing.codes(read(concat("/", array.concat([s | some _ in numbers.range(1, 31); s := "d"], ["a:b"])))) == ["path_invalid"]

	# past the limit only the count is reported: the segment walk is bounded
	over := concat("/", array.concat([s | some _ in numbers.range(1, 32); s := "d"], ["a:b"]))
	read(over).reasons == [{"code": "path_invalid", "message": "path: a path may have at most 32 segments"}]
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

# Defence in depth: with the "dot" segment rule switched off, the escape walk alone still denies "..".
test_wiki_escape_denied_even_without_the_dot_rule if {
	rules := object.remove(wiki.segment_rules, ["dot"])
	d := authz.decision with input as testing.call("wiki_read", {"path": "../a2/p.md"}) with wiki.segment_rules as rules
	d.allow == false
	testing.codes(d) == ["path_escape"]
}

# Mutation survivors: page rows never name the root, in every field; other tools ignore a bad root.
test_wiki_move_never_names_the_root if {
	every args in [{"from": ".", "to": "b.md", "baseRevision": "r1"}, {"from": "a.md", "to": ".", "baseRevision": "r1"}] {
		d := authz.decision with input as testing.call("wiki_move", args)
		testing.codes(d) == ["path_invalid"]
	}
}

test_wiki_titlecase_and_modifier_letters_are_letters if {
	read_with("ǅx/ʰy.md", {"ǅx": ["Ll", "Lt"], "ʰy.md": ["Ll", "Lm"]}).allow
}

test_wiki_every_escaping_field_is_named if {
	d := move({"from": "../x.md", "to": "../y.md"})
	d.reasons[1] == {"code": "path_escape", "message": "from: the path leaves the caller's subtree; to: the path leaves the caller's subtree"}
}

test_wiki_unicode_fact_must_be_a_list if {
	every fact in ["Ll", {"Ll": true}, {"first": "Ll"}, null, 1] {
		testing.codes(read_with("Été.md", {"Été.md": fact})) == ["path_invalid"]
	}
}

# The plain-ASCII test is found once per evaluation for every segment the rules check; a segment outside them
# (none in a real evaluation) is tested on its own, with the same answer.
test_wiki_ascii_name_inside_and_outside_the_checked_segments if {
	input_ := testing.call("wiki_read", {"path": "notes/page one.md"})
	wiki.ascii_name("page one.md") with input as input_
	wiki.ascii_names["page one.md"] with input as input_
	wiki.ascii_name("other-page.md") with input as input_
	not wiki.checked_segments["other-page.md"] with input as input_
	not wiki.ascii_name("страница") with input as input_
	not wiki.ascii_name("page+one") with input as input_
	wiki.ascii_name("a_b")
	not wiki.ascii_name("a+b")
}

# Only a ".." lowers the depth: a path whose walk never climbs above the root does not escape, one that does escapes
# at its first "..".
test_wiki_escape_walk_drops_only_at_parent_segments if {
	not wiki.escapes("path") with input as testing.call("wiki_read", {"path": "a/../b.md"})
	wiki.escapes("path") with input as testing.call("wiki_read", {"path": "a/../../b.md"})
	wiki.escapes("path") with input as testing.call("wiki_read", {"path": "../b.md"})
	not wiki.escapes("path") with input as testing.call("wiki_read", {"path": "./a/./b/../c.md"})
	wiki.escapes("path") with input as testing.call("wiki_read", {"path": "./../a.md"})
	not wiki.escapes("path") with input as testing.call("wiki_read", {"path": "a/../b/../c.md"})
}
