package org.spdl4j.offheap.tensor;

/** Order of the axes of an image batch: channels last (NHWC, what decoders write) or channels first (NCHW). */
public enum ImageLayout {
    /** Batch, height, width, channels: pixel (n, y, x, c) at element ((n * H + y) * W + x) * C + c. */
    NHWC,
    /** Batch, channels, height, width: pixel (n, y, x, c) at element ((n * C + c) * H + y) * W + x. */
    NCHW;

    /**
     * The shape of one sample in this layout.
     *
     * @param height   rows
     * @param width    columns
     * @param channels channels per pixel
     * @return {@code [H, W, C]} for NHWC, {@code [C, H, W]} for NCHW
     */
    public long[] sampleShape(int height, int width, int channels) {
        return this == NHWC ? new long[] {height, width, channels} : new long[] {channels, height, width};
    }
}
