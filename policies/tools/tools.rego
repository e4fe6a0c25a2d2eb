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

# METADATA
# title: unknown_tool
# description: The called name has no row in the access table.
# custom:
#   code: unknown_tool
denials["unknown_tool"] := "tool is not in the access table" if not ok
