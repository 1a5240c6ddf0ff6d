package org.spdl4j.engine;

import org.spdl4j.offheap.SystemProperties;

/**
 * The engine's defaults, in one place: named constants, each the default of an option of {@link StageOptions} or
 * {@link PipelineBuilder} where there is one, else a fixed value of the runtime. One is also a system property, read
 * once when this class initialises: {@value #WAIT_POLICY_PROP}, the wait policy of stages whose options name none,
 * which suits the machine more than the code (dedicated cores or shared ones). A value that is no policy fails this
 * class's initialisation with a message naming the property and the policies ({@link SystemProperties}), rather than
 * leaving the default silently in effect; the name is read ignoring case.
 *
 * <p><b>Threading:</b> constants only; immutable.
 */
public final class EngineConfiguration {
    /** Largest ring capacity accepted (2^30 slots). */
    public static final int MAX_RING_CAPACITY = 1 << 30;

    /** Capacity of a stage's input ring unless its options say otherwise ({@link StageOptions#withRingCapacity}). */
    public static final int DEFAULT_RING_CAPACITY = 1024;

    /** Capacity of the ring the consumer reads from, unless {@link PipelineBuilder#sink} says otherwise. */
    public static final int DEFAULT_SINK_BUFFER = 64;

    /** Property: the wait policy of stages whose options name none, by name, ignoring case (see {@link WaitPolicy}). */
    public static final String WAIT_POLICY_PROP = "spdl4j.waitPolicy";

    /**
     * Wait policy of a stage, the source, the sink and a loader unless their options say otherwise
     * ({@link StageOptions#withWaitPolicy}, {@link PipelineBuilder#sourceWaitPolicy}, {@link PipelineBuilder#sink(int,
     * WaitPolicy)}, the loaders' {@code waitPolicy}): {@value #WAIT_POLICY_PROP} when set, else BACKOFF.
     */
    public static final WaitPolicy DEFAULT_WAIT_POLICY =
            SystemProperties.enumValue(WAIT_POLICY_PROP, WaitPolicy.BACKOFF);

    /**
     * The most input sequences a worker takes per claim (64), further bounded by a quarter of the ring. A
     * single-worker stage takes every published item up to this many without a CAS and releases their slots once per
     * run; a shared stage claims {@code min(maxRun, published / workers)} with one CAS. Larger runs cost fewer claims
     * and release stores per item; smaller ones hand slots back to the producer sooner (256 measured slower, 16 and
     * 32 level: docs/benchmarks.md).
     */
    public static final int MAX_RUN = 64;

    /**
     * How sync stages publish unless their options say otherwise ({@link StageOptions#withPublishBatching}): the
     * results of short tasks once per input run, others per item (see {@link PublishBatching}).
     */
    public static final PublishBatching DEFAULT_PUBLISH_BATCHING = PublishBatching.SHORT_TASKS;

    /**
     * How the source publishes unless the builder says otherwise ({@link PipelineBuilder#sourcePublishBatching}).
     * Per item by default because a source's {@code next()} may wait for the consumer (request/response sources,
     * feedback loops), and an item held back across such a call would never reach it.
     */
    public static final PublishBatching DEFAULT_SOURCE_PUBLISH_BATCHING = PublishBatching.PER_ITEM;

    /**
     * A task is short enough to batch its result when the worker's last timed task took less than this (2000 ns).
     * With runs of at most {@link #MAX_RUN} items, a result waits at most about {@code MAX_RUN} times this for the
     * rest of its run (128 µs; typically far less).
     */
    public static final long PUBLISH_BATCH_BELOW_NANOS = 2_000L;

    /** Spins before yielding in the backoff policy (100). */
    public static final int BACKOFF_SPINS = 100;

    /** Idle yields (nobody else wanted the CPU) before parking in the backoff policy (10). */
    public static final int BACKOFF_YIELDS = 10;

    /**
     * A yield taking at least this long means another thread ran on the waiter's CPU, which the backoff policy does
     * not count towards parking (5 µs; 0 would count every yield). See {@link org.spdl4j.engine.ring.BackoffPolicy}.
     */
    public static final long BACKOFF_CONTENDED_YIELD_NANOS = 5_000L;

    /** The longest the backoff policy's yield phase lasts before it parks, contended or not (100 µs). */
    public static final long BACKOFF_YIELD_PHASE_NANOS = 100_000L;

    /** First park period of the backoff policy (1 µs). */
    public static final long BACKOFF_MIN_PARK_NANOS = 1_000L;

    /**
     * Longest park period of the backoff policy (1 ms): how late an idle stage may notice new input, and how often it
     * wakes while idle.
     */
    public static final long BACKOFF_MAX_PARK_NANOS = 1_000_000L;

    /**
     * Timer slack of every thread the engine starts (1,000 ns; the kernel's default is 50 µs): how much later than
     * asked a parked engine thread may wake. At the kernel's default a backoff park of 1 µs lasts 50-70 µs; see
     * {@link org.spdl4j.engine.affinity.ThreadTimerSlack}. Linux only.
     */
    public static final long TIMER_SLACK_NANOS = 1_000L;

    /**
     * How long {@link Pipeline#close()} waits for the engine's threads to end after interrupting them (1500 ms); a
     * thread still alive then is logged with its stack, since its stage function ignores interrupts.
     */
    public static final long CLOSE_TIMEOUT_MILLIS = 1_500L;

    /** Largest concurrency accepted for one stage. */
    public static final int MAX_CONCURRENCY = 1 << 16;

    /** Pipeline name when none is given. */
    public static final String DEFAULT_PIPELINE_NAME = "pipeline";

    private EngineConfiguration() {
    }
}
