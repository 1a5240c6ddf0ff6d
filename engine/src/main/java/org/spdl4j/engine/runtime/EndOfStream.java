package org.spdl4j.engine.runtime;

import java.util.concurrent.atomic.AtomicInteger;
import org.spdl4j.engine.ring.BoundedPublisher;

/**
 * Hands end of stream from a stage to the next: each of the stage's workers reports when it has taken its end marker;
 * the last one (after everything the stage holds has been published) publishes one end marker per downstream
 * consumer. Each downstream worker stops at the first end marker it takes, so each takes exactly one.
 *
 * <p><b>Threading:</b> any of the stage's workers; an {@link AtomicInteger} counts them down.
 */
final class EndOfStream {
    private final AtomicInteger active;
    private final int downstreamConsumers;

    EndOfStream(int workers, int downstreamConsumers) {
        this.active = new AtomicInteger(workers);
        this.downstreamConsumers = downstreamConsumers;
    }

    /** {@return {@code true} for the stage's last worker to finish; it must then call {@link #propagate}} */
    boolean workerFinished() {
        return active.decrementAndGet() == 0; // full fence: the other workers' publishes happened before
    }

    /**
     * Publishes one end marker per downstream consumer.
     *
     * @param out the last worker's publisher
     */
    void propagate(BoundedPublisher out) {
        for (int i = 0; i < downstreamConsumers; i++) {
            if (!out.publishEnd()) {
                return; // the pipeline stopped
            }
        }
    }
}
