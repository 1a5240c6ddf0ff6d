package org.spdl4j.media;

/**
 * Geometry of one scaler pass: which source rectangle is scaled onto which destination rectangle, and the JPEG
 * reduced-scale factor to decode at. Pure arithmetic, no native calls, so it is unit tested on its own.
 *
 * <p>Not thread safe: a mutable flyweight owned by one decoder and recomputed per item (no allocation).
 *
 * <pre>
 *   source (decoded frame)                 destination (spec.width x spec.height)
 *   +---------------------------+          +-------------------+
 *   |   srcX,srcY               |  sws     | dstX,dstY         |   EXACT / CROP: dst rect = whole output
 *   |   +-------------+         |  ---->   | +---------------+ |   PAD: dst rect centered, border = padValue
 *   |   | srcW x srcH |         |          | | dstW x dstH   | |   RANDOM: src rect = the chosen crop mapped
 *   |   +-------------+         |          | +---------------+ |           into the (reduced-scale) frame
 *   +---------------------------+          +-------------------+
 * </pre>
 *
 * <p>For {@link ResizeMode#RANDOM_RESIZED_CROP} the crop is first chosen in full-size source pixels
 * ({@link RandomResizedCrop}, into {@code crop*} and {@code flip}), before the decode, so that the reduced JPEG scale
 * can follow from the crop ({@link #cropLowres}) and the choice does not depend on the scale decoded at.
 */
final class ScalePlan {
    /** FFmpeg's mjpeg decoder supports lowres 1..3 (1/2, 1/4, 1/8). */
    static final int MAX_LOWRES = 3;

    int srcX;
    int srcY;
    int srcW;
    int srcH;
    int dstX;
    int dstY;
    int dstW;
    int dstH;
    /** Random crop, in full-size source pixels (valid when {@link #hasCrop}). */
    int cropX;
    int cropY;
    int cropW;
    int cropH;
    /** Random crop: mirror the output left to right. */
    boolean flip;
    /** Random crop: torchvision's fallback (no random draw fitted). */
    boolean cropFallback;
    /** Whether the crop fields hold this item's choice; {@link #clearCrop} at the start of each item. */
    boolean hasCrop;

    /**
     * The largest DCT scale reduction (0..3) that still leaves the decoded frame at least as large as the size the
     * whole source is resized to, so quality is kept while the decode does 4x, 16x or 64x less work.
     *
     * @param spec the output spec
     * @param width the source width from the JPEG header
     * @param height the source height
     * @return the lowres factor, 0 for a full decode
     */
    static int chooseLowres(final ImageSpec spec, final int width, final int height) {
        if (!spec.lowresAllowed() || width <= 0 || height <= 0) {
            return 0;
        }
        if (spec.mode() == ResizeMode.RANDOM_RESIZED_CROP) {
            throw new IllegalStateException("a random crop's scale follows from the crop: use cropLowres");
        }
        final long needW;
        final long needH;
        switch (spec.mode()) {
            case EXACT -> {
                needW = spec.width();
                needH = spec.height();
            }
            case SHORT_SIDE_CENTER_CROP -> {
                final int s = spec.resizeShortSide();
                needW = width <= height ? s : (long) s * width / height;
                needH = width <= height ? (long) s * height / width : s;
            }
            default -> {
                final double scale = Math.min((double) spec.width() / width, (double) spec.height() / height);
                needW = Math.round(width * scale);
                needH = Math.round(height * scale);
            }
        }
        int n = 0;
        while (n < MAX_LOWRES && ceilShift(width, n + 1) >= needW && ceilShift(height, n + 1) >= needH) {
            n++;
        }
        return n;
    }

    private static long ceilShift(final int v, final int n) {
        return -((-(long) v) >> n);
    }

    /**
     * Random crop: the largest DCT scale reduction (0..3) at which the crop still has at least the output's pixels
     * per side, so it is only ever scaled down. Decided by the crop, not the image: a small crop of a 12 MP photo may
     * allow 1/2 or 1/4 where the whole photo would allow 1/8.
     *
     * @param spec the output spec (its size and whether reduced decoding is allowed)
     * @return the lowres factor, 0 for a full decode
     */
    int cropLowres(final ImageSpec spec) {
        if (!spec.lowresAllowed()) {
            return 0;
        }
        int n = 0;
        while (n < MAX_LOWRES && (cropW >> (n + 1)) >= spec.width() && (cropH >> (n + 1)) >= spec.height()) {
            n++;
        }
        return n;
    }

    /** Forgets the last item's crop (each item chooses its own). */
    void clearCrop() {
        hasCrop = false;
        flip = false;
        cropFallback = false;
    }

    /**
     * Records a chosen crop (called by {@link RandomResizedCrop}).
     *
     * @param x left column, full-size source pixels
     * @param y top row
     * @param w width
     * @param h height
     * @param mirror mirror the output
     * @param fallback torchvision's fallback crop
     */
    void setCrop(final int x, final int y, final int w, final int h, final boolean mirror, final boolean fallback) {
        cropX = x;
        cropY = y;
        cropW = w;
        cropH = h;
        flip = mirror;
        cropFallback = fallback;
        hasCrop = true;
    }

    /**
     * Computes the rectangles for a decoded frame.
     *
     * @param spec the output spec
     * @param width decoded frame width
     * @param height decoded frame height
     * @param log2ChromaW horizontal chroma subsampling of the frame (crop offsets are aligned to it)
     * @param log2ChromaH vertical chroma subsampling
     */
    void compute(final ImageSpec spec, final int width, final int height, final int log2ChromaW,
                 final int log2ChromaH) {
        compute(spec, width, height, 0, log2ChromaW, log2ChromaH);
    }

    /**
     * Computes the rectangles for a frame decoded at a reduced scale.
     *
     * @param spec the output spec
     * @param width decoded frame width
     * @param height decoded frame height
     * @param lowres the frame's DCT scale reduction (0 = full size, 1 = 1/2, 2 = 1/4, 3 = 1/8); used only to map a
     *               random crop (chosen in full-size pixels) into the frame
     * @param log2ChromaW horizontal chroma subsampling of the frame (crop offsets are aligned to it)
     * @param log2ChromaH vertical chroma subsampling
     */
    void compute(final ImageSpec spec, final int width, final int height, final int lowres, final int log2ChromaW,
                 final int log2ChromaH) {
        srcX = 0;
        srcY = 0;
        srcW = width;
        srcH = height;
        dstX = 0;
        dstY = 0;
        dstW = spec.width();
        dstH = spec.height();
        switch (spec.mode()) {
            case EXACT -> {
                // whole source onto whole output
            }
            case SHORT_SIDE_CENTER_CROP -> centerCrop(spec, width, height, log2ChromaW, log2ChromaH);
            case RANDOM_RESIZED_CROP -> randomCrop(width, height, lowres, log2ChromaW, log2ChromaH);
            case PAD -> {
                final double scale = Math.min((double) spec.width() / width, (double) spec.height() / height);
                dstW = (int) Math.max(1, Math.min(spec.width(), Math.round(width * scale)));
                dstH = (int) Math.max(1, Math.min(spec.height(), Math.round(height * scale)));
                dstX = (spec.width() - dstW) / 2;
                dstY = (spec.height() - dstH) / 2;
            }
        }
    }

    /** torchvision: short side -> s, long side -> int(s * long / short); crop offset round((resized - crop) / 2). */
    private void centerCrop(final ImageSpec spec, final int width, final int height, final int log2ChromaW,
                            final int log2ChromaH) {
        final int s = spec.resizeShortSide();
        final long resizedW = width <= height ? s : (long) s * width / height;
        final long resizedH = width <= height ? (long) s * height / width : s;
        // Python's round() is half-to-even: Math.rint, not Math.round, to land on torchvision's exact pixel.
        final long left = (long) Math.rint((resizedW - spec.width()) / 2.0);
        final long top = (long) Math.rint((resizedH - spec.height()) / 2.0);
        // Map the crop rectangle back into source pixels; the scaler then resizes only that region.
        final double sx = (double) width / resizedW;
        final double sy = (double) height / resizedH;
        srcW = clamp((int) Math.round(spec.width() * sx), 1, width);
        srcH = clamp((int) Math.round(spec.height() * sy), 1, height);
        srcX = alignDown(clamp((int) Math.round(left * sx), 0, width - srcW), log2ChromaW);
        srcY = alignDown(clamp((int) Math.round(top * sy), 0, height - srcH), log2ChromaH);
    }

    /**
     * Maps the chosen crop into the decoded frame: each edge divided by 2^lowres and rounded to the nearest frame
     * pixel (at 1/8 scale an edge moves by at most 4 source pixels), at least 1 pixel wide, inside the frame. Then
     * the origin is rounded DOWN to the chroma grid (even columns for 4:2:0 and 4:2:2, even rows for 4:2:0), since
     * chroma planes can only be offset by whole chroma samples: the crop shifts left/up by at most one frame pixel
     * and keeps its size, so it stays inside the frame.
     */
    private void randomCrop(final int width, final int height, final int lowres, final int log2ChromaW,
                            final int log2ChromaH) {
        if (!hasCrop) {
            throw new IllegalStateException("random crop not chosen for this item");
        }
        final long half = (1L << lowres) >> 1;
        final int x0 = clamp((int) ((cropX + half) >> lowres), 0, width - 1);
        final int y0 = clamp((int) ((cropY + half) >> lowres), 0, height - 1);
        final int x1 = clamp((int) (((long) cropX + cropW + half) >> lowres), x0 + 1, width);
        final int y1 = clamp((int) (((long) cropY + cropH + half) >> lowres), y0 + 1, height);
        srcW = x1 - x0;
        srcH = y1 - y0;
        srcX = alignDown(x0, log2ChromaW);
        srcY = alignDown(y0, log2ChromaH);
    }

    private static int clamp(final int v, final int lo, final int hi) {
        return Math.max(lo, Math.min(hi, v));
    }

    /** Chroma planes can only be offset by whole chroma samples: round the luma offset down to that grid. */
    private static int alignDown(final int v, final int log2) {
        return (v >> log2) << log2;
    }
}
