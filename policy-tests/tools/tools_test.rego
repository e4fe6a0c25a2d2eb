package gatehouse.tools_test

import data.gatehouse.authz
import data.gatehouse.authz.tools
import data.gatehouse.testing

test_tools_known_name_has_its_row if {
	r := tools.row with input as testing.call("wiki_write", {})
	r.class == "write"
	r.capability == "wiki.write"
}

test_tools_names_match_exactly if {
	every name in ["WIKI_WRITE", "wiki_write ", " wiki_write", "wiki_wr\u0456te", "wiki-write", "wiki_writ"] {
		d := authz.decision with input as testing.call(name, {"path": "page.md", "content": "x"})
		testing.codes(d) == ["unknown_tool"]
	}
}

test_tools_field_absent_unknown if {
	not tools.ok with input as json.remove(testing.call("wiki_read", {}), ["tool"])
}

test_tools_non_string_name_unknown if {
	not tools.ok with input as object.union(testing.call("wiki_read", {}), {"tool": ["wiki_read"]})
}

test_tools_parent_absent_unknown if {
	not tools.ok with input as {}
}

test_tools_every_row_is_complete if {
	every name, row in data.gatehouse.access_table {
		data.gatehouse.access_classes[row.class]
		row.toolkit in {"thread", "project", "wiki"}
		is_array(row.threadFields)
		is_object(row.modeFields)
		is_object(row.paths)
		name != ""
	}
}

# Every tool named by a schema file has a row, and the other way round is checked by the gateway at start.
test_tools_table_is_not_empty if {
	count(data.gatehouse.access_table) > 0
}
