package org.spdl4j.cuda;

import java.util.Arrays;

/**
 * Per-channel normalization {@code (x / 255 - mean[c]) / std[c]}, folded into one multiply-add
 * {@code fma(x, scale[c], bias[c])} with {@code scale[c] = 1 / (255 * std[c])} and {@code bias[c] = -mean[c] / std[c]},
 * computed once here in float so the GPU kernel and the Java reference use identical constants. Up to
 * {@link #MAX_CHANNELS} channels.
 *
 * <p>Immutable; thread-safe.
 */
public final class ChannelNormalization {
    /** Most channels the kernel takes (its constants are passed by value). */
    public static final int MAX_CHANNELS = 4;

    private final float[] scale;
    private final float[] bias;
    /** The kernel's by-value argument, built once: scale[4] then bias[4], unused channels zero. */
    private final float[] packed = new float[2 * MAX_CHANNELS];

    private ChannelNormalization(float[] mean, float[] std) {
        if (mean.length != std.length || mean.length == 0 || mean.length > MAX_CHANNELS) {
            throw new IllegalArgumentException("need 1.." + MAX_CHANNELS + " channels with as many means as stds, got "
                    + Arrays.toString(mean) + " / " + Arrays.toString(std));
        }
        scale = new float[mean.length];
        bias = new float[mean.length];
        for (int c = 0; c < mean.length; c++) {
            if (!(std[c] > 0f) || !Float.isFinite(std[c]) || !Float.isFinite(mean[c])) {
                throw new IllegalArgumentException("channel " + c + ": std must be finite and > 0, mean finite; got mean "
                        + mean[c] + ", std " + std[c]);
            }
            scale[c] = 1f / (255f * std[c]);
            bias[c] = -mean[c] / std[c];
            packed[c] = scale[c];
            packed[MAX_CHANNELS + c] = bias[c];
        }
    }

    /**
     * Normalization by mean and standard deviation of pixel values scaled to [0, 1].
     *
     * @param mean per-channel mean (for ImageNet RGB: 0.485, 0.456, 0.406)
     * @param std  per-channel standard deviation (ImageNet: 0.229, 0.224, 0.225), each &gt; 0
     * @return the normalization
     */
    public static ChannelNormalization of(float[] mean, float[] std) {
        return new ChannelNormalization(mean.clone(), std.clone());
    }

    /** {@return the number of channels} */
    public int channels() {
        return scale.length;
    }

    /**
     * Returns the multiplier of one channel.
     *
     * @param c channel index
     * @return {@code 1 / (255 * std[c])}
     */
    public float scale(int c) {
        return scale[c];
    }

    /**
     * Returns the offset of one channel.
     *
     * @param c channel index
     * @return {@code -mean[c] / std[c]}
     */
    public float bias(int c) {
        return bias[c];
    }

    /** {@return the kernel's by-value argument (shared, read-only): scale[4] then bias[4], unused channels zero} */
    float[] packedAffine() {
        return packed;
    }
}
