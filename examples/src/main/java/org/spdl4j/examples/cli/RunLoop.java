package org.spdl4j.examples.cli;

import java.time.Duration;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import org.spdl4j.loader.LoadedBatch;
import org.spdl4j.loader.Loader;

/**
 * {@code spdl4j run}'s consumer: takes batches as a training loop would, waits for each one's data to be ready (a
 * device copy), logs its keys ({@code --keys}) and closes it, until the loader ends, {@code --max-batches} is reached
 * or a signal asks to stop ({@link SignalStop}). It asks for batches with a timeout of {@link #POLL}, so a stop is seen
 * within that time even while no batch comes.
 *
 * <p><b>Threading:</b> runs on the calling thread only.
 */
final class RunLoop {
    /** The longest the loop waits for a batch before it looks for a stop again. */
    static final Duration POLL = Duration.ofMillis(100);

    private RunLoop() {
    }

    /** Why the loop ended. */
    enum End {
        /** The loader delivered everything. */
        DONE,
        /** {@code --max-batches} batches were taken. */
        MAX_BATCHES,
        /** SIGINT or SIGTERM. */
        SIGNAL,
        /** A stage's failures exceeded {@code --max-failures} (the loader threw; set by the caller). */
        FAILURE_BUDGET
    }

    /**
     * Consumes batches.
     *
     * @param loader     the loader
     * @param ready      waits for a batch's data to be usable (a device copy), or does nothing
     * @param maxBatches the most batches to take
     * @param keys       where each sample's key and label go, or {@code null}
     * @param stop       asks the loop to stop
     * @param metrics    told the first batch and the totals
     * @param <T>        the batches' data
     * @return why it ended
     * @throws InterruptedException when interrupted while waiting for a batch
     * @throws org.spdl4j.engine.PipelineFailedException when the loader failed (a stage's failure budget spent); the
     *     totals so far are told to {@code metrics} first
     */
    static <T> End drain(Loader<T> loader, Consumer<T> ready, long maxBatches, KeyLog keys, SignalStop stop,
                         RunMetrics metrics) throws InterruptedException {
        long images = 0;
        long batches = 0;
        End end = End.DONE;
        try {
            while (true) {
                if (stop.requested()) {
                    end = End.SIGNAL;
                    break;
                }
                if (batches >= maxBatches) {
                    end = End.MAX_BATCHES;
                    break;
                }
                LoadedBatch<T> batch;
                try {
                    batch = loader.next(POLL);
                } catch (TimeoutException e) {
                    continue; // none yet: look for a stop, then wait again
                }
                if (batch == null) {
                    break;
                }
                try (batch) {
                    if (batches == 0) {
                        metrics.firstBatch();
                    }
                    ready.accept(batch.data()); // a training step would make its stream wait on the copy instead
                    if (keys != null) {
                        keys.write(batch);
                    }
                    images += batch.size();
                    batches++;
                }
            }
        } finally {
            metrics.end(images, batches);
        }
        return end;
    }
}
