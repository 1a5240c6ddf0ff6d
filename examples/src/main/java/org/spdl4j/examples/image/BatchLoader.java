package org.spdl4j.examples.image;

import java.util.List;
import org.spdl4j.engine.stats.StageStats;
import org.spdl4j.offheap.batch.Batch;

/**
 * A loader of off-heap image batches, whatever the storage: what the command line runs and reports on.
 * Batches belong to the consumer, which closes each; iterate from one thread.
 */
public interface BatchLoader extends Iterable<Batch>, AutoCloseable {
    /** {@return per-stage statistics, source first, sink last} */
    List<StageStats> stats();

    /** {@return images that could not be read or decoded so far (each dropped from its batch)} */
    long failedImages();

    /**
     * {@return why an image could not be read or decoded: the first failure of the earliest stage that had one (its
     * message names the image), or {@code null} when none failed}
     */
    Throwable firstFailure();

    /**
     * The label of sample {@code i} of a batch this loader produced (valid until the batch is closed).
     *
     * @param batch the batch
     * @param i     the sample index
     * @return its label
     */
    int label(Batch batch, int i);

    /**
     * Stops every stage and frees pools and native contexts; must not throw. If a stage function outlives the
     * pipeline's close (it ignores interrupts), they are leaked instead, with an error logged
     * ({@link org.spdl4j.examples.StoppedPipelines}).
     */
    @Override
    void close();
}
