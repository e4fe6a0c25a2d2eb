package dev.gatehouse.gateway.notice;

import dev.gatehouse.facade.project.NoticePage;
import dev.gatehouse.facade.project.WorkNotice;
import dev.gatehouse.gateway.notice.NoticeStore.Group;
import dev.gatehouse.gateway.notice.NoticeStore.Receipt;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Takes one page of the Project notice stream into the store: every notice's receipt first (a notice id seen before
 * changes nothing; a lower revision fence than one known for its run is {@code stale}), then the page's cursor, so a
 * crash between the two only replays notices, which are duplicates by id.
 */
final class NoticeIntake {

    private static final Logger LOG = LoggerFactory.getLogger(NoticeIntake.class);
    private static final Pattern FENCE = Pattern.compile("position:([0-9]{1,18})");

    private final NoticeStore store;

    NoticeIntake(NoticeStore store) {
        this.store = store;
    }

    /**
     * Stores the page's notices, then its cursor.
     *
     * @return the agent + project groups the page named, in the order first named
     */
    List<Group> receive(NoticePage page) {
        List<Group> touched = new ArrayList<>();
        for (WorkNotice notice : page.notices()) {
            NoticeStore.Received received = store.receive(notice, fence(notice));
            Receipt receipt = received.receipt();
            if (!received.first()) {
                LOG.info("notice {} received again; already {}{}", notice.noticeId(), receipt.state().wire(),
                        receipt.state().isFinal() ? ", ACKed again" : "");
            } else if (receipt.state() == NoticeState.STALE) {
                LOG.info("notice {} is stale: a newer assignment of run {} is known", notice.noticeId(),
                        notice.runId());
            }
            Group group = new Group(notice.agentId(), notice.projectId());
            if (!touched.contains(group)) {
                touched.add(group);
            }
        }
        store.saveCursor(NoticeDelivery.PROJECT_STREAM, page.cursor());
        return touched;
    }

    /** The assignment revision number; a notice without a readable one orders before every other (fence 0). */
    private static long fence(WorkNotice notice) {
        Matcher matcher = notice.assignmentRevision() == null ? null : FENCE.matcher(notice.assignmentRevision());
        if (matcher == null || !matcher.matches()) {
            LOG.warn("notice {} has no readable assignment revision; it is ordered first", notice.noticeId());
            return 0;
        }
        return Long.parseLong(matcher.group(1));
    }
}
