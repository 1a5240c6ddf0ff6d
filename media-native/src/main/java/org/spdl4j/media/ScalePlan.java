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
 *   |   | srcW x srcH |         |          | | dstW x dstH   | |
 *   |   +-------------+         |          | +---------------+ |
 *   +---------------------------+          +-------------------+
 * </pre>
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

    private static int clamp(final int v, final int lo, final int hi) {
        return Math.max(lo, Math.min(hi, v));
    }

    /** Chroma planes can only be offset by whole chroma samples: round the luma offset down to that grid. */
    private static int alignDown(final int v, final int log2) {
        return (v >> log2) << log2;
    }
}
