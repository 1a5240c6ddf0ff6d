package org.spdl4j.examples.clicklog;

import java.time.Duration;
import java.util.List;
import org.agrona.concurrent.IdleStrategy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.spdl4j.engine.stats.StageStats;
import org.spdl4j.offheap.DirectMemoryAllocator;
import org.spdl4j.records.RecordPipeline;
import org.spdl4j.records.RecordPipelineBuilder;
import org.spdl4j.records.RecordRing;

/**
 * Click-log rows to column batches for a recommendation model's training loop, on one off-heap record ring:
 *
 * <pre>
 *  one record ring (off-heap, 128-byte slots); rows never move, each stage waits on the one before:
 *  source ───▶ normalize ───▶ hash ───▶ consumer: ColumnBatcher ──(full batches)──▶ training loop: next()
 *  (paced rows,  (dense counts   (ids to     (row j of the batch = index j of      (reads the columns,
 *   PacedClick    to floats,     embedding   each of 21 off-heap columns; per-row   close() gives the
 *   Source)       in place)      buckets)    latency into HdrHistogram)             batch back)
 * </pre>
 *
 * Every row sent lands in exactly one batch, in source order; the last batch of the stream may be short.
 *
 * <p><b>Threading:</b> {@link #next()} and closing batches from one thread (the training loop); {@link #close()}
 * from that thread too. <b>Allocation:</b> the ring, batches and histograms at start; none per row or per batch,
 * on any thread. <b>Ownership:</b> {@link #close()} stops the pipeline, then frees the ring and the batches' memory
 * (leaking the batches' block, with an error, if a pipeline thread did not stop, as the pipeline does its ring).
 */
final class ClickLogLoader implements AutoCloseable {
    /** The pipeline's name (threads are {@code spdl4j-click-log-<stage>-<n>}). */
    static final String PIPELINE = "click-log";
    private static final Logger LOG = LoggerFactory.getLogger(ClickLogLoader.class);

    private final RecordPipeline pipeline;
    private final ColumnBatcher batcher;
    private final RowLatency latency;
    private final IdleStrategy idle;
    private boolean completed;
    private boolean ended;
    private boolean closed;

    private ClickLogLoader(ClickLogOptions o) {
        this.latency = new RowLatency(o.warmupRows());
        this.idle = PolicyIdle.of(o.waitPolicy());
        this.batcher = new ColumnBatcher(o.batchSize(), o.batches(), PolicyIdle.of(o.waitPolicy()), latency,
                DirectMemoryAllocator.INSTANCE);
        try {
            this.pipeline = RecordPipelineBuilder.named(PIPELINE).recordLength(ClickRowDescriptor.LENGTH)
                    .ringCapacity(o.ringCapacity()).waitPolicy(o.waitPolicy())
                    .source(new PacedClickSource(o.rows(), o.rate()))
                    .stage("normalize", FeatureStages::normalize, o.normalizeThreads())
                    .stage("hash", FeatureStages::hash, 1)
                    .consumer(batcher)
                    .build();
        } catch (RuntimeException e) {
            batcher.close();
            throw e;
        }
    }

    /**
     * Builds and starts the pipeline.
     *
     * @param options what to run
     * @return the running loader
     */
    static ClickLogLoader start(ClickLogOptions options) {
        ClickLogLoader loader = new ClickLogLoader(options);
        loader.pipeline.start();
        return loader;
    }

    /**
     * Waits for the next column batch, by the wait policy.
     *
     * @return the next batch, in source order (close it when read), or {@code null} once every row was delivered
     * @throws InterruptedException                            if interrupted while waiting
     * @throws org.spdl4j.engine.PipelineFailedException if a stage or the source failed
     * @throws IllegalStateException                           if the loader is closed
     */
    ColumnBatch next() throws InterruptedException {
        if (closed) {
            throw new IllegalStateException("click-log loader is closed");
        }
        idle.reset();
        for (;;) {
            ColumnBatch b = batcher.pollFull();
            if (b != null || ended) {
                return b;
            }
            if (completed || pipeline.awaitCompletion(Duration.ZERO)) {
                // The consumer has seen the end: every full batch is in the queue, and only the last may be partial.
                completed = true;
                b = batcher.pollFull();
                if (b != null) {
                    return b;
                }
                ended = true;
                return batcher.takePartial();
            }
            if (Thread.interrupted()) {
                throw new InterruptedException("interrupted while waiting for a column batch");
            }
            idle.idle();
        }
    }

    /** {@return each row's latency from source to column (read once {@link #next()} returned null)} */
    RowLatency latency() {
        return latency;
    }

    /** {@return the stats of the source, the stages and the consumer} */
    List<StageStats> stats() {
        return pipeline.stats();
    }

    /** Stops the pipeline, then frees the ring and the batches' memory. Idempotent. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        pipeline.close();
        if (pipeline.rings().stream().allMatch(RecordRing::isFreed)) {
            batcher.close();
        } else {
            LOG.error("click-log loader: a pipeline thread did not stop; leaking the column batches' memory rather "
                    + "than freeing it under that thread");
        }
    }
}
