package org.spdl4j.media;

import org.bytedeco.ffmpeg.avformat.AVInputFormat;

/**
 * The memory an image takes while it is decoded, from its header alone, for {@link DecodeMemoryBudget}: the decoded
 * frame (rows padded to FFmpeg's 64-byte alignment) at the scale it is decoded at, in the decoder's output format,
 * plus what the decoder keeps besides at that size (a progressive JPEG's coefficients: two bytes per sample at full
 * scale, whatever the output scale).
 *
 * <ul>
 *   <li>JPEG: one byte per component per pixel (subsampled chroma counted at full size: an upper bound).</li>
 *   <li>PNG: the IHDR's channels, two bytes each at 16 bits ({@link ImageSniffer#pngBytesPerPixel}).</li>
 *   <li>TIFF: samples per pixel times bytes per sample (whole bytes), from the first directory's tags.</li>
 *   <li>WebP, BMP: four bytes per pixel (ARGB or YUVA for WebP, BGRA at most for BMP).</li>
 * </ul>
 *
 * <p>Thread safe (stateless).
 */
final class DecodeMemoryEstimate {
    /** FFmpeg pads every row of a frame to this many bytes (STRIDE_ALIGN with AVX-512). */
    private static final int ROW_ALIGN = 64;
    /** Bytes per pixel where the header gives no better figure. */
    private static final int DEFAULT_BYTES_PER_PIXEL = 4;

    private DecodeMemoryEstimate() {
    }

    /**
     * {@return bytes an image holds while decoded}
     *
     * @param demuxer the sniffed demuxer ({@link ImageSniffer#inputFormat})
     * @param address first encoded byte
     * @param length number of encoded bytes
     * @param width the header's width, positive
     * @param height the header's height, positive
     * @param lowres the DCT scale reduction (JPEG only; 0 for others)
     */
    static long bytes(final AVInputFormat demuxer, final long address, final long length, final int width,
                      final int height, final int lowres) {
        if (demuxer == ImageSniffer.JPEG) {
            final int components = Math.max(1, ImageSniffer.jpegComponents(address, length));
            final long w = ceilShift(width, lowres);
            final long h = ceilShift(height, lowres);
            long total = align(w * components) * h;
            if (ImageSniffer.jpegIsProgressive(address, length)) {
                total += 2L * ceilTo8(width) * ceilTo8(height) * components; // coefficients, in whole 8x8 blocks
            }
            return total;
        }
        int bytesPerPixel = 0;
        if (demuxer == ImageSniffer.PNG) {
            bytesPerPixel = ImageSniffer.pngBytesPerPixel(address, length);
        } else if (demuxer == ImageSniffer.TIFF) {
            final long samples = ImageSniffer.tiffTag(address, length, ImageSniffer.TIFF_SAMPLES_PER_PIXEL, 1);
            final long bits = ImageSniffer.tiffTag(address, length, ImageSniffer.TIFF_BITS_PER_SAMPLE, 1);
            bytesPerPixel = (int) Math.min(32, Math.max(samples, 1) * Math.max((bits + 7) / 8, 1));
        }
        return align((long) width * (bytesPerPixel > 0 ? bytesPerPixel : DEFAULT_BYTES_PER_PIXEL)) * height;
    }

    /**
     * {@return a short description of an image for errors, e.g. "a 10000x10000 PNG"}
     *
     * @param demuxer the sniffed demuxer
     * @param width the header's width
     * @param height the header's height
     */
    static String describe(final AVInputFormat demuxer, final int width, final int height) {
        final String kind = demuxer == ImageSniffer.JPEG ? "JPEG" : demuxer == ImageSniffer.PNG ? "PNG"
                : demuxer == ImageSniffer.WEBP ? "WebP" : demuxer == ImageSniffer.BMP ? "BMP"
                : demuxer == ImageSniffer.TIFF ? "TIFF" : "image";
        return "a " + width + "x" + height + " " + kind;
    }

    private static long ceilShift(final long v, final int shift) {
        return (v + (1L << shift) - 1) >> shift;
    }

    private static long ceilTo8(final long v) {
        return (v + 7) & ~7L;
    }

    private static long align(final long bytes) {
        return (bytes + ROW_ALIGN - 1) / ROW_ALIGN * ROW_ALIGN;
    }
}
