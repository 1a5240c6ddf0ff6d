package org.spdl4j.engine.ring;

import com.lmax.disruptor.AlertException;
import com.lmax.disruptor.BlockingWaitStrategy;
import com.lmax.disruptor.Sequence;
import com.lmax.disruptor.SequenceBarrier;
import com.lmax.disruptor.TimeoutException;
import com.lmax.disruptor.WaitStrategy;

/**
 * The {@code BLOCKING} wait of a consumer: sleeps on a lock and condition until the producer publishes (it signals),
 * then, when the consumer also waits for stages before it on the same ring (a record ring's in-place stages and its
 * consumer), waits for those by {@link BackoffWaitStrategy}'s spin, yield and park. Disruptor's own
 * {@link BlockingWaitStrategy} busy-spins in that second phase, since nothing signals when a stage releases a
 * sequence: a consumer behind a slow stage burnt a core for as long as the stage worked on a record.
 *
 * <p><b>Threading:</b> one instance per ring, shared by its consumers, as every Disruptor wait strategy. Alertable in
 * both phases.
 */
public final class BlockingThenBackoffWaitStrategy implements WaitStrategy {
    private final BlockingWaitStrategy cursorWait = new BlockingWaitStrategy();
    private final BackoffWaitStrategy dependentWait;

    /**
     * Creates the strategy.
     *
     * @param policy the phases of the wait for the stages before (see {@link BackoffPolicy})
     */
    public BlockingThenBackoffWaitStrategy(BackoffPolicy policy) {
        this.dependentWait = new BackoffWaitStrategy(policy);
    }

    @Override
    public long waitFor(long sequence, Sequence cursor, Sequence dependentSequence, SequenceBarrier barrier)
            throws AlertException, InterruptedException, TimeoutException {
        if (cursor.get() < sequence) {
            cursorWait.waitFor(sequence, cursor, cursor, barrier); // asleep until the producer publishes it
        }
        return dependentWait.waitFor(sequence, cursor, dependentSequence, barrier); // at once when none is behind
    }

    @Override
    public void signalAllWhenBlocking() {
        cursorWait.signalAllWhenBlocking();
    }
}
