package org.spdl4j.examples.clicklog;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.spdl4j.engine.WaitPolicy;

/**
 * What a {@link ClickLogLoader} runs: how many rows at what rate, the batch shape, the ring and how its threads wait.
 * Validated on construction.
 *
 * @param rows             rows the source writes, at least 1
 * @param rate             rows per second, 1 to 10^9, or 0 for as fast as the ring takes them
 * @param warmupRows       rows not recorded in the latency histograms (JIT warm-up), 0 to {@code rows - 1}
 * @param batchSize        rows per column batch, 1 to {@link #MAX_BATCH_SIZE}
 * @param batches          column batches in circulation between the batcher and the training loop, at least 1
 * @param ringCapacity     record ring slots, a power of two, at least {@code normalizeThreads}
 * @param waitPolicy       how every thread waits (the pipeline's, the batcher's and the training loop's)
 * @param normalizeThreads workers of the normalize stage, at least 1
 */
record ClickLogOptions(long rows, long rate, long warmupRows, int batchSize, int batches, int ringCapacity,
                       WaitPolicy waitPolicy, int normalizeThreads) {
    /** Default rows. */
    static final long DEFAULT_ROWS = 2_000_000;
    /** Default rate: a million rows a second. */
    static final long DEFAULT_RATE = 1_000_000;
    /** Default warm-up rows. */
    static final long DEFAULT_WARMUP_ROWS = 200_000;
    /** Default rows per batch. */
    static final int DEFAULT_BATCH_SIZE = 1024;
    /** Default batches in circulation: one filling, one training, two ready. */
    static final int DEFAULT_BATCHES = 4;
    /** Default ring slots. */
    static final int DEFAULT_RING_CAPACITY = 1024;
    /** Largest batch (a batch's columns stay well under 2 GiB). */
    static final int MAX_BATCH_SIZE = 1 << 20;

    /**
     * Validates.
     *
     * @throws IllegalArgumentException listing every problem
     */
    ClickLogOptions {
        Objects.requireNonNull(waitPolicy, "waitPolicy");
        List<String> problems = new ArrayList<>();
        if (rows < 1) {
            problems.add("rows " + rows + " must be at least 1");
        }
        if (rate < 0 || rate > 1_000_000_000L) {
            problems.add("rate " + rate + " must be 0 (unpaced) to 1e9 rows/s");
        }
        if (warmupRows < 0 || warmupRows >= rows) {
            problems.add("warm-up " + warmupRows + " must be 0 to rows - 1");
        }
        if (batchSize < 1 || batchSize > MAX_BATCH_SIZE) {
            problems.add("batch size " + batchSize + " must be 1 to " + MAX_BATCH_SIZE);
        }
        if (batches < 1) {
            problems.add("batches " + batches + " must be at least 1");
        }
        if (ringCapacity < 1 || Integer.bitCount(ringCapacity) != 1 || ringCapacity < normalizeThreads) {
            problems.add("ring capacity " + ringCapacity + " must be a power of two, at least the normalize threads");
        }
        if (normalizeThreads < 1) {
            problems.add("normalize threads " + normalizeThreads + " must be at least 1");
        }
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException(String.join("; ", problems));
        }
    }

    /** {@return the defaults: 2 M rows at 1 M/s, batches of 1024, busy-spin} */
    static ClickLogOptions defaults() {
        return new ClickLogOptions(DEFAULT_ROWS, DEFAULT_RATE, DEFAULT_WARMUP_ROWS, DEFAULT_BATCH_SIZE,
                DEFAULT_BATCHES, DEFAULT_RING_CAPACITY, WaitPolicy.BUSY_SPIN, 1);
    }

    /**
     * {@return these options with another row count and warm-up}
     *
     * @param count  rows
     * @param warmup warm-up rows
     */
    ClickLogOptions withRows(long count, long warmup) {
        return new ClickLogOptions(count, rate, warmup, batchSize, batches, ringCapacity, waitPolicy,
                normalizeThreads);
    }

    /**
     * {@return these options with another rate}
     *
     * @param rowsPerSecond rows per second, or 0 for unpaced
     */
    ClickLogOptions withRate(long rowsPerSecond) {
        return new ClickLogOptions(rows, rowsPerSecond, warmupRows, batchSize, batches, ringCapacity, waitPolicy,
                normalizeThreads);
    }

    /**
     * {@return these options with another batch size}
     *
     * @param size rows per batch
     */
    ClickLogOptions withBatchSize(int size) {
        return new ClickLogOptions(rows, rate, warmupRows, size, batches, ringCapacity, waitPolicy, normalizeThreads);
    }

    /**
     * {@return these options with another wait policy}
     *
     * @param policy the policy
     */
    ClickLogOptions withWaitPolicy(WaitPolicy policy) {
        return new ClickLogOptions(rows, rate, warmupRows, batchSize, batches, ringCapacity, policy, normalizeThreads);
    }

    /**
     * {@return these options with another normalize stage concurrency}
     *
     * @param threads workers
     */
    ClickLogOptions withNormalizeThreads(int threads) {
        return new ClickLogOptions(rows, rate, warmupRows, batchSize, batches, ringCapacity, waitPolicy, threads);
    }
}
