package org.spdl4j.perf.e2e;

/**
 * The work every contender of the end-to-end comparison does per image, the same as torch_baseline.py:
 * decode -> RGB -> resize the short side to 256 (bilinear) -> center crop 224 -> uint8 HWC; batches of 32.
 */
public final class ImageWork {
    /** Short side after resize. */
    public static final int SHORT_SIDE = 256;
    /** Output crop size. */
    public static final int CROP = 224;
    /** Channels (RGB). */
    public static final int CHANNELS = 3;
    /** Bytes of one output sample. */
    public static final int SAMPLE_BYTES = CROP * CROP * CHANNELS;
    /** Samples per batch. */
    public static final int BATCH = 32;

    private ImageWork() {
    }

    /**
     * Size after resizing so the short side is {@link #SHORT_SIDE}, as torch_baseline.py rounds it.
     *
     * @param w source width
     * @param h source height
     * @return {width, height}
     */
    public static int[] resized(int w, int h) {
        double s = (double) SHORT_SIDE / Math.min(w, h);
        return new int[] {Math.max(SHORT_SIDE, (int) Math.round(w * s)), Math.max(SHORT_SIDE, (int) Math.round(h * s))};
    }
}
