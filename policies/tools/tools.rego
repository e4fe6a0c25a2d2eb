# METADATA
# title: Tool access table lookup
# description: |
#   Every tool has exactly one row in data.gatehouse.access_table (policies/gatehouse/access_table/data.json); a name
#   without a row is denied. Names match exactly: no case folding, trimming or normalisation
#   (docs/domain.md §3).
package gatehouse.authz.tools

# The access-table row of the called tool; undefined for an unknown name.
row := data.gatehouse.access_table[input.tool] if is_string(input.tool)

ok if is_object(row)

# A top-level argument the PEP did not send because it is longer than its schema admits: null in input.arguments,
# listed in input.omittedArguments by JSON Pointer with its length and SHA-256 (docs/design.md, "What a decision
# costs"). It is invalid whatever it holds, and the schema check reports it.
argument_omitted(field) if _ = input.omittedArguments[concat("", ["/", field])]

# METADATA
# title: unknown_tool
# description: The called name has no row in the access table.
# custom:
#   code: unknown_tool
denials["unknown_tool"] := "tool is not in the access table" if not ok
