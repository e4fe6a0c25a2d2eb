# METADATA
# description: |
#   Replays the golden decision matrix (policy-tests/golden/<family>/cases.json, loaded as data.golden) and
#   checks the whole decision of every case at the suite's entry point (`entrypoint`, the tools/call decision when
#   absent). The Java engines replay the same files.
package gatehouse.golden_test

import data.gatehouse.authz

cases := [c | some suite in data.golden; some c in suite.cases]

failures contains name if {
	some family, suite in data.golden
	some c in suite.cases
	decision := evaluate(object.get(suite, "entrypoint", "gatehouse/authz/decision"), c.input)
	decision != c.expected
	name := concat("/", [family, c.name])
}

evaluate("gatehouse/authz/decision", i) := d if {
	d := authz.decision with input as i
}

evaluate("gatehouse/authz/notice", i) := d if {
	d := authz.notice with input as i
}

test_golden_matrix_every_case_matches if {
	count(failures) == 0
} else := false if {
	print("golden cases that differ:", failures)
}

test_golden_matrix_has_at_least_150_cases if {
	count(cases) >= 150
}

test_golden_matrix_allow_iff_no_reasons if {
	every c in cases {
		allow_iff_no_reasons(c.expected)
	}
}

allow_iff_no_reasons(d) if {
	d.allow == true
	d.reasons == []
}

allow_iff_no_reasons(d) if {
	d.allow == false
	count(d.reasons) > 0
}

# For each caller of the access family, tools/list shows exactly the tools its calls were allowed.
test_golden_visible_tools_equal_allowed_calls if {
	callers := {c.input.caller | some c in data.golden.access.cases}
	every caller in callers {
		allowed := {c.input.tool | some c in data.golden.access.cases; c.input.caller == caller; c.expected.allow}
		visible := authz.visible_tools with input as {"caller": caller}
		visible == allowed
	}
}
