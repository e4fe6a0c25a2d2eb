package dev.gatehouse.facade.project;

import java.util.List;

/**
 * One answer of the notice stream: the notices after the requested cursor, oldest first, and the cursor to resume
 * from (the last notice's cursor, or the requested one when none came).
 */
public record NoticePage(List<WorkNotice> notices, String cursor) {
    public NoticePage {
        notices = List.copyOf(notices);
    }
}
