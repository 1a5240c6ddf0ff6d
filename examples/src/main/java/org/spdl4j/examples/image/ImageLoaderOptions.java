package org.spdl4j.examples.image;

import org.spdl4j.engine.OutputOrder;
import org.spdl4j.engine.WaitPolicy;
import org.spdl4j.media.ImageSpec;
import org.spdl4j.media.PixelFormat;
import org.spdl4j.media.RandomResizedCrop;

/**
 * How the image loader runs. Defaults suit the machine it runs on: decode workers = cores, read tasks in flight on
 * virtual threads = 4x cores (I/O), 4 batches in flight, the evaluation transform (short side 256, center crop 224).
 *
 * <p><b>Augmentation</b> ({@link #withAugmentation}, off by default): the training transform instead,
 * {@code RandomResizedCrop(cropSize)} + horizontal flip, each image's crop drawn from a seed made of
 * {@link #augmentSeed()}, the image's epoch ({@link EpochFiles}) and its key: the same run seed gives the same crops
 * for a repeated or resumed epoch, whatever the concurrency or order.
 *
 * @param cropSize          output height and width (224)
 * @param shortSide         resize the short side to this before the center crop (256); unused with augmentation
 * @param batchSize         samples per batch (32)
 * @param dropLast          drop a partial last batch
 * @param readConcurrency   file reads in flight
 * @param decodeConcurrency decode worker threads
 * @param order             output order of the read and decode stages
 * @param waitPolicy        how every stage waits
 * @param batchesInFlight   batches allocated at once (bounds memory: each is batchSize x crop x crop x 3 bytes)
 * @param bufferSize        finished batches buffered for the consumer (a power of two)
 * @param augment           the random crop and flip, or {@code null} for the evaluation transform
 * @param augmentSeed       the run's augmentation seed (ignored without {@code augment})
 */
public record ImageLoaderOptions(int cropSize, int shortSide, int batchSize, boolean dropLast, int readConcurrency,
                                 int decodeConcurrency, OutputOrder order, WaitPolicy waitPolicy, int batchesInFlight,
                                 int bufferSize, RandomResizedCrop augment, long augmentSeed) {
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

    /**
     * Options with the evaluation transform (no augmentation).
     *
     * @param cropSize          output height and width
     * @param shortSide         short side before the center crop
     * @param batchSize         samples per batch
     * @param dropLast          drop a partial last batch
     * @param readConcurrency   file reads in flight
     * @param decodeConcurrency decode worker threads
     * @param order             output order
     * @param waitPolicy        how every stage waits
     * @param batchesInFlight   batches allocated at once
     * @param bufferSize        finished batches buffered for the consumer
     */
    public ImageLoaderOptions(int cropSize, int shortSide, int batchSize, boolean dropLast, int readConcurrency,
                              int decodeConcurrency, OutputOrder order, WaitPolicy waitPolicy, int batchesInFlight,
                              int bufferSize) {
        this(cropSize, shortSide, batchSize, dropLast, readConcurrency, decodeConcurrency, order, waitPolicy,
            batchesInFlight, bufferSize, null, 0);
    }

    /** {@return the defaults for this machine} */
    public static ImageLoaderOptions defaults() {
        int cores = Runtime.getRuntime().availableProcessors();
        return new ImageLoaderOptions(224, 256, 32, false, 4 * cores, cores, OutputOrder.COMPLETION, WaitPolicy.BACKOFF,
            4 + cores / 4, 4);
    }

    /** {@return what the decoder writes per image: RGB, the random crop with augmentation, else the center crop} */
    public ImageSpec imageSpec() {
        return augment != null ? ImageSpec.randomResizedCrop(cropSize, augment, PixelFormat.RGB24)
            : ImageSpec.centerCrop(shortSide, cropSize, PixelFormat.RGB24);
    }

    /**
     * {@return a copy with the training transform, or without it}
     *
     * @param crop the random crop and flip (e.g. {@link RandomResizedCrop#imagenet()}), or {@code null} for the
     *             evaluation transform
     * @param seed the run's augmentation seed
     */
    public ImageLoaderOptions withAugmentation(RandomResizedCrop crop, long seed) {
        return new ImageLoaderOptions(cropSize, shortSide, batchSize, dropLast, readConcurrency, decodeConcurrency,
            order, waitPolicy, batchesInFlight, bufferSize, crop, seed);
    }

    /**
     * {@return a copy with another decode concurrency}
     *
     * @param n decode workers
     */
    public ImageLoaderOptions withDecodeConcurrency(int n) {
        return new ImageLoaderOptions(cropSize, shortSide, batchSize, dropLast, readConcurrency, n, order, waitPolicy,
            batchesInFlight, bufferSize, augment, augmentSeed);
    }

    /**
     * {@return a copy with another read concurrency}
     *
     * @param n reads in flight
     */
    public ImageLoaderOptions withReadConcurrency(int n) {
        return new ImageLoaderOptions(cropSize, shortSide, batchSize, dropLast, n, decodeConcurrency, order, waitPolicy,
            batchesInFlight, bufferSize, augment, augmentSeed);
    }

    /**
     * {@return a copy with another batch size}
     *
     * @param n samples per batch
     */
    public ImageLoaderOptions withBatchSize(int n) {
        return new ImageLoaderOptions(cropSize, shortSide, n, dropLast, readConcurrency, decodeConcurrency, order,
            waitPolicy, batchesInFlight, bufferSize, augment, augmentSeed);
    }

    /**
     * {@return a copy with another output order}
     *
     * @param o the order
     */
    public ImageLoaderOptions withOrder(OutputOrder o) {
        return new ImageLoaderOptions(cropSize, shortSide, batchSize, dropLast, readConcurrency, decodeConcurrency, o,
            waitPolicy, batchesInFlight, bufferSize, augment, augmentSeed);
    }

    /**
     * {@return a copy with another wait policy}
     *
     * @param p the policy
     */
    public ImageLoaderOptions withWaitPolicy(WaitPolicy p) {
        return new ImageLoaderOptions(cropSize, shortSide, batchSize, dropLast, readConcurrency, decodeConcurrency,
            order, p, batchesInFlight, bufferSize, augment, augmentSeed);
    }
}
