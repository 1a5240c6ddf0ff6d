package org.spdl4j.examples.slots;

import org.spdl4j.engine.WaitPolicy;

/**
 * How a {@link SlotBatchLoader} runs.
 *
 * @param fillConcurrency worker threads that decode into slots (CPU-bound: about one per core)
 * @param batchesInFlight batches allocated at once, the bound on batch memory (at least 2)
 * @param dropLast        drop a partial last batch instead of publishing it
 * @param waitPolicy      how every stage waits
 */
public record SlotLoaderOptions(int fillConcurrency, int batchesInFlight, boolean dropLast, WaitPolicy waitPolicy) {
    /** Checks the values. */
    public SlotLoaderOptions {
        if (fillConcurrency < 1) {
            throw new IllegalArgumentException("fill concurrency must be >= 1, got " + fillConcurrency);
        }
        if (batchesInFlight < 2) {
            throw new IllegalArgumentException("batchesInFlight must be >= 2, got " + batchesInFlight);
        }
        java.util.Objects.requireNonNull(waitPolicy, "waitPolicy");
    }

    /** {@return one fill worker per core, 4 batches in flight, keep the last batch, back-off waiting} */
    public static SlotLoaderOptions defaults() {
        return new SlotLoaderOptions(Runtime.getRuntime().availableProcessors(), 4, false, WaitPolicy.BACKOFF);
    }

    /**
     * {@return a copy with another fill concurrency}
     *
     * @param n worker threads
     */
    public SlotLoaderOptions withFillConcurrency(int n) {
        return new SlotLoaderOptions(n, batchesInFlight, dropLast, waitPolicy);
    }

    /**
     * {@return a copy with another wait policy for every stage, the source and the consumer}
     *
     * @param p the policy
     */
    public SlotLoaderOptions withWaitPolicy(WaitPolicy p) {
        return new SlotLoaderOptions(fillConcurrency, batchesInFlight, dropLast, p);
    }
}
