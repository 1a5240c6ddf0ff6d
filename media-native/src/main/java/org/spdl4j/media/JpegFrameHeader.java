package org.spdl4j.media;

import org.agrona.UnsafeApi;
import org.bytedeco.ffmpeg.global.avutil;

/**
 * A JPEG frame header (SOF0/SOF1) as {@link ReducedJpegDecoder} needs it: size, components with their sampling factors
 * and quantization tables, the MCU grid, the FFmpeg pixel format of the reduced-scale planes, and the block grid of the
 * scan being decoded.
 *
 * <pre>
 *   SOF segment: P(8) Y(16) X(16) Nf(8) then Nf x [ Ci(8) Hi(4)|Vi(4) Tqi(8) ]
 *   MCU grid:    mcusX = ceil(X / (8 Hmax)), mcusY = ceil(Y / (8 Vmax)); an interleaved MCU holds Hi x Vi blocks of
 *                each component; a single-component scan walks that component's ceil(Xi / 8) x ceil(Yi / 8) blocks
 * </pre>
 *
 * <p>Not thread safe: a mutable flyweight owned by one decoder, rewritten per image (no allocation).
 */
final class JpegFrameHeader {
    int width;
    int height;
    /** Number of components; 0 until a frame header was parsed. */
    int components;
    final int[] id = new int[4];
    final int[] h = new int[4];
    final int[] v = new int[4];
    final int[] quantTable = new int[4];
    int mcusX;
    int mcusY;
    /** AV_PIX_FMT_* of the reduced-scale planes, or -1 for a sampling the reduced path does not handle. */
    int pixelFormat;
    int scanMcusX;
    int scanMcusY;
    private int hMax;
    private int vMax;

    /**
     * Parses a frame header segment.
     *
     * @param from first byte after the segment length
     * @param to one past the segment's last byte
     * @param label the input, for errors
     * @return false for a frame the DC path does not handle (not 8-bit, not 1 or 3 components, height in a DNL
     *         marker); FFmpeg decodes those
     * @throws MediaException when the segment is malformed
     */
    boolean parse(final long from, final long to, final String label) {
        if (components != 0) {
            throw new MediaException(label, "JPEG has two frame headers (SOF)");
        }
        if (to - from < 6) {
            throw new MediaException(label, "JPEG SOF segment truncated");
        }
        final int precision = u8(from);
        height = u16(from + 1);
        width = u16(from + 3);
        final int n = u8(from + 5);
        if (to - from < 6 + 3L * n || n == 0) {
            throw new MediaException(label, "JPEG SOF segment corrupt (" + n + " components)");
        }
        if (precision != 8 || (n != 1 && n != 3) || height == 0 || width == 0) {
            return false;
        }
        hMax = 1;
        vMax = 1;
        for (int c = 0; c < n; c++) {
            id[c] = u8(from + 6 + 3L * c);
            h[c] = u8(from + 7 + 3L * c) >> 4;
            v[c] = u8(from + 7 + 3L * c) & 15;
            quantTable[c] = u8(from + 8 + 3L * c);
            if (h[c] < 1 || h[c] > 4 || v[c] < 1 || v[c] > 4 || quantTable[c] > 3) {
                throw new MediaException(label, "JPEG SOF component " + c + " corrupt (sampling " + h[c] + "x"
                        + v[c] + ", quantization table " + quantTable[c] + ")");
            }
            hMax = Math.max(hMax, h[c]);
            vMax = Math.max(vMax, v[c]);
        }
        components = n;
        mcusX = (width + 8 * hMax - 1) / (8 * hMax);
        mcusY = (height + 8 * vMax - 1) / (8 * vMax);
        pixelFormat = n == 1 ? avutil.AV_PIX_FMT_GRAY8 : yuvFormat();
        return true;
    }

    /** Chroma at 1x1, luma at one of the samplings FFmpeg's yuvj formats describe. */
    private int yuvFormat() {
        if (h[1] != 1 || v[1] != 1 || h[2] != 1 || v[2] != 1) {
            return -1;
        }
        return switch (h[0] << 4 | v[0]) {
            case 0x11 -> avutil.AV_PIX_FMT_YUVJ444P;
            case 0x21 -> avutil.AV_PIX_FMT_YUVJ422P;
            case 0x12 -> avutil.AV_PIX_FMT_YUVJ440P;
            case 0x22 -> avutil.AV_PIX_FMT_YUVJ420P;
            case 0x41 -> avutil.AV_PIX_FMT_YUVJ411P;
            default -> -1;
        };
    }

    /**
     * The index of a component by its id.
     *
     * @param componentId Ci from a scan header
     * @return 0..components-1, or -1 if no component has that id
     */
    int componentIndex(final int componentId) {
        for (int c = 0; c < components; c++) {
            if (id[c] == componentId) {
                return c;
            }
        }
        return -1;
    }

    /** An interleaved scan walks the frame's MCU grid. */
    void layoutInterleavedScan() {
        scanMcusX = mcusX;
        scanMcusY = mcusY;
    }

    /**
     * A single-component scan walks that component's own blocks, one per MCU (T.81 A.2.2).
     *
     * @param c the component
     */
    void layoutSingleComponentScan(final int c) {
        final long componentWidth = ((long) width * h[c] + hMax - 1) / hMax;
        final long componentHeight = ((long) height * v[c] + vMax - 1) / vMax;
        scanMcusX = (int) ((componentWidth + 7) / 8);
        scanMcusY = (int) ((componentHeight + 7) / 8);
    }

    private static int u8(final long a) {
        return UnsafeApi.getByte(a) & 0xFF;
    }

    private static int u16(final long a) {
        return u8(a) << 8 | u8(a + 1);
    }
}
