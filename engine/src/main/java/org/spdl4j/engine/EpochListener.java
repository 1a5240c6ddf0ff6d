package org.spdl4j.engine;

/**
 * Told by a repeating source when it has emitted every item of an epoch. Called on the source thread; keep it short.
 * The consumer learns the epoch of each item it receives from {@link Pipeline#lastEpoch()}.
 */
@FunctionalInterface
public interface EpochListener {
    /**
     * The source emitted the last item of {@code epoch}.
     *
     * @param epoch the epoch that ended, from 0
     * @param items how many items it had
     */
    void onEpochEnd(long epoch, long items);
}
