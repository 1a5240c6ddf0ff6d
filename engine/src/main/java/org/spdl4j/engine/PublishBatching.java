package org.spdl4j.engine;

/**
 * When a stage's thread makes its results visible to the next stage: a latency/throughput trade-off, per stage
 * ({@link StageOptions#publishBatching()}) and for the source ({@link PipelineBuilder#sourcePublishBatching}).
 *
 * <p>Publishing a result is a claim on the output ring, a write of its slot and a release store of the ring's cursor
 * (with several publishing workers: a CAS on the shared cursor and an availability flag). The consumer that waits on
 * the cursor pays a cache miss for each store it sees. A batch pays the claim, the cursor store and the consumer's
 * miss once for all its results, as a Disruptor handler does when it flushes at {@code endOfBatch}; the price is that
 * the first result of a batch waits for the last.
 *
 * <p>Applies to sync pipes ({@link PipelineBuilder#pipe}) in {@link OutputOrder#COMPLETION} order, or with one worker,
 * and to the source. Async, virtual-thread, aggregate and disaggregate stages, and {@link OutputOrder#INPUT} stages
 * with several workers (their reorder window publishes), publish per item.
 */
public enum PublishBatching {
    /** Publish each result as soon as its task returns: the lowest latency per item. */
    PER_ITEM,
    /**
     * Batch the results of short tasks: while the stage's last timed task took less than
     * {@link EngineConfiguration#PUBLISH_BATCH_BELOW_NANOS} (2 µs), a worker keeps the results of its current input
     * run (the items it took at once from its input ring, at most {@link EngineConfiguration#MAX_RUN}) and publishes
     * them as one claimed range when the run is used up, before it may wait for more input. A result then waits at
     * most for the rest of its run, a few short tasks; slower tasks (decoding, I/O) are published one by one. The
     * source, when asked to ({@link PipelineBuilder#sourcePublishBatching}), stages up to the same number of items
     * while its calls are short and its ring has room for them, and publishes them when the batch is full, before an
     * item that came from a slow call or finds no room, and at the source's end or failure.
     *
     * <p>Whether a task is short is read from the last <em>timed</em> task (tasks under 2 µs are timed one in 64,
     * under 200 ns one in 1024, see {@link org.spdl4j.engine.stats.SampledTaskTimer}): when tasks turn slow without
     * warning, the results staged before them wait until their run ends; a timed task sees the change within
     * {@link org.spdl4j.engine.stats.StatsConfiguration#TIMING_SAMPLE_PERIOD} (64) tasks
     * ({@link org.spdl4j.engine.stats.StatsConfiguration#TIMING_TINY_SAMPLE_PERIOD}, 1024, after tiny ones), and the
     * runs that start after it publish per item.
     *
     * <p>A function or source that <em>waits for the pipeline's consumer</em> (a credit or request/response protocol,
     * a feedback loop) must use {@link #PER_ITEM}: a result held back may be what the consumer needs before it sends
     * the signal the function waits for. That is why the source defaults to {@link #PER_ITEM}
     * ({@link EngineConfiguration#DEFAULT_SOURCE_PUBLISH_BATCHING}).
     */
    SHORT_TASKS
}
