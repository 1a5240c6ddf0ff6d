package org.spdl4j.engine.runtime;

import com.lmax.disruptor.BusySpinWaitStrategy;
import com.lmax.disruptor.WaitStrategy;
import com.lmax.disruptor.YieldingWaitStrategy;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.YieldingIdleStrategy;
import org.spdl4j.engine.WaitPolicy;
import org.spdl4j.engine.ring.BackoffIdle;
import org.spdl4j.engine.ring.BackoffPolicy;
import org.spdl4j.engine.ring.BackoffWaitStrategy;
import org.spdl4j.engine.ring.BlockingThenBackoffWaitStrategy;

/**
 * Maps a {@link WaitPolicy} onto the two kinds of wait in the engine. Consumers wait on a Disruptor
 * {@link WaitStrategy} (all of which check the barrier's alert, so close wakes them). Producers waiting for room, and
 * pollers, use an Agrona {@link IdleStrategy} in a loop that checks the run flag.
 */
public final class WaitStrategies {
    private WaitStrategies() {
    }

    /**
     * {@return a consumer wait strategy for the policy; one per ring, shared by its consumers}
     *
     * @param policy the policy
     */
    public static WaitStrategy consumer(WaitPolicy policy) {
        return switch (policy) {
            case BUSY_SPIN -> new BusySpinWaitStrategy();
            case YIELDING -> new YieldingWaitStrategy();
            case BACKOFF -> new BackoffWaitStrategy(BackoffPolicy.configured());
            case BLOCKING -> new BlockingThenBackoffWaitStrategy(BackoffPolicy.configured());
        };
    }

    /**
     * {@return an idle strategy for the policy; one per thread (it keeps state)}
     *
     * @param policy the policy
     */
    public static IdleStrategy idle(WaitPolicy policy) {
        return switch (policy) {
            case BUSY_SPIN -> new BusySpinIdleStrategy();
            case YIELDING -> new YieldingIdleStrategy();
            // Nothing signals a producer when room frees up, so BLOCKING producers back off and park as well.
            case BACKOFF, BLOCKING -> new BackoffIdle(BackoffPolicy.configured());
        };
    }
}
