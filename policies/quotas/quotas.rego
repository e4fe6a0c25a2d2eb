# METADATA
# title: Quotas
# description: |
#   How much each caller may call, as policy data (policies/gatehouse/quotas/data.json; docs/domain.md §10).
#   Every allowed tools/call carries the obligation `quota`: the bucket it is charged to, the bucket's class
#   and its refill rate and burst. The bucket's class is the one the data gives the row's capability
#   (`capability_budgets`, e.g. `wiki.write`), else the one it gives the row's access class (`class_budgets`);
#   its numbers are those of `budgets[<caller kind>][<bucket class>]`. The bucket key is built from trusted facts
#   only: the caller kind, the bucket class and the caller's logical agent id (never an argument), so every call of
#   one agent in one class shares one budget on every replica. A denial and tools/list carry no quota and are
#   never charged. A row or caller kind the data has no budget for gets no quota, and the PEP refuses an allowed
#   call without one (`policy_unavailable`): a gap in the data stops calls, it never lets them through unlimited.
package gatehouse.authz.quotas

import data.gatehouse.authz.caller
import data.gatehouse.authz.tools

quotas := data.gatehouse.quotas

# The called row's bucket class: its capability's where the data names one, else its access class's.
bucket_class := class if {
	class := quotas.capability_budgets[tools.row.capability]
} else := class if {
	class := quotas.class_budgets[tools.row.class]
}

budget := quotas.budgets[caller.kind][bucket_class]

# The caller's logical agent id, when it is one non-empty string (the PIP always sends one).
agent_id := input.caller.logicalAgentId if {
	is_string(input.caller.logicalAgentId)
	input.caller.logicalAgentId != ""
}

# The budget numbers of the data, when they are whole numbers of at least one.
rate := budget.ratePerMinute if whole_positive(budget.ratePerMinute)

burst := budget.burst if whole_positive(budget.burst)

whole_positive(n) if {
	is_number(n)
	n >= 1
	n == floor(n)
}

default obligations := {}

# The id is the key's last part: kind and class hold no "/", so the key splits back into its three parts.
obligations := {"quota": {
	"bucket": concat("/", [caller.kind, bucket_class, agent_id]),
	"class": bucket_class,
	"ratePerMinute": rate,
	"burst": burst,
}}
