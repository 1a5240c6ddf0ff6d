package org.spdl4j.examples.clicklog;

import java.util.concurrent.TimeUnit;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.SleepingIdleStrategy;
import org.agrona.concurrent.YieldingIdleStrategy;
import org.spdl4j.engine.WaitPolicy;

/**
 * How the batcher waits for a free batch and the training loop for a full one, by the pipeline's wait policy. The
 * hand-off between them is a lock-free queue with no condition to sleep on, so {@code BLOCKING} sleeps 100 µs at a
 * time. Each call returns a new strategy: one per waiting thread (they keep state).
 */
final class PolicyIdle {
    private PolicyIdle() {
    }

    /**
     * {@return a fresh idle strategy for one thread}
     *
     * @param policy the pipeline's wait policy
     */
    static IdleStrategy of(WaitPolicy policy) {
        return switch (policy) {
            case BUSY_SPIN -> new BusySpinIdleStrategy();
            case YIELDING -> new YieldingIdleStrategy();
            case BACKOFF -> new BackoffIdleStrategy(100, 100, TimeUnit.MICROSECONDS.toNanos(1),
                    TimeUnit.MICROSECONDS.toNanos(100));
            case BLOCKING -> new SleepingIdleStrategy(TimeUnit.MICROSECONDS.toNanos(100));
        };
    }
}
