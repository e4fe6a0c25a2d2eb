# METADATA
# description: |
#   Test-only: the wiki family's verdict and obligations for every input of input.cases, in one
#   evaluation (WikiConfinementPropertyTest). The family admits a superset of what the whole decision
#   admits, so a property of everything it admits holds for every allowed call. Never in a bundle.
package gatehouse.testing.batch

import data.gatehouse.authz.wiki

default admits := false

admits if wiki.ok

verdicts := [v |
	some c in input.cases
	v := {"allow": admits, "obligations": wiki.obligations} with input as c
]
