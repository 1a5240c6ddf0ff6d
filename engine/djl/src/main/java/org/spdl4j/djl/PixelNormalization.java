package org.spdl4j.djl;

import java.util.Arrays;
import java.util.Objects;
import org.agrona.UnsafeApi;

/**
 * Per-channel normalization of 8-bit pixels into float: {@code ((x / 255f) - mean[c]) / std[c]}, computed in that
 * order in float (so it equals, bit for bit, the same three operations done by DJL on a uint8 array), with the
 * layout change from interleaved {@code [H, W, C]} to planar {@code [C, H, W]} on the way.
 *
 * <p>Each channel's 256 results are computed once into a table; the conversion is then one table look-up per
 * element: reads run forward through the pixels, writes go to {@code C} planes, each written forward.
 *
 * <p><b>Threading:</b> immutable. <b>Allocation:</b> none per call. <b>Memory:</b> reads and writes raw addresses
 * (Agrona's {@code UnsafeApi}): the caller guarantees both ranges.
 */
public final class PixelNormalization {
    /** ImageNet's per-channel means (RGB), the usual ones for pretrained vision models. */
    private static final float[] IMAGENET_MEAN = {0.485f, 0.456f, 0.406f};
    /** ImageNet's per-channel standard deviations (RGB). */
    private static final float[] IMAGENET_STD = {0.229f, 0.224f, 0.225f};

    private final float[] mean;
    private final float[] std;
    /** {@code table[c * 256 + x]}: channel {@code c}'s value for byte {@code x}. */
    private final float[] table;

    private PixelNormalization(float[] mean, float[] std) {
        if (mean.length != std.length || mean.length < 1 || mean.length > 4) {
            throw new IllegalArgumentException("mean and std need 1 to 4 channels alike, got " + mean.length + " and "
                + std.length);
        }
        this.mean = mean.clone();
        this.std = std.clone();
        this.table = new float[256 * mean.length];
        for (int c = 0; c < mean.length; c++) {
            if (!(std[c] > 0) || !Float.isFinite(std[c]) || !Float.isFinite(mean[c])) {
                throw new IllegalArgumentException("channel " + c + ": mean " + mean[c] + ", std " + std[c]
                    + " (std must be positive, both finite)");
            }
            for (int x = 0; x < 256; x++) {
                table[c * 256 + x] = ((x / 255f) - mean[c]) / std[c];
            }
        }
    }

    /**
     * Normalization by the given statistics of pixels scaled to {@code [0, 1]}.
     *
     * @param mean per channel
     * @param std  per channel, positive
     * @return the normalization
     * @throws IllegalArgumentException when the lengths differ, are not 1 to 4, or a std is not positive
     */
    public static PixelNormalization of(float[] mean, float[] std) {
        return new PixelNormalization(Objects.requireNonNull(mean, "mean"), Objects.requireNonNull(std, "std"));
    }

    /** {@return ImageNet's RGB statistics: mean (0.485, 0.456, 0.406), std (0.229, 0.224, 0.225)} */
    public static PixelNormalization imagenet() {
        return new PixelNormalization(IMAGENET_MEAN, IMAGENET_STD);
    }

    /** {@return the channels} */
    public int channels() {
        return mean.length;
    }

    /** {@return the means, a copy} */
    public float[] mean() {
        return mean.clone();
    }

    /** {@return the standard deviations, a copy} */
    public float[] std() {
        return std.clone();
    }

    /**
     * The normalized value of one byte of channel {@code c}.
     *
     * @param c the channel
     * @param x the byte, 0 to 255
     * @return {@code ((x / 255f) - mean[c]) / std[c]}
     */
    public float value(int c, int x) {
        return table[c * 256 + x];
    }

    /**
     * Converts {@code pixels} interleaved uint8 pixels of {@link #channels()} channels at {@code src} into planar
     * float32 at {@code dst} (plane {@code c} at {@code dst + 4 * c * pixels}).
     *
     * <p>The source may lie in the last quarter of the destination, {@code src == dst + 3 * pixels * channels}: the
     * pixels are converted in order, and the writes for pixel {@code p} end at or before byte
     * {@code 4 * ((C - 1) * P + p + 1)} of the destination while pixel {@code p + 1} is read from byte
     * {@code 3 * C * P + C * (p + 1)} on; the first is not above the second because {@code (4 - C) * (P - p - 1) >= 0}
     * for {@code C <= 4}, so no byte is written before it is read. Other overlaps are not allowed.
     *
     * @param src    the first pixel's first byte
     * @param dst    the first float of plane 0
     * @param pixels the number of pixels ({@code H * W})
     */
    public void hwcToChw(long src, long dst, int pixels) {
        final float[] t = table;
        final long plane = 4L * pixels;
        if (mean.length == 3) {
            for (int p = 0; p < pixels; p++) {
                final long s = src + 3L * p;
                final long d = dst + 4L * p;
                final int r = UnsafeApi.getByte(s) & 0xff;
                final int g = UnsafeApi.getByte(s + 1) & 0xff;
                final int b = UnsafeApi.getByte(s + 2) & 0xff;
                UnsafeApi.putFloat(d, t[r]);
                UnsafeApi.putFloat(d + plane, t[256 + g]);
                UnsafeApi.putFloat(d + 2 * plane, t[512 + b]);
            }
            return;
        }
        final int channels = mean.length;
        for (int p = 0; p < pixels; p++) {
            final long s = src + (long) channels * p;
            final long d = dst + 4L * p;
            for (int c = 0; c < channels; c++) {
                UnsafeApi.putFloat(d + c * plane, t[c * 256 + (UnsafeApi.getByte(s + c) & 0xff)]);
            }
        }
    }

    @Override
    public String toString() {
        return "normalize mean " + Arrays.toString(mean) + " std " + Arrays.toString(std);
    }
}
