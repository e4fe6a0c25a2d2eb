# METADATA
# title: Access classes
# description: |
#   The class of a tool's row says who may call it (docs/domain.md §3): read-only clients only read,
#   caller-bound classes need a thread caller, and anything but reads needs a live run when the caller
#   is a thread. Requirements per class are policy data (policies/gatehouse/access_classes/data.json);
#   liveness and writability are derived from facts in the caller family. Mode rules of the classes
#   live in the modes family.
package gatehouse.authz.access

import data.gatehouse.authz.caller
import data.gatehouse.authz.tools

# Caller-level class rules for `row`, for a caller the policy knows (caller.known); also used for tools/list.
ok(row) if {
	class := data.gatehouse.access_classes[row.class]
	caller.known
	writable(class)
	thread_caller(class)
	live(class)
}

writable(class) if class.writes == false

writable(_) if caller.writable

thread_caller(class) if class.threadCaller == false

thread_caller(_) if caller.kind == "thread"

live(class) if class.live == "never"

live(class) if {
	class.live == "thread"
	caller.kind == "outside_agent"
}

live(class) if {
	class.live in {"thread", "always"}
	caller.live
}

called_class := data.gatehouse.access_classes[tools.row.class]

# METADATA
# title: read_only_client
# description: A read-only client called a tool whose class changes state.
# custom:
#   code: read_only_client
denials["read_only_client"] := "a read-only client may call read tools only" if {
	class := called_class
	not writable(class)
}

# METADATA
# title: thread_credential_required
# description: The tool acts as the calling thread, and the caller is not a thread.
# custom:
#   code: thread_credential_required
denials["thread_credential_required"] := "this tool acts as the calling thread and needs a thread session" if {
	class := called_class
	not thread_caller(class)
}

# METADATA
# title: parent_not_active
# description: The calling thread does not own a live run, and the tool needs one. Not given while the
#   thread's state is unknown because the host failed (that is `unavailable`).
# custom:
#   code: parent_not_active
denials["parent_not_active"] := "the calling thread has no live run" if {
	class := called_class
	not live(class)
	not caller.thread_unavailable
}
