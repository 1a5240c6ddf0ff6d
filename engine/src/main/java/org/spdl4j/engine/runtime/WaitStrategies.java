package org.spdl4j.engine.runtime;

import com.lmax.disruptor.BlockingWaitStrategy;
import com.lmax.disruptor.BusySpinWaitStrategy;
import com.lmax.disruptor.WaitStrategy;
import com.lmax.disruptor.YieldingWaitStrategy;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.YieldingIdleStrategy;
import org.spdl4j.engine.EngineConfiguration;
import org.spdl4j.engine.WaitPolicy;
import org.spdl4j.engine.ring.BackoffWaitStrategy;

/**
 * Maps a {@link WaitPolicy} onto the two kinds of wait in the engine. Consumers wait on a Disruptor
 * {@link WaitStrategy} (all of which check the barrier's alert, so close wakes them). Producers waiting for room, and
 * pollers, use an Agrona {@link IdleStrategy} in a loop that checks the run flag. The backoff policy depends on
 * whether the pipeline is oversubscribed (more threads than {@link EngineConfiguration#CORES}): with a core per
 * thread it spins {@link EngineConfiguration#BACKOFF_SPINS}, yields, then parks; oversubscribed it spins
 * {@link EngineConfiguration#BACKOFF_OVERSUBSCRIBED_SPINS} and parks without yielding.
 */
public final class WaitStrategies {
    private WaitStrategies() {
    }

    /**
     * {@return whether a pipeline of {@code threads} threads (stage threads plus the consumer) has fewer cores than
     * threads}
     *
     * @param threads the pipeline's threads
     */
    public static boolean oversubscribed(int threads) {
        return threads > EngineConfiguration.CORES;
    }

    /**
     * {@return a consumer wait strategy for the policy; one per ring, shared by its consumers}
     *
     * @param policy         the policy
     * @param oversubscribed whether the pipeline has more threads than cores ({@link #oversubscribed(int)})
     */
    public static WaitStrategy consumer(WaitPolicy policy, boolean oversubscribed) {
        return switch (policy) {
            case BUSY_SPIN -> new BusySpinWaitStrategy();
            case YIELDING -> new YieldingWaitStrategy();
            case BACKOFF -> new BackoffWaitStrategy(spins(oversubscribed), yields(oversubscribed),
                    EngineConfiguration.BACKOFF_MIN_PARK_NANOS, EngineConfiguration.BACKOFF_MAX_PARK_NANOS);
            case BLOCKING -> new BlockingWaitStrategy();
        };
    }

    /**
     * {@return an idle strategy for the policy; one per thread (it keeps state)}
     *
     * @param policy         the policy
     * @param oversubscribed whether the pipeline has more threads than cores ({@link #oversubscribed(int)})
     */
    public static IdleStrategy idle(WaitPolicy policy, boolean oversubscribed) {
        return switch (policy) {
            case BUSY_SPIN -> new BusySpinIdleStrategy();
            case YIELDING -> new YieldingIdleStrategy();
            // Nothing signals a producer when room frees up, so BLOCKING producers back off and park as well.
            case BACKOFF, BLOCKING -> new BackoffIdleStrategy(spins(oversubscribed), yields(oversubscribed),
                    EngineConfiguration.BACKOFF_MIN_PARK_NANOS, EngineConfiguration.BACKOFF_MAX_PARK_NANOS);
        };
    }

    private static int spins(boolean oversubscribed) {
        return oversubscribed ? EngineConfiguration.BACKOFF_OVERSUBSCRIBED_SPINS : EngineConfiguration.BACKOFF_SPINS;
    }

    private static int yields(boolean oversubscribed) {
        return oversubscribed ? 0 : EngineConfiguration.BACKOFF_YIELDS;
    }
}
