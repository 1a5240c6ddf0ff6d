package org.spdl4j.examples.training;

import org.agrona.DirectBuffer;
import org.spdl4j.cuda.DeviceBatch;
import org.spdl4j.loader.LoadedBatch;

/**
 * The in-JVM training loop: for each batch the loader delivers (already copied to the device by its transfer stage),
 * read its labels, normalize it on the device ({@link DeviceNormalizer}), pool features on the CPU
 * ({@link PooledFeatures}) and take one gradient step of the {@link SoftmaxRegression}. The loader keeps decoding and
 * copying the next batches meanwhile, on its own threads.
 *
 * <p><b>Threading:</b> one thread (the trainer's) calls everything. <b>Allocation:</b> feature and label arrays are
 * sized once for the batch size.
 */
public final class TrainingLoop {
    private final DeviceNormalizer normalizer;
    private final SoftmaxRegression model;
    private final int pixels;
    private final float[] features;
    private final int[] labels;
    private final int[] correct = new int[1];

    /**
     * Creates the loop.
     *
     * @param normalizer the device step
     * @param model      the model, with {@link PooledFeatures#count(int)} features for 3 channels
     * @param batchSize  the loader's batch size
     * @param height     image height
     * @param width      image width
     */
    public TrainingLoop(DeviceNormalizer normalizer, SoftmaxRegression model, int batchSize, int height, int width) {
        this.normalizer = normalizer;
        this.model = model;
        this.pixels = height * width;
        this.features = new float[batchSize * PooledFeatures.count(3)];
        this.labels = new int[batchSize];
    }

    /**
     * Trains on every batch once.
     *
     * @param batches the loader (each batch is consumed and closed here)
     * @return loss and accuracy over the pass
     */
    public EpochResult train(Iterable<LoadedBatch<DeviceBatch>> batches) {
        return pass(batches, true);
    }

    /**
     * Measures accuracy without updating the model (held-out data).
     *
     * @param batches the loader (each batch is consumed and closed here)
     * @return accuracy over the pass (loss reported as NaN)
     */
    public EpochResult evaluate(Iterable<LoadedBatch<DeviceBatch>> batches) {
        return pass(batches, false);
    }

    private EpochResult pass(Iterable<LoadedBatch<DeviceBatch>> batches, boolean train) {
        long start = System.nanoTime();
        long images = 0;
        long right = 0;
        double lossSum = 0;
        for (LoadedBatch<DeviceBatch> batch : batches) {
            try (batch) {
                int n = batch.size();
                for (int i = 0; i < n; i++) {
                    labels[i] = batch.label(i);
                }
                DirectBuffer nchw = normalizer.normalize(batch.data());
                PooledFeatures.pool(nchw, n, 3, pixels, features);
                if (train) {
                    lossSum += model.step(features, labels, n, correct) * n;
                    right += correct[0];
                } else {
                    for (int i = 0; i < n; i++) {
                        right += model.predict(features, i) == labels[i] ? 1 : 0;
                    }
                }
                images += n;
            }
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        return new EpochResult(images, train && images > 0 ? lossSum / images : Double.NaN,
            images == 0 ? 0 : right / (double) images, seconds);
    }
}
