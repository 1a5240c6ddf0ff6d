package org.spdl4j.media;

import org.agrona.UnsafeApi;
import org.bytedeco.ffmpeg.avformat.AVInputFormat;
import org.bytedeco.ffmpeg.global.avformat;

/**
 * Picks FFmpeg's image demuxer from an input's first bytes, so decoding skips format probing, and reads a JPEG's
 * declared size from its SOF marker (needed before decoding to choose the reduced DCT scale and to refuse oversized
 * frames before any allocation).
 *
 * <p>Thread safe: the AVInputFormat objects point at FFmpeg's static, immutable demuxer descriptions.
 */
final class ImageSniffer {
    static final AVInputFormat JPEG;
    static final AVInputFormat PNG;
    static final AVInputFormat WEBP;
    static final AVInputFormat BMP;
    static final AVInputFormat TIFF;

    static {
        FFmpeg.init();
        JPEG = avformat.av_find_input_format("jpeg_pipe");
        PNG = avformat.av_find_input_format("png_pipe");
        WEBP = avformat.av_find_input_format("webp_pipe");
        BMP = avformat.av_find_input_format("bmp_pipe");
        TIFF = avformat.av_find_input_format("tiff_pipe");
    }

    private ImageSniffer() {
    }

    /**
     * The demuxer for JPEG, PNG, WebP, BMP or TIFF bytes.
     *
     * @param address first byte
     * @param length number of bytes
     * @return the demuxer, or null to let FFmpeg probe (other formats, or too short to tell)
     */
    static AVInputFormat inputFormat(final long address, final long length) {
        if (length >= 3 && u8(address) == 0xFF && u8(address + 1) == 0xD8 && u8(address + 2) == 0xFF) {
            return JPEG;
        }
        if (length >= 8 && u8(address) == 0x89 && u8(address + 1) == 'P' && u8(address + 2) == 'N'
                && u8(address + 3) == 'G') {
            return PNG;
        }
        if (length >= 12 && u8(address) == 'R' && u8(address + 1) == 'I' && u8(address + 2) == 'F'
                && u8(address + 3) == 'F' && u8(address + 8) == 'W' && u8(address + 9) == 'E'
                && u8(address + 10) == 'B' && u8(address + 11) == 'P') {
            return WEBP;
        }
        if (length >= 2 && u8(address) == 'B' && u8(address + 1) == 'M') {
            return BMP;
        }
        if (length >= 8 && TIFF != null && (u8(address) == 'I' && u8(address + 1) == 'I' && u8(address + 2) == 42
                && u8(address + 3) == 0 || u8(address) == 'M' && u8(address + 1) == 'M' && u8(address + 2) == 0
                && u8(address + 3) == 42)) {
            return TIFF;
        }
        return null;
    }

    /**
     * Reads width and height from a JPEG's first SOFn segment, walking the marker segments by their lengths. Stray
     * bytes between segments (which libjpeg warns about and FFmpeg skips) are skipped up to the next 0xFF.
     *
     * @param address first byte (FF D8)
     * @param length number of bytes
     * @return {@code width << 32 | height}, or -1 when no SOF segment is found inside the bytes
     */
    static long jpegSize(final long address, final long length) {
        final long p = jpegFrameHeader(address, length);
        if (p < 0 || p + 9 > length) {
            return -1;
        }
        final long height = (u8(address + p + 5) << 8) | u8(address + p + 6);
        final long width = (u8(address + p + 7) << 8) | u8(address + p + 8);
        return width << 32 | height;
    }

    /**
     * {@return whether a JPEG's frame is coded without a DCT: lossless (SOF3, 7, 11, 15) or JPEG-LS (SOF55), which
     * FFmpeg cannot decode at reduced scale ({@code lowres}); false when no frame header is found}
     *
     * @param address first byte (FF D8)
     * @param length number of bytes
     */
    static boolean jpegIsLossless(final long address, final long length) {
        final long p = jpegFrameHeader(address, length);
        if (p < 0) {
            return false;
        }
        final int marker = u8(address + p + 1);
        return marker == 0xF7 || (marker & 0xF3) == 0xC3; // C3, C7, CB, CF
    }

    /**
     * {@return whether FFmpeg's mjpeg decoder reads a segment after this marker by its length (and so never scans its
     * contents for markers)}: the frame headers it decodes (SOF0..SOF3, JPEG-LS SOF55 and LSE), DHT, DQT, DRI, APPn
     * and COM. Past any other marker (JPG, DAC, DNL, JPGn, and the SOFs it refuses) it moves on by the marker's two
     * bytes and scans what follows for markers.
     */
    private static boolean hasLengthFfmpegReads(final int marker) {
        return (marker >= 0xC0 && marker <= 0xC4) || marker == 0xDB || marker == 0xDD
                || (marker >= 0xE0 && marker <= 0xEF) || marker == 0xFE || marker == 0xF7 || marker == 0xF8;
    }

    /**
     * Bits of {@link #jpegContextKey} above the tables: segments whose content sets state in FFmpeg's mjpeg decoder
     * that no later image resets (mjpeg_decode_com, mjpeg_decode_app). COM "AVID..." or APPn "AVI1": buggy AVID.
     */
    static final int BUGGY_AVID = 1 << 12;
    /** COM "CS=ITU601": every later frame is limited-range YUV. */
    static final int ITU601 = 1 << 13;
    /** COM "Metasoft MJPEG Codec": every later frame is flipped upside down. */
    static final int FLIPPED = 1 << 14;
    /** APPn "LJIF", colour space 1: RGB. */
    static final int LJIF_RGB = 1 << 15;
    /** APPn "LJIF", colour space 2: Pegasus RCT (every later frame read as 9-bit). */
    static final int LJIF_RCT = 1 << 16;
    /** APPn "colr": the JPEG-LS colour transform. */
    static final int COLR = 1 << 17;
    /** APPn "xfrm": the JPEG-LS colour transform. */
    static final int XFRM = 1 << 18;
    /**
     * The state bits that change the picture FFmpeg gives for the very image that sets them (all but
     * {@link #BUGGY_AVID}, which only makes it stop after the first scan): {@link ReducedJpegDecoder} leaves such
     * images to FFmpeg.
     */
    static final int PICTURE_STATE = ITU601 | FLIPPED | LJIF_RGB | LJIF_RCT | COLR | XFRM;

    /**
     * {@return what a JPEG sets in FFmpeg's mjpeg decoder before its first scan that outlives the image, as a bit
     * set: bit {@code 4 * class + id} for each DHT table (DC 0..3, AC 4..7), bit {@code 8 + id} for each DQT table,
     * and the state bits ({@link #BUGGY_AVID} to {@link #XFRM}) of its COM and APPn segments; 0 when it sets none}
     *
     * <p>FFmpeg's mjpeg decoder keeps the tables of the images it decoded (a flush does not reset them), and an image
     * that leaves a table out is decoded with what the context holds: the standard Huffman tables in a new context
     * (Motion JPEG frames carry no DHT), the previous image's otherwise. It also keeps what a few comments and
     * application segments set: a COM "Metasoft MJPEG Codec" flips every later picture, a COM "CS=ITU601" makes every
     * later one limited-range. {@link CodecContextCache} keys contexts by this set, so a context only ever sees images
     * that set the same, and what an image leaves unset no image in that context ever set: as in a new context,
     * whatever came before. What is defined only after the first scan (tables in progressive JPEGs) is not counted.
     *
     * @param address first byte (FF D8)
     * @param length number of bytes
     */
    static int jpegContextKey(final long address, final long length) {
        int key = 0;
        for (long p = nextMarker(address, length, 2); p >= 0; ) {
            final int marker = u8(address + p + 1);
            if (marker == 0xD9 || marker == 0xDA) {
                return key; // end of image or first scan: the walk never reads the entropy-coded data
            }
            if (!hasLengthFfmpegReads(marker)) {
                p = nextMarker(address, length, p + 2); // a frame header FFmpeg refuses: it steps over its marker
                continue;
            }
            final long end = Math.min(length, p + 2 + ((u8(address + p + 2) << 8) | u8(address + p + 3)));
            if (marker == 0xC4) {
                key |= huffmanTables(address, p + 4, end);
            } else if (marker == 0xDB) {
                key |= quantizationTables(address, p + 4, end);
            } else {
                key |= segmentState(marker, address + p + 4, address + end);
            }
            p = nextMarker(address, length, end);
        }
        return key;
    }

    /**
     * {@return the state bits ({@link #BUGGY_AVID} to {@link #XFRM}) a JPEG segment sets in FFmpeg's mjpeg decoder:
     * a COM's text (mjpeg_decode_com) or an APPn's identifier (mjpeg_decode_app); 0 for other segments}
     *
     * @param marker the segment's marker (the byte after FF)
     * @param from address of the segment's first byte after its length
     * @param end address one past its last byte
     */
    static int segmentState(final int marker, final long from, final long end) {
        if (marker == 0xFE) {
            if (startsWith(from, end, "AVID")) {
                return BUGGY_AVID;
            }
            if (startsWith(from, end, "CS=ITU601")) { // FFmpeg: strcmp; a longer comment counts too (harmless)
                return ITU601;
            }
            return startsWith(from, end, "Metasoft MJPEG Codec") ? FLIPPED : 0;
        }
        if (marker < 0xE0 || marker > 0xEF) {
            return 0;
        }
        if (startsWith(from, end, "AVI1")) {
            return BUGGY_AVID;
        }
        if (startsWith(from, end, "LJIF")) {
            final int colourSpace = from + 12 < end ? u8(from + 12) : 0; // after the id and 8 bytes
            return colourSpace == 1 ? LJIF_RGB : colourSpace == 2 ? LJIF_RCT : 0;
        }
        if (startsWith(from, end, "colr")) {
            return COLR;
        }
        return startsWith(from, end, "xfrm") ? XFRM : 0;
    }

    private static boolean startsWith(final long from, final long end, final String text) {
        if (end - from < text.length()) {
            return false;
        }
        for (int i = 0; i < text.length(); i++) {
            if (u8(from + i) != text.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    /** {@return the DHT tables defined in a segment's entries from {@code s} to {@code end}: bit 4 * class + id} */
    private static int huffmanTables(final long address, final long from, final long end) {
        int tables = 0;
        long s = from;
        while (s + 17 <= end) {
            final int classAndId = u8(address + s);
            tables |= 1 << (((classAndId >> 4) & 1) * 4 + (classAndId & 3));
            int values = 0;
            for (int i = 1; i <= 16; i++) {
                values += u8(address + s + i);
            }
            s += 17 + values;
        }
        return tables;
    }

    /** {@return the DQT tables defined in a segment's entries from {@code s} to {@code end}: bit 8 + id} */
    private static int quantizationTables(final long address, final long from, final long end) {
        int tables = 0;
        long s = from;
        while (s < end) {
            final int precisionAndId = u8(address + s);
            tables |= 1 << (8 + (precisionAndId & 3));
            s += 1 + 64L * (((precisionAndId >> 4) & 1) + 1);
        }
        return tables;
    }

    /**
     * {@return the offset of a JPEG's frame header (the FF of its SOF marker: SOF0..SOF15 but DHT, JPG and DAC, or
     * JPEG-LS's SOF55), or -1 when none comes before the first scan inside the bytes}
     */
    private static long jpegFrameHeader(final long address, final long length) {
        for (long p = nextMarker(address, length, 2); p >= 0; ) {
            final int marker = u8(address + p + 1);
            if (marker == 0xD9 || marker == 0xDA) {
                return -1; // end of image or start of scan before any frame header
            }
            if (isFrameHeader(marker)) {
                return p;
            }
            p = nextMarker(address, length, p + 2 + ((u8(address + p + 2) << 8) | u8(address + p + 3)));
        }
        return -1;
    }

    /**
     * {@return the offset of the next marker at or after {@code from} that ends a walk of a JPEG's header (EOI, SOS),
     * is a frame header, or starts a segment FFmpeg reads by its length; -1 when none is inside the bytes} Passed
     * over, as FFmpeg's mjpeg decoder passes them: bytes that are not {@code FF C0..FE} (stray bytes, fill bytes), and
     * the two bytes of markers it finds but does not parse (SOI, RSTn, JPG, DAC, DNL, JPGn...), whose "segment" it
     * scans for markers, so a DHT hidden there is read, and must be seen here too.
     */
    private static long nextMarker(final long address, final long length, final long from) {
        long p = from;
        while (p + 4 <= length) {
            final int marker = u8(address + p + 1);
            if (u8(address + p) != 0xFF || marker == 0xFF || marker < 0xC0) {
                p++; // a stray or fill byte, or FF followed by what FFmpeg's find_marker does not take
            } else if (marker == 0xD9 || marker == 0xDA || isFrameHeader(marker) || hasLengthFfmpegReads(marker)) {
                return p;
            } else {
                p += 2;
            }
        }
        return -1;
    }

    /** {@return whether the marker is a frame header: SOF0..SOF15 but DHT, JPG and DAC, or JPEG-LS's SOF55} */
    private static boolean isFrameHeader(final int marker) {
        return (marker >= 0xC0 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 && marker != 0xCC)
                || marker == 0xF7;
    }

    /**
     * Reads the declared size from the header of a PNG (IHDR), BMP (info header), WebP (VP8, VP8L or VP8X), TIFF (its
     * first image file directory) or JPEG.
     *
     * @param format the demuxer {@link #inputFormat} chose
     * @param address first byte
     * @param length number of bytes
     * @return {@code width << 32 | height}, or -1 when unknown (other formats, or header not inside the bytes)
     */
    static long declaredSize(final AVInputFormat format, final long address, final long length) {
        if (format == JPEG) {
            return jpegSize(address, length);
        }
        if (format == PNG && length >= 24) {
            return pack(be32(address + 16), be32(address + 20));
        }
        if (format == BMP && length >= 26) {
            if (le32(address + 14) == 12) { // BITMAPCOREHEADER (Windows 2.x, OS/2 1.x): 16-bit width and height
                return pack(le16(address + 18), le16(address + 20));
            }
            return pack(le32(address + 18), Math.abs((long) (int) le32(address + 22))); // negative = top-down
        }
        if (format == TIFF) {
            final long width = tiffTag(address, length, TIFF_IMAGE_WIDTH, -1);
            final long height = tiffTag(address, length, TIFF_IMAGE_LENGTH, -1);
            return width >= 0 && height >= 0 ? pack(width, height) : -1;
        }
        if (format == WEBP && length >= 30) {
            final long chunk = le32(address + 12);
            if (chunk == 0x58385056L) { // "VP8X": 24-bit canvas width-1, height-1
                return pack(le24(address + 24) + 1, le24(address + 27) + 1);
            }
            if (chunk == 0x4C385056L) { // "VP8L": 14-bit width-1, height-1 after the 0x2F signature
                final long bits = le32(address + 21);
                return pack((bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1);
            }
            if (chunk == 0x20385056L) { // "VP8 ": 14-bit sizes after the key-frame start code
                return pack(le16(address + 26) & 0x3FFF, le16(address + 28) & 0x3FFF);
            }
        }
        return -1;
    }

    /**
     * {@return the number of components a JPEG's frame header declares (1 gray, 3 colour, 4 CMYK or YCCK), or 0 when
     * no frame header is found}
     *
     * @param address first byte (FF D8)
     * @param length number of bytes
     */
    static int jpegComponents(final long address, final long length) {
        final long p = jpegFrameHeader(address, length);
        return p < 0 || p + 10 > length ? 0 : u8(address + p + 9);
    }

    /**
     * {@return whether a JPEG's frame is progressive (SOF2, 6, 10, 14): FFmpeg then keeps every coefficient of the
     * image (two bytes per sample) besides the picture}
     *
     * @param address first byte (FF D8)
     * @param length number of bytes
     */
    static boolean jpegIsProgressive(final long address, final long length) {
        final long p = jpegFrameHeader(address, length);
        return p >= 0 && (u8(address + p + 1) & 0xF3) == 0xC2; // C2, C6, CA, CE
    }

    /**
     * {@return bytes per pixel of the frame FFmpeg's PNG decoder gives for a PNG, from its IHDR (channels of the
     * colour type times 2 for 16-bit samples, 1 for palette and sub-byte depths), or 0 when the header is too short}
     *
     * @param address first byte (89 'P' 'N' 'G')
     * @param length number of bytes
     */
    static int pngBytesPerPixel(final long address, final long length) {
        if (length < 26) {
            return 0;
        }
        final int depth = u8(address + 24);
        final int channels = switch (u8(address + 25)) {
            case 2 -> 3; // RGB
            case 4 -> 2; // gray + alpha
            case 6 -> 4; // RGBA
            default -> 1; // gray, palette
        };
        return depth == 16 ? 2 * channels : channels;
    }

    /** TIFF tags read before decoding. */
    static final int TIFF_IMAGE_WIDTH = 256;
    static final int TIFF_IMAGE_LENGTH = 257;
    static final int TIFF_BITS_PER_SAMPLE = 258;
    static final int TIFF_SAMPLES_PER_PIXEL = 277;

    /**
     * {@return the first value of a tag of a TIFF's first image file directory (a BYTE, SHORT or LONG: the value
     * itself when it fits the entry, else the first of the values it points at), or {@code missing} when the tag, the
     * directory or the value lies outside the bytes}
     *
     * @param address first byte ("II*\0" or "MM\0*")
     * @param length number of bytes
     * @param tag the tag number
     * @param missing what to return when it is not there
     */
    static long tiffTag(final long address, final long length, final int tag, final long missing) {
        final boolean little = u8(address) == 'I';
        final long ifd = tiff32(address, 4, little);
        if (ifd < 8 || ifd + 2 > length) {
            return missing;
        }
        final long entries = tiff16(address, ifd, little);
        for (long i = 0; i < entries; i++) {
            final long e = ifd + 2 + 12 * i;
            if (e + 12 > length) {
                return missing;
            }
            if (tiff16(address, e, little) != tag) {
                continue;
            }
            final long type = tiff16(address, e + 2, little);
            final long count = tiff32(address, e + 4, little);
            final long size = type == 1 ? 1 : type == 3 ? 2 : type == 4 ? 4 : 0; // BYTE, SHORT, LONG
            if (size == 0 || count < 1) {
                return missing;
            }
            long at = e + 8;
            if (size * count > 4) {
                at = tiff32(address, e + 8, little);
                if (at + size > length) {
                    return missing;
                }
            }
            return size == 1 ? u8(address + at) : size == 2 ? tiff16(address, at, little) : tiff32(address, at, little);
        }
        return missing;
    }

    private static long tiff16(final long address, final long offset, final boolean little) {
        return little ? le16(address + offset) : (u8(address + offset) << 8) | u8(address + offset + 1);
    }

    private static long tiff32(final long address, final long offset, final boolean little) {
        return little ? le32(address + offset) : be32(address + offset);
    }

    private static long pack(final long width, final long height) {
        return width << 32 | (height & 0xFFFF_FFFFL);
    }

    private static long be32(final long a) {
        return ((long) u8(a) << 24) | (u8(a + 1) << 16) | (u8(a + 2) << 8) | u8(a + 3);
    }

    private static long le32(final long a) {
        return ((long) u8(a + 3) << 24) | (u8(a + 2) << 16) | (u8(a + 1) << 8) | u8(a);
    }

    private static long le24(final long a) {
        return (u8(a + 2) << 16) | (u8(a + 1) << 8) | u8(a);
    }

    private static long le16(final long a) {
        return (u8(a + 1) << 8) | u8(a);
    }

    private static int u8(final long address) {
        return UnsafeApi.getByte(address) & 0xFF;
    }
}
