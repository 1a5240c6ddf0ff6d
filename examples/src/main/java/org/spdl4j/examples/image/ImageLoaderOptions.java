package org.spdl4j.examples.image;

import org.spdl4j.engine.OutputOrder;
import org.spdl4j.engine.WaitPolicy;

/**
 * How the image loader runs. Defaults suit the machine it runs on: decode workers = cores, read tasks in flight on
 * virtual threads = 4x cores (I/O), 4 batches in flight.
 *
 * @param cropSize          output height and width (224)
 * @param shortSide         resize the short side to this before the center crop (256)
 * @param batchSize         samples per batch (32)
 * @param dropLast          drop a partial last batch
 * @param readConcurrency   file reads in flight
 * @param decodeConcurrency decode worker threads
 * @param order             output order of the read and decode stages
 * @param waitPolicy        how every stage waits
 * @param batchesInFlight   batches allocated at once (bounds memory: each is batchSize x crop x crop x 3 bytes)
 * @param bufferSize        finished batches buffered for the consumer (a power of two)
 */
public record ImageLoaderOptions(int cropSize, int shortSide, int batchSize, boolean dropLast, int readConcurrency,
                                 int decodeConcurrency, OutputOrder order, WaitPolicy waitPolicy, int batchesInFlight,
                                 int bufferSize) {
    /** Checks the values. */
    public ImageLoaderOptions {
        if (cropSize < 1 || shortSide < cropSize) {
            throw new IllegalArgumentException("crop " + cropSize + " and short side " + shortSide
                + ": need 1 <= crop <= short side");
        }
        if (batchSize < 1 || readConcurrency < 1 || decodeConcurrency < 1) {
            throw new IllegalArgumentException("batch size, read and decode concurrency must be >= 1 (got "
                + batchSize + ", " + readConcurrency + ", " + decodeConcurrency + ")");
        }
        if (batchesInFlight < 2) {
            throw new IllegalArgumentException("batchesInFlight must be >= 2, got " + batchesInFlight);
        }
        if (Integer.bitCount(bufferSize) != 1) {
            throw new IllegalArgumentException("bufferSize must be a power of two, got " + bufferSize);
        }
    }

    /** {@return the defaults for this machine} */
    public static ImageLoaderOptions defaults() {
        int cores = Runtime.getRuntime().availableProcessors();
        return new ImageLoaderOptions(224, 256, 32, false, 4 * cores, cores, OutputOrder.COMPLETION, WaitPolicy.BACKOFF,
            4 + cores / 4, 4);
    }

    /**
     * {@return a copy with another decode concurrency}
     *
     * @param n decode workers
     */
    public ImageLoaderOptions withDecodeConcurrency(int n) {
        return new ImageLoaderOptions(cropSize, shortSide, batchSize, dropLast, readConcurrency, n, order, waitPolicy,
            batchesInFlight, bufferSize);
    }

    /**
     * {@return a copy with another read concurrency}
     *
     * @param n reads in flight
     */
    public ImageLoaderOptions withReadConcurrency(int n) {
        return new ImageLoaderOptions(cropSize, shortSide, batchSize, dropLast, n, decodeConcurrency, order, waitPolicy,
            batchesInFlight, bufferSize);
    }

    /**
     * {@return a copy with another batch size}
     *
     * @param n samples per batch
     */
    public ImageLoaderOptions withBatchSize(int n) {
        return new ImageLoaderOptions(cropSize, shortSide, n, dropLast, readConcurrency, decodeConcurrency, order,
            waitPolicy, batchesInFlight, bufferSize);
    }

    /**
     * {@return a copy with another output order}
     *
     * @param o the order
     */
    public ImageLoaderOptions withOrder(OutputOrder o) {
        return new ImageLoaderOptions(cropSize, shortSide, batchSize, dropLast, readConcurrency, decodeConcurrency, o,
            waitPolicy, batchesInFlight, bufferSize);
    }

    /**
     * {@return a copy with another wait policy}
     *
     * @param p the policy
     */
    public ImageLoaderOptions withWaitPolicy(WaitPolicy p) {
        return new ImageLoaderOptions(cropSize, shortSide, batchSize, dropLast, readConcurrency, decodeConcurrency,
            order, p, batchesInFlight, bufferSize);
    }
}
