package org.spdl4j.examples.training;

import org.agrona.DirectBuffer;

/**
 * The model's input: per-channel mean and standard deviation of a normalized image, pooled over all pixels
 * ({@code 2 x C} features per image). Reads a float32 NCHW batch in place (as the normalize kernel writes it) and
 * writes into a caller's preallocated array; allocates nothing.
 */
public final class PooledFeatures {
    private PooledFeatures() {
    }

    /**
     * {@return features per image for {@code channels} channels}
     *
     * @param channels C
     */
    public static int count(int channels) {
        return 2 * channels;
    }

    /**
     * Pools a batch.
     *
     * @param batch    float32 {@code [n, C, H, W]}, from byte 0
     * @param n        images
     * @param channels C
     * @param pixels   H x W
     * @param into     receives {@code n x count(C)} features, image after image: means, then standard deviations
     */
    public static void pool(DirectBuffer batch, int n, int channels, int pixels, float[] into) {
        int d = count(channels);
        for (int i = 0; i < n; i++) {
            for (int c = 0; c < channels; c++) {
                long plane = ((long) i * channels + c) * pixels * Float.BYTES;
                double sum = 0;
                double squares = 0;
                for (int p = 0; p < pixels; p++) {
                    float v = batch.getFloat((int) (plane + (long) p * Float.BYTES));
                    sum += v;
                    squares += (double) v * v;
                }
                double mean = sum / pixels;
                into[i * d + c] = (float) mean;
                into[i * d + channels + c] = (float) Math.sqrt(Math.max(0, squares / pixels - mean * mean));
            }
        }
    }
}
