# METADATA
# description: |
#   The smoke set shipped in every bundle (policies/gatehouse/smoke/data.json, written by
#   scripts/smoke-cases.py) is the gateway's activation check of a new revision: each case must still be a
#   golden case and must still decide exactly as expected.
package gatehouse.smoke_test

import data.gatehouse.authz

smoke := data.gatehouse.smoke.cases

golden_inputs contains [concat("/", [family, c.name]), c.input, c.expected] if {
	some family, suite in data.golden
	some c in suite.cases
}

test_smoke_cases_decide_as_expected if {
	every c in smoke {
		authz.decision == c.expected with input as c.input
	}
}

test_smoke_cases_are_golden_cases if {
	every c in smoke {
		[c.name, c.input, c.expected] in golden_inputs
	}
}

test_smoke_set_allows_and_denies if {
	count([c | some c in smoke; c.expected.allow == true]) >= 3
	count([c | some c in smoke; c.expected.allow == false]) >= 5
}
