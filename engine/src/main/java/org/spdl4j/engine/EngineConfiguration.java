package org.spdl4j.engine;

import org.spdl4j.offheap.SystemProperties;

/**
 * The engine's defaults, in one place. Each is a named constant read once from a system property ({@code spdl4j.*})
 * with the value shown as fallback, so a deployment tunes without code and a test sees fixed values. A property set
 * to a value that does not parse or is out of range fails this class's initialisation with a message naming it
 * ({@link SystemProperties}), rather than leaving the default silently in effect; wait policies and publish batchings
 * are read by name, ignoring case.
 */
public final class EngineConfiguration {
    /** Largest ring capacity accepted (2^30 slots). */
    public static final int MAX_RING_CAPACITY = 1 << 30;

    /** Capacity of a stage's input ring unless its options say otherwise ({@code spdl4j.ringCapacity}, 1024). */
    public static final int DEFAULT_RING_CAPACITY =
            SystemProperties.powerOfTwoValue("spdl4j.ringCapacity", 1024, MAX_RING_CAPACITY);

    /** Capacity of the ring the consumer reads from ({@code spdl4j.sinkBuffer}, 64). */
    public static final int DEFAULT_SINK_BUFFER =
            SystemProperties.powerOfTwoValue("spdl4j.sinkBuffer", 64, MAX_RING_CAPACITY);

    /** Wait policy of a stage unless its options say otherwise ({@code spdl4j.waitPolicy}, BACKOFF). */
    public static final WaitPolicy DEFAULT_WAIT_POLICY =
            SystemProperties.enumValue("spdl4j.waitPolicy", WaitPolicy.BACKOFF);

    /**
     * The most input sequences a worker takes per claim ({@code spdl4j.maxRun}, 64), further bounded by a quarter of
     * the ring. A single-worker stage takes every published item up to this many without a CAS and releases their
     * slots once per run; a shared stage claims {@code min(maxRun, published / workers)} with one CAS. Larger runs
     * cost fewer claims and release stores per item; smaller ones hand slots back to the producer sooner. 1 restores
     * one claim and one release per item.
     */
    public static final int MAX_RUN = SystemProperties.intValue("spdl4j.maxRun", 64, 1, Integer.MAX_VALUE);

    /**
     * How sync stages publish unless their options say otherwise ({@code spdl4j.publishBatching}, SHORT_TASKS): the
     * results of short tasks once per input run, others per item (see {@link PublishBatching}).
     */
    public static final PublishBatching DEFAULT_PUBLISH_BATCHING =
            SystemProperties.enumValue("spdl4j.publishBatching", PublishBatching.SHORT_TASKS);

    /**
     * How the source publishes unless the builder says otherwise ({@code spdl4j.source.publishBatching}, PER_ITEM).
     * Per item by default because a source's {@code next()} may wait for the consumer (request/response sources,
     * feedback loops), and an item held back across such a call would never reach it.
     */
    public static final PublishBatching DEFAULT_SOURCE_PUBLISH_BATCHING =
            SystemProperties.enumValue("spdl4j.source.publishBatching", PublishBatching.PER_ITEM);

    /**
     * A task is short enough to batch its result when the worker's last timed task took less than this
     * ({@code spdl4j.publishBatch.belowNanos}, 2000 ns). With runs of at most {@link #MAX_RUN} items, a result waits
     * at most about {@code MAX_RUN} times this for the rest of its run (128 µs at the defaults; typically far less).
     */
    public static final long PUBLISH_BATCH_BELOW_NANOS =
            SystemProperties.longValue("spdl4j.publishBatch.belowNanos", 2_000L, 0, Long.MAX_VALUE);

    /** Spins before yielding in the backoff policy ({@code spdl4j.backoff.spins}, 100). */
    public static final int BACKOFF_SPINS =
            SystemProperties.intValue("spdl4j.backoff.spins", 100, 0, Integer.MAX_VALUE);

    /**
     * Idle yields (nobody else wanted the CPU) before parking in the backoff policy ({@code spdl4j.backoff.yields},
     * 10).
     */
    public static final int BACKOFF_YIELDS =
            SystemProperties.intValue("spdl4j.backoff.yields", 10, 0, Integer.MAX_VALUE);

    /**
     * A yield taking at least this long means another thread ran on the waiter's CPU, which the backoff policy does
     * not count towards parking ({@code spdl4j.backoff.contendedYieldNanos}, 5 µs; 0 counts every yield). See
     * {@link org.spdl4j.engine.ring.BackoffPolicy}.
     */
    public static final long BACKOFF_CONTENDED_YIELD_NANOS =
            SystemProperties.longValue("spdl4j.backoff.contendedYieldNanos", 5_000L, 0, Long.MAX_VALUE);

    /**
     * The longest the backoff policy's yield phase lasts before it parks, contended or not
     * ({@code spdl4j.backoff.yieldPhaseNanos}, 100 µs).
     */
    public static final long BACKOFF_YIELD_PHASE_NANOS =
            SystemProperties.longValue("spdl4j.backoff.yieldPhaseNanos", 100_000L, 0, Long.MAX_VALUE);

    /** First park period of the backoff policy ({@code spdl4j.backoff.minParkNanos}, 1 µs). */
    public static final long BACKOFF_MIN_PARK_NANOS =
            SystemProperties.longValue("spdl4j.backoff.minParkNanos", 1_000L, 1, Long.MAX_VALUE);

    /**
     * Longest park period of the backoff policy ({@code spdl4j.backoff.maxParkNanos}, 1 ms): how late an idle stage
     * may notice new input, and how often it wakes while idle.
     */
    public static final long BACKOFF_MAX_PARK_NANOS =
            SystemProperties.longValue("spdl4j.backoff.maxParkNanos", 1_000_000L, 1, Long.MAX_VALUE);

    /**
     * Timer slack of every thread the engine starts ({@code spdl4j.timerSlackNanos}, 1,000 ns; 0 or less leaves the
     * kernel's default, 50 µs): how much later than asked a parked engine thread may wake. At the default slack a
     * backoff park of 1 µs lasts 50-70 µs; see {@link org.spdl4j.engine.affinity.ThreadTimerSlack}. Linux only.
     */
    public static final long TIMER_SLACK_NANOS =
            SystemProperties.longValue("spdl4j.timerSlackNanos", 1_000L, Long.MIN_VALUE, Long.MAX_VALUE);

    /**
     * How long {@link Pipeline#close()} waits for the engine's threads to end after interrupting them
     * ({@code spdl4j.closeTimeoutMillis}, 1500).
     */
    public static final long CLOSE_TIMEOUT_MILLIS = // at most a day: close's deadlines add to it in nanoseconds
            SystemProperties.longValue("spdl4j.closeTimeoutMillis", 1_500L, 0, 86_400_000L);

    /** Largest concurrency accepted for one stage. */
    public static final int MAX_CONCURRENCY = 1 << 16;

    /** Pipeline name when none is given. */
    public static final String DEFAULT_PIPELINE_NAME = "pipeline";

    private EngineConfiguration() {
    }
}
