package org.spdl4j.perf.e2e;

import java.nio.file.Path;
import java.util.List;

/** One loader in the end-to-end comparison: loads every file once, in batches, with a given number of threads. */
public interface Contender {
    /** Receives each finished batch's size (the consumer does no work, like an infinitely fast training step). */
    @FunctionalInterface
    interface BatchConsumer {
        /**
         * Called once per batch, on the consuming thread.
         *
         * @param samples samples in the batch
         */
        void accept(int samples);
    }

    /** {@return the name shown in results} */
    String name();

    /**
     * Loads every file once.
     *
     * @param files    the images
     * @param threads  decode threads to use
     * @param consumer receives each batch
     * @throws Exception when loading fails
     */
    void run(List<Path> files, int threads, BatchConsumer consumer) throws Exception;
}
