package org.spdl4j.examples.cli;

import org.spdl4j.engine.OutputOrder;
import org.spdl4j.engine.WaitPolicy;
import org.spdl4j.loader.LoaderBuilder;

/**
 * The loader settings {@code run} and {@code tune} take from the command line or a config file ({@link PipelineArgs}):
 * what {@code tune} varies and writes. A value.
 *
 * @param batchSize         samples per batch
 * @param readConcurrency   file reads or URL fetches in flight
 * @param decodeConcurrency decode threads
 * @param order             output order of the read and decode stages
 * @param waitPolicy        how every stage waits
 * @param augment           the image training transform instead of the evaluation one
 */
record PipelineSettings(int batchSize, int readConcurrency, int decodeConcurrency, OutputOrder order,
                        WaitPolicy waitPolicy, boolean augment) {
    /** {@return the loader's defaults on this machine: batches of 32, 4 reads per core, a decode thread per core} */
    static PipelineSettings defaults() {
        int cores = Runtime.getRuntime().availableProcessors();
        return new PipelineSettings(LoaderBuilder.DEFAULT_BATCH_SIZE, 4 * cores, cores, OutputOrder.COMPLETION,
            WaitPolicy.BACKOFF, false);
    }

    /** {@return the batches the loader allocates at once: its default, 4 plus one per 4 cores} */
    static int batchesInFlight() {
        return LoaderBuilder.DEFAULT_BATCHES_IN_FLIGHT + Runtime.getRuntime().availableProcessors() / 4;
    }

    /**
     * {@return a copy with another number of decode threads}
     *
     * @param n decode threads
     */
    PipelineSettings withDecodeConcurrency(int n) {
        return new PipelineSettings(batchSize, readConcurrency, n, order, waitPolicy, augment);
    }

    /**
     * {@return a copy with another number of reads in flight}
     *
     * @param n reads in flight
     */
    PipelineSettings withReadConcurrency(int n) {
        return new PipelineSettings(batchSize, n, decodeConcurrency, order, waitPolicy, augment);
    }

    /**
     * Sets these settings on a loader builder.
     *
     * @param builder the builder
     * @param <T>     its batch type
     * @return the builder
     */
    <T> LoaderBuilder<T> applyTo(LoaderBuilder<T> builder) {
        return builder.batchSize(batchSize).readConcurrency(readConcurrency).decodeConcurrency(decodeConcurrency)
            .order(order).waitPolicy(waitPolicy).batchesInFlight(batchesInFlight());
    }
}
