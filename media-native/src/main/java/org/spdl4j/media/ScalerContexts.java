package org.spdl4j.media;

import static org.spdl4j.media.NativeResourceCounter.Kind;

import org.bytedeco.ffmpeg.global.avutil;
import org.bytedeco.ffmpeg.global.swscale;
import org.bytedeco.ffmpeg.swscale.SwsContext;

/**
 * A few swscale contexts kept by geometry, so a decoder that sees images of a handful of sizes (a dataset's common
 * resolutions, portrait and landscape) scales each with a context built for it, instead of rebuilding one context
 * whenever the size changes. Building a context computes its filters: about 50 µs for a JPEG scaled to 224 x 224 on
 * a 2-vCPU EPYC, against 0.2 µs for finding it, and a few percent of a whole decode.
 *
 * <p><b>JPEG's YUVJ formats.</b> Before this cache the one context was kept by {@code sws_getCachedContext}, which
 * compares the requested source format with the one the context stores. For a deprecated full-range {@code YUVJ*}
 * format swscale stores the plain {@code YUV*} format (and a full source range), so the comparison never matched and
 * every JPEG rebuilt its context, however often its size repeated (60 µs a frame, measured). The cache compares its
 * own keys, and contexts are built for the plain format ({@link #swsFormat}), which keeps swscale off its
 * deprecated-format path; the full range is applied by {@link FrameScaler}'s {@code sws_setColorspaceDetails} call,
 * which it makes for every frame.
 *
 * <p>Replacement is round-robin over {@link #SLOTS} entries; a replaced entry's context is rebuilt in place by
 * {@code sws_getCachedContext} (no free and allocate). Random crops (a different source rectangle per image) miss
 * every time and cost what they cost before.
 *
 * <p><b>Not thread safe:</b> owned by one {@link FrameScaler}. {@link #free()} frees every context; each live
 * context is counted under {@link Kind#SCALER} so leak checks see it.
 */
final class ScalerContexts {
    /** Contexts kept per scaler: a dataset's few common sizes, both orientations. */
    static final int SLOTS = 8;

    private final SwsContext[] contexts = new SwsContext[SLOTS];
    private final int[] keys = new int[SLOTS * 7]; // srcW, srcH, srcFormat, dstW, dstH, dstFormat, flags per slot
    private int next; // the slot the next miss replaces
    private long builds;

    /**
     * Returns a context for this geometry, building or rebuilding one on a miss.
     *
     * @param srcW source rectangle width
     * @param srcH source rectangle height
     * @param srcFormat the frame's pixel format (a {@code YUVJ*} format is asked for as plain {@code YUV*})
     * @param dstW destination width
     * @param dstH destination height
     * @param dstFormat destination pixel format
     * @param flags swscale flags
     * @param label the input, for errors
     * @return the context, owned by this cache
     * @throws MediaException if swscale cannot build a context for the geometry
     */
    SwsContext get(int srcW, int srcH, int srcFormat, int dstW, int dstH, int dstFormat, int flags, String label) {
        final int fmt = swsFormat(srcFormat);
        for (int i = 0; i < SLOTS; i++) {
            final int k = i * 7;
            if (contexts[i] != null && keys[k] == srcW && keys[k + 1] == srcH && keys[k + 2] == fmt
                    && keys[k + 3] == dstW && keys[k + 4] == dstH && keys[k + 5] == dstFormat && keys[k + 6] == flags) {
                return contexts[i];
            }
        }
        final int i = next;
        next = (next + 1) % SLOTS;
        final SwsContext old = contexts[i];
        contexts[i] = null; // a failed rebuild below frees the old context: never keep a stale pointer
        final SwsContext sws = swscale.sws_getCachedContext(old, srcW, srcH, fmt, dstW, dstH, dstFormat, flags,
                null, null, (double[]) null);
        if (sws == null || sws.isNull()) {
            if (old != null) {
                NativeResourceCounter.freed(Kind.SCALER);
            }
            throw new MediaException(label, "sws_getCachedContext failed for " + srcW + "x" + srcH + " pixel format "
                    + srcFormat + " -> " + dstW + "x" + dstH + " pixel format " + dstFormat);
        }
        if (old == null) {
            NativeResourceCounter.allocated(Kind.SCALER);
        }
        builds++;
        contexts[i] = sws;
        final int k = i * 7;
        keys[k] = srcW;
        keys[k + 1] = srcH;
        keys[k + 2] = fmt;
        keys[k + 3] = dstW;
        keys[k + 4] = dstH;
        keys[k + 5] = dstFormat;
        keys[k + 6] = flags;
        return sws;
    }

    /** {@return how many contexts were built or rebuilt so far (misses)} */
    long builds() {
        return builds;
    }

    /**
     * {@return the format swscale is asked for: a deprecated full-range {@code YUVJ*} format as its plain
     * {@code YUV*} twin (the range is set separately), any other format as is}
     *
     * @param format an {@code AV_PIX_FMT_*} value
     */
    static int swsFormat(int format) {
        if (format == avutil.AV_PIX_FMT_YUVJ420P) {
            return avutil.AV_PIX_FMT_YUV420P;
        } else if (format == avutil.AV_PIX_FMT_YUVJ422P) {
            return avutil.AV_PIX_FMT_YUV422P;
        } else if (format == avutil.AV_PIX_FMT_YUVJ444P) {
            return avutil.AV_PIX_FMT_YUV444P;
        } else if (format == avutil.AV_PIX_FMT_YUVJ440P) {
            return avutil.AV_PIX_FMT_YUV440P;
        } else if (format == avutil.AV_PIX_FMT_YUVJ411P) {
            return avutil.AV_PIX_FMT_YUV411P;
        }
        return format;
    }

    /** Frees every context. */
    void free() {
        for (int i = 0; i < SLOTS; i++) {
            if (contexts[i] != null) {
                swscale.sws_freeContext(contexts[i]);
                contexts[i] = null;
                NativeResourceCounter.freed(Kind.SCALER);
            }
        }
    }
}
