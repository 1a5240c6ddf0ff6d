package org.spdl4j.media;

import org.agrona.UnsafeApi;
import org.bytedeco.ffmpeg.avutil.AVFrame;
import org.bytedeco.ffmpeg.avutil.AVPixFmtDescriptor;
import org.bytedeco.ffmpeg.global.avutil;
import org.bytedeco.ffmpeg.global.swscale;
import org.bytedeco.ffmpeg.swscale.SwsContext;
import org.bytedeco.javacpp.IntPointer;
import org.bytedeco.javacpp.LongPointer;
import org.bytedeco.javacpp.Pointer;
import org.bytedeco.javacpp.PointerPointer;

import static org.spdl4j.media.NativeResourceCounter.Kind;

/**
 * The one swscale pass from a decoded frame to the caller's destination: crop, resize and pixel-format conversion
 * together, written straight to the destination address (the scaler's output pointer IS the destination; the crop is
 * applied by offsetting the source plane pointers, so no intermediate image exists).
 *
 * <p>Not thread safe: owned by one decoder. Keeps a few SwsContexts by geometry ({@link ScalerContexts}: a size seen
 * recently scales without rebuilding its filters) and preallocated native pointer/stride arrays, so a scale allocates
 * nothing. {@link #free()} releases it all.
 */
final class FrameScaler {
    private static final long DATA_OFFSET = Pointer.offsetof(AVFrame.class, "data");
    private static final long LINESIZE_OFFSET = Pointer.offsetof(AVFrame.class, "linesize");
    private static final int PLANES = 4;
    private static final IntPointer BT601 = swscale.sws_getCoefficients(swscale.SWS_CS_ITU601);
    private static final IntPointer BT709 = swscale.sws_getCoefficients(swscale.SWS_CS_ITU709);

    private final LongPointer srcData;
    private final IntPointer srcStride;
    private final LongPointer dstData;
    private final IntPointer dstStride;
    /** {@code uint8_t **} views of {@link #srcData} and {@link #dstData} for sws_scale (they own no memory). */
    private final PointerPointer<Pointer> srcPlanes;
    private final PointerPointer<Pointer> dstPlanes;
    private final ScalerContexts contexts = new ScalerContexts();

    /**
     * Allocates the pointer and stride arrays; when one allocation fails, frees those made before it.
     *
     * @param owner names the decoder or input being set up, for the error when an allocation fails
     * @throws OutOfMemoryError when an allocation fails
     */
    FrameScaler(final String owner) {
        LongPointer sd = null;
        IntPointer ss = null;
        LongPointer dd = null;
        IntPointer ds = null;
        try {
            sd = NativeAllocations.allocate(() -> new LongPointer(PLANES), "scaler source planes", owner);
            ss = NativeAllocations.allocate(() -> new IntPointer(PLANES), "scaler source strides", owner);
            dd = NativeAllocations.allocate(() -> new LongPointer(PLANES), "scaler destination planes", owner);
            ds = NativeAllocations.allocate(() -> new IntPointer(PLANES), "scaler destination strides", owner);
        } catch (final RuntimeException | Error e) {
            closeAll(sd, ss, dd, ds);
            throw e;
        }
        srcData = sd;
        srcStride = ss;
        dstData = dd;
        dstStride = ds;
        srcPlanes = new PointerPointer<>(srcData);
        dstPlanes = new PointerPointer<>(dstData);
        NativeResourceCounter.allocated(Kind.BUFFER);
    }

    private static void closeAll(final Pointer... pointers) {
        for (final Pointer p : pointers) {
            if (p != null) {
                p.close();
            }
        }
    }

    /**
     * Scales {@code plan}'s source rectangle of {@code frame} into {@code plan}'s destination rectangle at
     * {@code dstAddress}, filling the rest (pad mode) with the spec's pad value.
     *
     * @param frame the decoded frame
     * @param plan the geometry, computed for this frame
     * @param spec the output description
     * @param dstAddress the first byte of the output (capacity already checked by the caller)
     * @param label the input, for errors
     */
    void scale(final AVFrame frame, final ScalePlan plan, final ImageSpec spec, final long dstAddress,
               final String label) {
        final int srcFormat = frame.format();
        final AVPixFmtDescriptor desc = avutil.av_pix_fmt_desc_get(srcFormat);
        final boolean subsampledYuv = (desc.flags() & (avutil.AV_PIX_FMT_FLAG_RGB | avutil.AV_PIX_FMT_FLAG_PAL)) == 0
                && desc.nb_components() >= 3 && (desc.log2_chroma_w() > 0 || desc.log2_chroma_h() > 0);
        final SwsContext sws = contexts.get(plan.srcW, plan.srcH, srcFormat, plan.dstW, plan.dstH, spec.format().avPixelFormat(),
                spec.interpolation().swsFlag() | spec.scalerQuality().swsFlags(subsampledYuv), label);
        setColorspace(sws, frame, desc); // every frame: a cached context keeps the last frame's matrix and range
        final boolean palette = (desc.flags() & avutil.AV_PIX_FMT_FLAG_PAL) != 0;

        final long frameAddress = frame.address();
        for (int p = 0; p < PLANES; p++) {
            final long base = UnsafeApi.getLong(frameAddress + DATA_OFFSET + 8L * p);
            if (palette && p > 0) {
                srcData.put(p, base); // the palette: passed as is, never offset
                srcStride.put(p, UnsafeApi.getInt(frameAddress + LINESIZE_OFFSET + 4L * p));
                continue;
            }
            final int stride = UnsafeApi.getInt(frameAddress + LINESIZE_OFFSET + 4L * p);
            final boolean chroma = p == 1 || p == 2;
            final int y = chroma ? plan.srcY >> desc.log2_chroma_h() : plan.srcY;
            final long xBytes = base == 0 || plan.srcX == 0 ? 0 : avutil.av_image_get_linesize(srcFormat, plan.srcX, p);
            srcData.put(p, base == 0 ? 0 : base + (long) y * stride + Math.max(0, xBytes));
            srcStride.put(p, stride);
        }
        for (int p = 1; p < PLANES; p++) {
            dstData.put(p, 0);
            dstStride.put(p, 0);
        }
        final int rowBytes = spec.rowBytes();
        final int channels = spec.format().channels();
        dstData.put(0, dstAddress + (long) plan.dstY * rowBytes + (long) plan.dstX * channels);
        dstStride.put(0, rowBytes);
        final int rows = swscale.sws_scale(sws, srcPlanes, srcStride, 0, plan.srcH, dstPlanes, dstStride);
        if (rows != plan.dstH) {
            throw new MediaException(label, "sws_scale wrote " + rows + " rows, expected " + plan.dstH
                    + (rows < 0 ? ": " + FFmpeg.errorText(rows) : ""), Math.min(rows, 0), null);
        }
        if (spec.mode() == ResizeMode.PAD) {
            // After the scaler, not before: its SIMD row writers may store a few bytes past dstW (into the right
            // border, or the next row's left border), which the fill then overwrites.
            fillBorder(plan, spec, dstAddress);
        }
    }

    /** Sets the source matrix and range; the destination is always full-range (RGB or full-range gray). */
    private static void setColorspace(final SwsContext sws, final AVFrame frame, final AVPixFmtDescriptor desc) {
        final boolean rgb = (desc.flags() & avutil.AV_PIX_FMT_FLAG_RGB) != 0;
        final boolean yuvColor = !rgb && desc.nb_components() >= 3;
        final int range = frame.color_range();
        final boolean fullRange = range == avutil.AVCOL_RANGE_JPEG
                || (range != avutil.AVCOL_RANGE_MPEG && !yuvColor)
                || isJpegYuv(frame.format());
        final IntPointer matrix = frame.colorspace() == avutil.AVCOL_SPC_BT709 ? BT709 : BT601;
        // Returns an error for RGB -> RGB, where there is nothing to set; ignoring it is correct.
        swscale.sws_setColorspaceDetails(sws, matrix, fullRange ? 1 : 0, BT601, 1, 0, 1 << 16, 1 << 16);
    }

    private static boolean isJpegYuv(final int format) {
        return format == avutil.AV_PIX_FMT_YUVJ420P || format == avutil.AV_PIX_FMT_YUVJ422P
                || format == avutil.AV_PIX_FMT_YUVJ444P || format == avutil.AV_PIX_FMT_YUVJ440P
                || format == avutil.AV_PIX_FMT_YUVJ411P;
    }

    /**
     * Pad mode: writes the pad value around the scaled rectangle only (the scaler has written the inside), once the
     * scaler is done.
     */
    private static void fillBorder(final ScalePlan plan, final ImageSpec spec, final long dst) {
        final int rowBytes = spec.rowBytes();
        final int channels = spec.format().channels();
        final byte v = (byte) spec.padValue();
        UnsafeApi.setMemory(dst, (long) plan.dstY * rowBytes, v);
        final long below = (long) (plan.dstY + plan.dstH) * rowBytes;
        UnsafeApi.setMemory(dst + below, (long) spec.height() * rowBytes - below, v);
        final long left = (long) plan.dstX * channels;
        final long right = (long) (spec.width() - plan.dstX - plan.dstW) * channels;
        for (int y = plan.dstY; y < plan.dstY + plan.dstH; y++) {
            final long row = dst + (long) y * rowBytes;
            if (left > 0) {
                UnsafeApi.setMemory(row, left, v);
            }
            if (right > 0) {
                UnsafeApi.setMemory(row + rowBytes - right, right, v);
            }
        }
    }

    /** {@return how many swscale contexts this scaler built or rebuilt (cache misses)} */
    long contextBuilds() {
        return contexts.builds();
    }

    /** Frees the scaler contexts and the pointer arrays. */
    void free() {
        contexts.free();
        closeAll(srcData, srcStride, dstData, dstStride);
        NativeResourceCounter.freed(Kind.BUFFER);
    }

    /**
     * {@return log2 of the column grid a crop's left edge must sit on in frames of this format} The chroma grid;
     * for bit-packed formats (1-bit MONOBLACK/MONOWHITE: a source pointer moves by whole bytes) at least 8 columns;
     * for Bayer mosaics at least 2 (an odd edge would swap the colour pattern).
     *
     * @param desc the frame's pixel format
     */
    static int cropAlignLog2W(final AVPixFmtDescriptor desc) {
        final long flags = desc.flags();
        if ((flags & avutil.AV_PIX_FMT_FLAG_BITSTREAM) != 0) {
            return Math.max(desc.log2_chroma_w(), 3);
        }
        if ((flags & avutil.AV_PIX_FMT_FLAG_BAYER) != 0) {
            return Math.max(desc.log2_chroma_w(), 1);
        }
        return desc.log2_chroma_w();
    }

    /**
     * {@return log2 of the row grid a crop's top edge must sit on: the chroma grid, at least 2 rows for Bayer}
     *
     * @param desc the frame's pixel format
     */
    static int cropAlignLog2H(final AVPixFmtDescriptor desc) {
        if ((desc.flags() & avutil.AV_PIX_FMT_FLAG_BAYER) != 0) {
            return Math.max(desc.log2_chroma_h(), 1);
        }
        return desc.log2_chroma_h();
    }
}
