package dev.gatehouse.gateway.notice;

import dev.gatehouse.facade.error.FacadeResult;
import dev.gatehouse.facade.project.NoticeFeed;
import dev.gatehouse.gateway.notice.NoticeStore.Receipt;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The ACKs to the Project Service: only for receipts whose final state is committed, repeated until the service took
 * them (an ACK is idempotent there), so a notice received again after its final state is ACKed again with it.
 */
final class NoticeAcks {

    private static final Logger LOG = LoggerFactory.getLogger(NoticeAcks.class);

    private final Optional<String> clientId;
    private final NoticeFeed feed;
    private final NoticeStore store;
    private final NoticeStatus status;

    NoticeAcks(Optional<String> clientId, NoticeFeed feed, NoticeStore store, NoticeStatus status) {
        this.clientId = clientId;
        this.feed = feed;
        this.store = store;
        this.status = status;
    }

    /** Sends the ACK of every receipt whose final state is stored; stops at the first failure (retried later). */
    void acknowledge() {
        if (clientId.isEmpty()) {
            return;
        }
        for (Receipt receipt : store.unacknowledged()) {
            FacadeResult<String> ack = feed.acknowledge(clientId.get(), receipt.noticeId(), receipt.state().wire());
            if (ack instanceof FacadeResult.Failed<String> failed) {
                status.projectFailed(failed.error());
                LOG.warn("ACK of notice {} not taken ({}); repeated later", receipt.noticeId(), failed.error().kind());
                return;
            }
            store.acknowledged(receipt.noticeId());
        }
    }
}
