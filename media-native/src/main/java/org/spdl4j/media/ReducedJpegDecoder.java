package org.spdl4j.media;

import org.agrona.UnsafeApi;
import org.bytedeco.ffmpeg.avutil.AVFrame;
import org.bytedeco.ffmpeg.global.avutil;
import org.bytedeco.javacpp.Pointer;

import static org.spdl4j.media.NativeResourceCounter.Kind;

/**
 * Decodes a sequential (baseline or extended, Huffman, 8-bit) JPEG at 1/8 scale from its DC coefficients alone (one
 * pixel per 8x8 block, bit for bit what FFmpeg's mjpeg decoder gives with {@code lowres = 3}, at under half its
 * cost), or at 1/4 scale from its four lowest frequencies (2x2 pixels per block, bit for bit FFmpeg's
 * {@code lowres = 2}). At reduced scale both spend nearly all their time in Huffman decoding; this one decodes several
 * AC codes per table lookup and dequantizes, stores and transforms only the coefficients the scale uses (see
 * {@link ReducedJpegScanDecoder}).
 *
 * <p>Scope: gray, or YCbCr with chroma sampled 4:4:4, 4:2:2, 4:4:0, 4:2:0 or 4:1:1, any restart interval, any number
 * of scans. Anything else (progressive, arithmetic, 12-bit, lossless, CMYK, RGB-coded, other samplings, DNL, and the
 * COM and APPn segments that change FFmpeg's picture: {@link ImageSniffer#PICTURE_STATE}) makes {@link #decode} return
 * null, and the caller decodes with FFmpeg.
 *
 * <pre>
 *   planes (one growable native block)          frame (AVFrame, describes the planes, owns no buffer)
 *   +-------------------------+                 format  = yuvj4xxp / gray8, color_range = JPEG
 *   | Y: stride x rows        |  &lt;- data[0]      width   = ceil(W / s), height = ceil(H / s), s = 8 or 4
 *   +-------------------------+                 linesize = plane strides (64-byte multiples)
 *   | Cb | Cr                 |  &lt;- data[1], data[2]
 *   +-------------------------+
 * </pre>
 *
 * <p>Not thread safe: owned by one {@link SingleThreadImageDecoder}. Per image it allocates nothing once its plane
 * block has grown to the largest image seen. {@link #free()} frees the frame; the planes go with the GC's cleaner.
 */
final class ReducedJpegDecoder {
    private static final long DATA_OFFSET;
    private static final long LINESIZE_OFFSET;

    static {
        FFmpeg.init(); // loads avutil's natives, which offsetof needs
        DATA_OFFSET = Pointer.offsetof(AVFrame.class, "data");
        LINESIZE_OFFSET = Pointer.offsetof(AVFrame.class, "linesize");
    }

    /** The largest scale decoded here is 1/4: FFmpeg's lowres 2 (3 is 1/8). */
    static final int MIN_LOWRES = 2;
    private static final int ADOBE_TRANSFORM_OFFSET = 11;

    private final JpegHuffmanTable[] dcTables = tables(false);
    private final JpegHuffmanTable[] acTables = tables(true);
    private final boolean[] dcDefined = new boolean[4];
    private final boolean[] acDefined = new boolean[4];
    /** Per quantization table: the quantizers of zig-zag positions 0, 1, 2 and 4, the only ones 1/4 scale uses. */
    private final int[] quantDc = new int[4];
    private final int[] quant1 = new int[4];
    private final int[] quant2 = new int[4];
    private final int[] quant4 = new int[4];
    private final boolean[] quantDefined = new boolean[4];
    private final JpegFrameHeader header = new JpegFrameHeader();
    private final ReducedJpegScanDecoder scan = new ReducedJpegScanDecoder();
    private final ScratchBuffer planes = new ScratchBuffer();
    private final long[] planeAddress = new long[4];
    private final int[] planeStride = new int[4];
    private final boolean[] decoded = new boolean[4];
    private final AVFrame frame;
    private int restartInterval;
    private int adobeTransform;
    /** Pixels per block side in this image's planes: 1 at 1/8 scale, 2 at 1/4. */
    private int blockPixels;

    ReducedJpegDecoder() {
        frame = NativeAllocations.allocate(avutil::av_frame_alloc, "av_frame_alloc",
                "a new reduced-scale JPEG decoder");
        NativeResourceCounter.allocated(Kind.FRAME);
    }

    private static JpegHuffmanTable[] tables(final boolean ac) {
        return new JpegHuffmanTable[] {
            new JpegHuffmanTable(ac), new JpegHuffmanTable(ac), new JpegHuffmanTable(ac), new JpegHuffmanTable(ac)};
    }

    /**
     * Decodes a JPEG at 1/8 or 1/4 scale.
     *
     * @param address first byte (FF D8)
     * @param length number of bytes
     * @param lowres 3 for 1/8 scale, 2 for 1/4 (FFmpeg's {@code lowres} values)
     * @param limits checked against the frame header before anything is allocated
     * @param label the input, for errors
     * @return a frame describing the reduced-scale planes (valid until the next call), or null when this JPEG is
     *         outside the decoder's scope and FFmpeg must decode it
     * @throws MediaException on corrupt data (the caller may retry with FFmpeg for its verdict)
     */
    AVFrame decode(final long address, final long length, final int lowres, final MediaLimits limits,
                   final String label) {
        if (lowres < MIN_LOWRES || lowres > ScalePlan.MAX_LOWRES) {
            throw new IllegalArgumentException("lowres " + lowres + ": only 2 (1/4) and 3 (1/8) are decoded here");
        }
        reset();
        blockPixels = lowres == 2 ? 2 : 1;
        final long end = address + length;
        long p = address + 2;
        while (true) {
            if (p + 2 > end) {
                break; // no EOI: accepted if every component was decoded (FFmpeg accepts it too)
            }
            if ((UnsafeApi.getByte(p) & 0xFF) != 0xFF) {
                throw new MediaException(label, "JPEG marker expected at byte " + (p - address));
            }
            final int marker = UnsafeApi.getByte(p + 1) & 0xFF;
            if (marker == 0xFF) {
                p++; // fill byte
                continue;
            }
            if (marker == 0xD9) {
                break; // EOI
            }
            if (marker == 0xD8 || marker == 0x01 || (marker >= 0xD0 && marker <= 0xD7) || p + 4 > end) {
                return null; // stray SOI, TEM, RSTn outside a scan, or a segment without a length: FFmpeg decides
            }
            final long segment = p + 4;
            final long segmentEnd = p + 2 + ((UnsafeApi.getByte(p + 2) & 0xFF) << 8 | UnsafeApi.getByte(p + 3) & 0xFF);
            if (segmentEnd < segment || segmentEnd > end) {
                throw new MediaException(label, "JPEG segment 0xFF" + Integer.toHexString(marker).toUpperCase()
                        + " runs past the end of the input");
            }
            switch (marker) {
                case 0xDB -> defineQuantization(segment, segmentEnd, label);
                case 0xC4 -> defineHuffman(segment, segmentEnd, label);
                case 0xDD -> restartInterval = segmentEnd - segment >= 2 ? u16(segment) : restartInterval;
                case 0xEE -> adobeTransform = adobeTransform(segment, segmentEnd);
                case 0xC0, 0xC1 -> {
                    if (!header.parse(segment, segmentEnd, label) || !supportedColor()) {
                        return null;
                    }
                    limits.checkPixels(label, header.width, header.height); // before the planes are allocated
                    allocatePlanes(label);
                }
                case 0xDA -> {
                    if (header.components == 0) {
                        throw new MediaException(label, "JPEG scan (SOS) before the frame header (SOF)");
                    }
                    if (!prepareScan(segment, segmentEnd, label)) {
                        return null;
                    }
                    p = scan.decode(segmentEnd, end, header.scanMcusX, header.scanMcusY, restartInterval,
                            blockPixels == 2, label);
                    continue;
                }
                default -> {
                    if (marker >= 0xC2 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 && marker != 0xCC) {
                        return null; // progressive, lossless, arithmetic or hierarchical: FFmpeg decodes it
                    }
                    if ((ImageSniffer.segmentState(marker, segment, segmentEnd) & ImageSniffer.PICTURE_STATE) != 0) {
                        return null; // a COM or APPn that changes FFmpeg's picture (flipped, limited range...)
                    }
                    // other APPn, COM and the rest carry nothing the reduced image needs
                }
            }
            p = segmentEnd;
        }
        for (int c = 0; c < header.components; c++) {
            if (!decoded[c]) {
                throw new MediaException(label, "JPEG ended before component " + c + " was decoded (missing scan)");
            }
        }
        if (header.components == 0) {
            throw new MediaException(label, "JPEG has no frame header (SOF)");
        }
        return describeFrame(lowres);
    }

    private void reset() {
        restartInterval = 0;
        adobeTransform = -1;
        header.components = 0;
        for (int i = 0; i < 4; i++) {
            dcDefined[i] = false;
            acDefined[i] = false;
            quantDefined[i] = false;
            decoded[i] = false;
        }
    }

    private void defineQuantization(final long from, final long to, final String label) {
        long s = from;
        while (s < to) {
            final int pq = (UnsafeApi.getByte(s) & 0xFF) >> 4;
            final int tq = UnsafeApi.getByte(s) & 15;
            final long next = s + 1 + 64L * (pq + 1);
            if (pq > 1 || tq > 3 || next > to) {
                throw new MediaException(label, "JPEG DQT segment corrupt (precision " + pq + ", table " + tq + ")");
            }
            // Only zig-zag positions 0 (1/8 scale) and 1, 2, 4 (1/4 scale) are used.
            quantDc[tq] = quantizer(s, pq, 0);
            quant1[tq] = quantizer(s, pq, 1);
            quant2[tq] = quantizer(s, pq, 2);
            quant4[tq] = quantizer(s, pq, 4);
            for (int i = 0; i < 64; i++) {
                if (quantizer(s, pq, i) == 0) { // FFmpeg refuses it too (with AV_EF_EXPLODE): its verdict stands
                    throw new MediaException(label, "JPEG DQT segment corrupt: quantizer " + i + " of table " + tq
                            + " is 0");
                }
            }
            quantDefined[tq] = true;
            s = next;
        }
    }

    private static int quantizer(final long table, final int precision, final int zigzag) {
        return precision == 0 ? UnsafeApi.getByte(table + 1 + zigzag) & 0xFF : u16(table + 1 + 2L * zigzag);
    }

    private void defineHuffman(final long from, final long to, final String label) {
        long s = from;
        while (s < to) {
            final int tc = (UnsafeApi.getByte(s) & 0xFF) >> 4;
            final int th = UnsafeApi.getByte(s) & 15;
            if (tc > 1 || th > 3) {
                throw new MediaException(label, "JPEG DHT segment corrupt (class " + tc + ", table " + th + ")");
            }
            final boolean ac = tc == 1;
            s += 1 + (ac ? acTables : dcTables)[th].define(s + 1, to - s - 1, label);
            (ac ? acDefined : dcDefined)[th] = true;
        }
    }

    private static int adobeTransform(final long from, final long to) {
        final boolean adobe = to - from > ADOBE_TRANSFORM_OFFSET && UnsafeApi.getByte(from) == 'A'
                && UnsafeApi.getByte(from + 1) == 'd' && UnsafeApi.getByte(from + 2) == 'o'
                && UnsafeApi.getByte(from + 3) == 'b' && UnsafeApi.getByte(from + 4) == 'e';
        return adobe ? UnsafeApi.getByte(from + ADOBE_TRANSFORM_OFFSET) & 0xFF : -1;
    }

    /** Gray, or three components that are YCbCr (not RGB-coded: Adobe transform 0, or ids 'R','G','B'). */
    private boolean supportedColor() {
        if (header.components == 1) {
            return true;
        }
        final boolean rgbIds = header.id[0] == 'R' && header.id[1] == 'G' && header.id[2] == 'B';
        return header.pixelFormat >= 0 && adobeTransform != 0 && !rgbIds;
    }

    private void allocatePlanes(final String label) {
        long total = 0;
        for (int c = 0; c < header.components; c++) {
            // 64-byte rows for the scaler's SIMD
            planeStride[c] = (header.mcusX * header.h[c] * blockPixels + 63) & ~63;
            total += (long) planeStride[c] * header.mcusY * header.v[c] * blockPixels;
        }
        long a = planes.reserve(total, label);
        for (int c = 0; c < header.components; c++) {
            planeAddress[c] = a;
            a += (long) planeStride[c] * header.mcusY * header.v[c] * blockPixels;
        }
    }

    /** Reads an SOS header and lays out the scan's MCU for the scan decoder; false when FFmpeg must decode it. */
    private boolean prepareScan(final long from, final long to, final String label) {
        final JpegMcuLayout layout = scan.layout;
        final int count = to - from >= 1 ? UnsafeApi.getByte(from) & 0xFF : 0;
        if (count < 1 || count > 4 || to - from < 4 + 2L * count) {
            throw new MediaException(label, "JPEG SOS segment corrupt (" + count + " components)");
        }
        final long params = from + 1 + 2L * count;
        if ((UnsafeApi.getByte(params) & 0xFF) != 0 || (UnsafeApi.getByte(params + 1) & 0xFF) != 63
                || UnsafeApi.getByte(params + 2) != 0) {
            return false; // spectral selection or successive approximation: not a sequential scan
        }
        int blocks = 0;
        for (int i = 0; i < count; i++) {
            final int c = header.componentIndex(UnsafeApi.getByte(from + 1 + 2L * i) & 0xFF);
            final int tables = UnsafeApi.getByte(from + 2 + 2L * i) & 0xFF;
            final int td = tables >> 4;
            final int ta = tables & 15;
            if (c < 0 || decoded[c] || td > 3 || ta > 3 || !dcDefined[td] || !acDefined[ta]
                    || !quantDefined[header.quantTable[c]]) {
                throw new MediaException(label, "JPEG SOS segment corrupt: component " + (c < 0 ? "unknown" : c)
                        + " repeated or its Huffman/quantization tables undefined");
            }
            decoded[c] = true;
            final int bh = count == 1 ? 1 : header.h[c];
            final int bv = count == 1 ? 1 : header.v[c];
            for (int y = 0; y < bv; y++) {
                for (int x = 0; x < bh; x++) {
                    if (blocks == JpegMcuLayout.MAX_BLOCKS) {
                        throw new MediaException(label, "JPEG MCU of more than 10 blocks");
                    }
                    layout.component[blocks] = c;
                    layout.dc[blocks] = dcTables[td];
                    layout.ac[blocks] = acTables[ta];
                    final int q = header.quantTable[c];
                    layout.quant0[blocks] = quantDc[q];
                    layout.quant1[blocks] = quant1[q];
                    layout.quant2[blocks] = quant2[q];
                    layout.quant4[blocks] = quant4[q];
                    layout.base[blocks] = planeAddress[c] + ((long) y * planeStride[c] + x) * blockPixels;
                    layout.rowStep[blocks] = (long) bv * planeStride[c] * blockPixels;
                    layout.columnStep[blocks] = bh * blockPixels;
                    layout.stride[blocks] = planeStride[c];
                    blocks++;
                }
            }
            if (count == 1) {
                header.layoutSingleComponentScan(c);
            }
        }
        if (count > 1) {
            header.layoutInterleavedScan();
        }
        layout.blocks = blocks;
        return true;
    }

    private AVFrame describeFrame(final int lowres) {
        frame.format(header.pixelFormat);
        frame.width(-(-header.width >> lowres)); // ceil, as FFmpeg's AV_CEIL_RSHIFT
        frame.height(-(-header.height >> lowres));
        frame.color_range(avutil.AVCOL_RANGE_JPEG);
        frame.colorspace(avutil.AVCOL_SPC_BT470BG);
        final long f = frame.address();
        for (int c = 0; c < 4; c++) {
            final boolean present = c < header.components;
            UnsafeApi.putLong(f + DATA_OFFSET + 8L * c, present ? planeAddress[c] : 0);
            UnsafeApi.putInt(f + LINESIZE_OFFSET + 4L * c, present ? planeStride[c] : 0);
        }
        return frame;
    }

    private static int u16(final long a) {
        return (UnsafeApi.getByte(a) & 0xFF) << 8 | UnsafeApi.getByte(a + 1) & 0xFF;
    }

    /** Frees the frame description (the planes' memory is released by the GC's cleaner). */
    void free() {
        final long f = frame.address();
        for (int c = 0; c < 4; c++) {
            UnsafeApi.putLong(f + DATA_OFFSET + 8L * c, 0); // not ours to free, and av_frame_free would not
        }
        avutil.av_frame_free(frame);
        NativeResourceCounter.freed(Kind.FRAME);
        planes.free();
    }
}
