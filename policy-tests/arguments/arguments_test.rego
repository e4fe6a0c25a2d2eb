package gatehouse.arguments_test

import data.gatehouse.authz
import data.gatehouse.authz.arguments
import data.gatehouse.testing

# Identity named in arguments is rejected, never dropped.
test_arguments_identity_key_top_level_denied if {
	every key in ["agentId", "clientId", "executorRef", "root", "wikiRoot", "sessionId", "token", "authorization"] {
		d := authz.decision with input as testing.call("wiki_read", {"path": "page.md", key: "a2"})
		"identity_argument" in testing.codes(d)
	}
}

test_arguments_identity_key_any_case if {
	d := authz.decision with input as testing.call("wiki_read", {"path": "page.md", "AGENTID": "a2"})
	d.reasons[0] == {"code": "identity_argument", "message": "identity comes from the session, not from arguments: AGENTID"}
}

test_arguments_identity_key_nested_in_arrays_and_objects if {
	args := {
		"runId": "r", "runRevision": "run:1", "assignmentRevision": "position:1",
		"result": {"files": [{"meta": {"executorRef": "e2"}}]},
	}
	d := authz.decision with input as testing.call("project_work_submit", args)
	testing.codes(d) == ["identity_argument"]
}

test_arguments_project_and_wiki_keys_only_for_those_toolkits if {
	d1 := authz.decision with input as testing.call("wiki_list", {"path": ".", "projectId": "p2"})
	"identity_argument" in testing.codes(d1)
	d2 := authz.decision with input as testing.call("t3_thread_launch", {"projectId": "p2", "prompt": "x"})
	d2.allow
	d3 := authz.decision with input as testing.call("project_work_get", {"runId": "r", "threadId": "t2"})
	"identity_argument" in testing.codes(d3)
}

test_arguments_identity_schema_error_not_reported_twice if {
	input_ := object.union(testing.call("wiki_read", {"path": "page.md", "agentId": "a2"}), {"argumentErrors": [{
		"keyword": "additionalProperties", "instanceLocation": "", "property": "agentId",
		"message": "unknown property agentId",
	}]})
	d := authz.decision with input as input_
	testing.codes(d) == ["identity_argument"]
}

# Only the unknown-key violation of an identity key is left to identity_argument; any other violation naming the
# same property is still a schema problem.
test_arguments_other_violation_of_an_identity_key_is_still_reported if {
	input_ := object.union(testing.call("wiki_read", {"path": "page.md", "agentId": 7}), {"argumentErrors": [{
		"keyword": "type", "instanceLocation": "/agentId", "property": "agentId",
		"message": "agentId is not a string",
	}]})
	d := authz.decision with input as input_
	d.reasons == [
		{"code": "identity_argument", "message": "identity comes from the session, not from arguments: agentId"},
		{"code": "schema", "message": "agentId is not a string"},
	]
}

test_arguments_schema_errors_are_denied_with_messages if {
	input_ := object.union(testing.call("wiki_read", {"path": "page.md", "recursive": true}), {"argumentErrors": [
		{"keyword": "additionalProperties", "instanceLocation": "", "property": "recursive", "message": "b"},
		{"keyword": "type", "instanceLocation": "/path", "message": "a"},
	]})
	d := authz.decision with input as input_
	d.reasons == [{"code": "schema", "message": "a; b"}]
}

test_arguments_field_absent_errors_denies if {
	d := authz.decision with input as json.remove(testing.call("wiki_read", {"path": "page.md"}), ["argumentErrors"])
	d.reasons == [{"code": "schema", "message": "arguments were not validated"}]
}

test_arguments_field_absent_arguments_denies if {
	not arguments.ok with input as json.remove(testing.call("wiki_list", {}), ["arguments"])
}

test_arguments_not_an_object_denies if {
	every bad in ["page.md", ["page.md"], null, 1] {
		not arguments.ok with input as object.union(testing.call("wiki_list", {}), {"arguments": bad})
	}
}

test_arguments_parent_absent_denies if {
	not arguments.ok with input as {}
}

test_arguments_clean_object_ok if {
	arguments.ok with input as testing.call("wiki_list", {"path": "."})
}

# Mutation survivors (scripts/policy-mutation.py).
test_arguments_only_unknown_key_errors_fold_into_identity if {
	input_ := object.union(testing.call("wiki_read", {"path": "page.md"}), {"argumentErrors": [{
		"keyword": "type", "instanceLocation": "/agentId", "property": "agentId",
		"message": "agentId must be a string",
	}]})
	d := authz.decision with input as input_
	d.reasons == [{"code": "schema", "message": "agentId must be a string"}]
}

test_arguments_every_identity_key_is_named_sorted if {
	d := authz.decision with input as testing.call("wiki_read", {"path": "page.md", "token": "x", "agentId": "a2"})
	d.reasons[0] == {"code": "identity_argument", "message": "identity comes from the session, not from arguments: agentId, token"}
}

test_arguments_project_toolkit_keys if {
	every key in ["projectId", "projectServiceProjectId", "threadId"] {
		d := authz.decision with input as testing.call("project_work_list", {key: "x"})
		testing.codes(d) == ["identity_argument"]
	}
}

# --- identity keys by meaning (docs/domain.md §6) -------------------------------------------------

# `key` in the arguments of wiki_read, reported by the PEP with the folded form `folded`.
with_key(key, folded) := testing.folded_as(testing.call("wiki_read", {"path": "page.md", key: "a2"}), key, folded)

test_arguments_identity_key_separators_are_ignored if {
	every key in ["agent_id", "agent-id", "Agent.Id", "agent id", "a_g-e.n t_id", "__agentId__", "client_id", "WIKI-ROOT"] {
		d := authz.decision with input as testing.call("wiki_read", {"path": "page.md", key: "a2"})
		testing.codes(d) == ["identity_argument"]
	}
}

# Keys the policy cannot fold itself (fullwidth, zero-width, look-alike dashes) are matched by the
# folded form the PEP reports; the separators removed are the data's.
test_arguments_identity_key_matched_by_the_reported_folded_form if {
	every key, folded in {
		"ａｇｅｎｔＩｄ": "agentid",
		"agent\u200bId": "agentid",
		" agentId ": "agentid",
		"agent\u2010id": "agent\u2010id",
		"agent\u2014id": "agent\u2014id",
		"agent\u2212id": "agent\u2212id",
		"ＡＧＥＮＴ＿ＩＤ": "agent_id",
		"agent/Id": "agent/id",
		"agent:Id": "agent:id",
		"agent\\Id": "agent\\id",
		"agent|Id": "agent|id",
	} {
		d := authz.decision with input as with_key(key, folded)
		d.reasons == [{"code": "identity_argument", "message": concat("", ["identity comes from the session, not from arguments: ", key])}]
	}
}

test_arguments_separators_are_policy_data if {
	d := authz.decision with input as with_key("agent+id", "agent+id")
	not "identity_argument" in testing.codes(d)
	d2 := authz.decision with input as with_key("agent+id", "agent+id") with data.gatehouse.identity.ignored_separators as {"+": ""}
	"identity_argument" in testing.codes(d2)
}

# The identity keys are data held by meaning (the policy does not re-derive it per evaluation): each one
# is already lower case and free of every ignored separator, and is held as `key: true` for lookup.
test_arguments_identity_key_data_is_held_by_meaning if {
	lists := array.concat([data.gatehouse.identity.every_tool], [keys | some keys in data.gatehouse.identity.by_toolkit])
	count(data.gatehouse.identity.every_tool) > 0
	every keys in lists {
		every key, held in keys {
			held == true
			key == strings.replace_n(data.gatehouse.identity.ignored_separators, lower(key))
		}
	}
}

# The policy finds separators character by character, so each one is a single character, removed (mapped to "").
test_arguments_separators_are_single_characters_removed if {
	count(data.gatehouse.identity.ignored_separators) > 0
	every separator, replacement in data.gatehouse.identity.ignored_separators {
		count(separator) == 1
		replacement == ""
	}
}

# The separators the domain names (docs/domain.md §6), exactly: spaces and the ASCII ones, every dash and connector
# punctuation that NFKC keeps, and the path-like ones. Dropping one from the data would let a key through.
test_arguments_separators_are_the_domain_list if {
	expected := {
		"_", "-", ".", " ", "\u058a", "\u05be", "\u1400", "\u1806", "\u2010", "\u2012", "\u2013", "\u2014",
		"\u2015", "\u203f", "\u2040", "\u2054", "\u2e17", "\u2e1a", "\u2e3a", "\u2e3b", "\u2e40", "\u2e5d",
		"\u301c", "\u3030", "\u30a0", "\ud803\udead", "\u2212", "\ud803\udd6e", "/", ":", "\\", "|",
	}
	{separator | some separator, _ in data.gatehouse.identity.ignored_separators} == expected
}

# A key is its own meaning only when it holds no separator; with one, every separator goes.
test_arguments_meaning_with_and_without_separators if {
	arguments.meaning("agentid") == "agentid"
	arguments.meaning("agent_id") == "agentid"
	arguments.meaning("a_g-e.n t\u2010id") == "agentid"
	arguments.meaning("agent+id") == "agent+id"
	arguments.meaning("agent+id") == "agentid" with data.gatehouse.identity.ignored_separators as {"+": ""}
	arguments.meaning("") == ""
}

# The one-trim shortcut: a key of lower-case ASCII letters and digits is its own meaning; anything else goes the
# character-by-character way.
test_arguments_plain_keys_are_their_own_meaning if {
	arguments.plain("field12")
	arguments.plain("")
	not arguments.plain("field_12")
	not arguments.plain("Field12")
	not arguments.plain("f\u00e9ld")
	arguments.meaning("field12") == "field12"
	arguments.meaning("agent_id") == "agentid"
}

# The shortcut holds only while no separator is a plain character.
test_arguments_no_separator_is_a_plain_character if {
	count(arguments.plain_characters) == 36
	every separator, _ in data.gatehouse.identity.ignored_separators {
		not contains(arguments.plain_characters, separator)
	}
}

test_arguments_look_alike_business_keys_still_pass if {
	every key in ["agentName", "agent", "path_id", "identity"] {
		not key in arguments.identity_keys_found with input as with_key(key, lower(key))
	}
	d := authz.decision with input as testing.call("t3_thread_send", {"thread_id": "t2", "message": "m"})
	not "identity_argument" in testing.codes(d)
}

test_arguments_unreported_key_is_a_schema_problem if {
	input_ := json.remove(testing.call("wiki_read", {"path": "page.md"}), ["argumentKeys"])
	d := authz.decision with input as input_
	d.reasons == [{"code": "schema", "message": "argument keys were not folded"}]
}

test_arguments_field_absent_folded_is_unreported if {
	input_ := testing.call("wiki_read", {"path": "page.md"})
	d := authz.decision with input as object.union(input_, {"argumentKeys": [{"path": "/path", "key": "path"}]})
	testing.codes(d) == ["schema"]
}

test_arguments_reported_key_not_in_arguments_still_counts if {
	input_ := testing.call("wiki_read", {"path": "page.md"})
	d := authz.decision with input as object.union(input_, {"argumentKeys": array.concat(input_.argumentKeys, [{"path": "/x", "key": "x", "folded": "agentid"}])})
	"identity_argument" in testing.codes(d)
}

test_arguments_field_absent_keys_with_empty_arguments_ok if {
	arguments.ok with input as json.remove(testing.call("wiki_list", {}), ["argumentKeys"])
}

test_arguments_identity_schema_error_by_meaning_not_reported_twice if {
	input_ := object.union(with_key("ａｇｅｎｔＩｄ", "agentid"), {"argumentErrors": [{
		"keyword": "additionalProperties", "instanceLocation": "", "property": "ａｇｅｎｔＩｄ",
		"message": "unknown property",
	}]})
	d := authz.decision with input as input_
	testing.codes(d) == ["identity_argument"]
}
