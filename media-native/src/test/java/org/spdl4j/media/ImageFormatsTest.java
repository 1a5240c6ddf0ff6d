package org.spdl4j.media;

import org.agrona.concurrent.UnsafeBuffer;
import org.bytedeco.ffmpeg.global.avutil;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import javax.imageio.IIOImage;
import javax.imageio.ImageIO;
import javax.imageio.ImageWriter;
import javax.imageio.stream.MemoryCacheImageOutputStream;
import java.awt.image.BufferedImage;
import java.awt.image.WritableRaster;
import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every supported image kind decodes to the right pixels: exactly for lossless sources (PNG, BMP, lossless WebP),
 * within stated tolerances against ImageIO's independent decoder for JPEG.
 */
class ImageFormatsTest {
    /** JPEG tolerance vs ImageIO (libjpeg): IDCT and chroma upsampling differ; mean |diff| per byte and max. */
    static final double JPEG_MEAN_TOLERANCE = 1.5;
    static final int JPEG_MAX_TOLERANCE = 24;

    @AfterEach
    void shouldLeaveNoNativeResources() {
        assertThat(NativeResourceCounter.outstanding()).as(NativeResourceCounter.describe()).isZero();
    }

    private static byte[] decode(final byte[] file, final ImageSpec spec) {
        try (SingleThreadImageDecoder d = new SingleThreadImageDecoder(MediaLimits.DEFAULT)) {
            final UnsafeBuffer dst = TestImages.nativeBuffer(spec.bytes());
            assertThat(d.decode(TestImages.offHeap(file), 0, file.length, "test", spec, dst, 0))
                    .isEqualTo(spec.bytes());
            return TestImages.bytes(dst, spec.bytes());
        }
    }

    @Test
    void shouldDecodePngExactly() {
        final BufferedImage img = TestImages.noise(67, 41, BufferedImage.TYPE_INT_RGB, 1);
        assertThat(decode(TestImages.encode(img, "png"), ImageSpec.exact(67, 41, PixelFormat.RGB24)))
                .isEqualTo(TestImages.rgb(img));
    }

    @Test
    void shouldDecodePngWithAlphaExactly() {
        final BufferedImage img = TestImages.noise(33, 20, BufferedImage.TYPE_INT_ARGB, 2);
        final byte[] out = decode(TestImages.encode(img, "png"), ImageSpec.exact(33, 20, PixelFormat.RGBA));
        for (int y = 0; y < 20; y++) {
            for (int x = 0; x < 33; x++) {
                final int p = img.getRGB(x, y);
                final int i = (y * 33 + x) * 4;
                assertThat(new int[] {out[i] & 0xFF, out[i + 1] & 0xFF, out[i + 2] & 0xFF, out[i + 3] & 0xFF})
                        .containsExactly((p >> 16) & 0xFF, (p >> 8) & 0xFF, p & 0xFF, (p >>> 24) & 0xFF);
            }
        }
    }

    @Test
    void shouldDecodeGrayPngExactly() {
        final BufferedImage img = TestImages.noise(40, 30, BufferedImage.TYPE_BYTE_GRAY, 3);
        final byte[] expected = new byte[40 * 30];
        img.getRaster().getDataElements(0, 0, 40, 30, expected);
        assertThat(decode(TestImages.encode(img, "png"), ImageSpec.exact(40, 30, PixelFormat.GRAY8)))
                .isEqualTo(expected);
    }

    @Test
    void shouldDecode16BitPngWithinOneLevel() {
        final int w = 32;
        final int h = 16;
        final int[] values = new int[w * h * 3];
        final byte[] be = new byte[w * h * 6];
        for (int i = 0; i < values.length; i++) {
            values[i] = (i * 7919) & 0xFFFF;
            be[2 * i] = (byte) (values[i] >> 8);
            be[2 * i + 1] = (byte) values[i];
        }
        final byte[] png = FfmpegTestEncoder.image("png", avutil.AV_PIX_FMT_RGB48BE, w, h, null,
                (f, i) -> FfmpegTestEncoder.putPacked(f, be, w * 6));
        final byte[] out = decode(png, ImageSpec.exact(w, h, PixelFormat.RGB24));
        for (int i = 0; i < values.length; i++) {
            assertThat(out[i] & 0xFF).as("sample %d", i).isCloseTo(Math.round(values[i] / 257f),
                    org.assertj.core.data.Offset.offset(1));
        }
    }

    @Test
    void shouldDecodeBmpExactlyAsRgbAndBgr() {
        final BufferedImage img = TestImages.noise(31, 17, BufferedImage.TYPE_3BYTE_BGR, 4);
        final byte[] bmp = TestImages.encode(img, "bmp");
        final byte[] rgb = TestImages.rgb(img);
        assertThat(decode(bmp, ImageSpec.exact(31, 17, PixelFormat.RGB24))).isEqualTo(rgb);
        final byte[] bgr = decode(bmp, ImageSpec.exact(31, 17, PixelFormat.BGR24));
        for (int i = 0; i < rgb.length; i += 3) {
            assertThat(new byte[] {bgr[i + 2], bgr[i + 1], bgr[i]}).containsExactly(rgb[i], rgb[i + 1], rgb[i + 2]);
        }
    }

    @Test
    void shouldDecodeLosslessWebpExactly() {
        final int w = 48;
        final int h = 24;
        // Photo-like content: FFmpeg's own VP8L decoder rejects some libwebp lossless streams of pure noise
        // (AVERROR_INVALIDDATA; this build has no libwebp decoder), see media-native/README.md.
        final byte[] rgb = TestImages.rgb(TestImages.photo(w, h, 5));
        final byte[] bgra = new byte[w * h * 4];
        for (int i = 0; i < w * h; i++) {
            bgra[4 * i] = rgb[3 * i + 2];
            bgra[4 * i + 1] = rgb[3 * i + 1];
            bgra[4 * i + 2] = rgb[3 * i];
            bgra[4 * i + 3] = (byte) 255;
        }
        final byte[] webp = FfmpegTestEncoder.image("libwebp", avutil.AV_PIX_FMT_BGRA, w, h, "lossless=1",
                (f, i) -> FfmpegTestEncoder.putPacked(f, bgra, w * 4));
        assertThat(new String(webp, 8, 4, java.nio.charset.StandardCharsets.US_ASCII)).isEqualTo("WEBP");
        assertThat(decode(webp, ImageSpec.exact(w, h, PixelFormat.RGB24))).isEqualTo(rgb);
    }

    @Test
    void shouldDecodeLossyWebpCloseToSource() {
        final BufferedImage img = TestImages.photo(160, 120, 6);
        final byte[] rgb = TestImages.rgb(img);
        final byte[] bgra = new byte[160 * 120 * 4];
        for (int i = 0; i < 160 * 120; i++) {
            bgra[4 * i] = rgb[3 * i + 2];
            bgra[4 * i + 1] = rgb[3 * i + 1];
            bgra[4 * i + 2] = rgb[3 * i];
            bgra[4 * i + 3] = (byte) 255;
        }
        final byte[] webp = FfmpegTestEncoder.image("libwebp", avutil.AV_PIX_FMT_BGRA, 160, 120, "quality=95",
                (f, i) -> FfmpegTestEncoder.putPacked(f, bgra, 160 * 4));
        final double[] d = TestImages.diff(decode(webp, ImageSpec.exact(160, 120, PixelFormat.RGB24)), rgb);
        assertThat(d[0]).as("mean |diff|").isLessThan(4.0);
    }

    /**
     * Lossless JPEG (SOF3) and JPEG-LS (SOF55) have no DCT, so FFmpeg cannot decode them at reduced scale: a large
     * one must be decoded in full even where a baseline JPEG of its size would go to lowres, and JPEG-LS's frame
     * header must be found (it is outside the SOF0..SOF15 range).
     */
    @Test
    void shouldDecodeLargeLosslessJpegAndJpegLsInFull() {
        final int w = 1024;
        final int h = 768;
        final byte[] rgb = new byte[w * h * 3];
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++) {
                final int i = (y * w + x) * 3;
                rgb[i] = (byte) (x / 4);
                rgb[i + 1] = (byte) (y / 3);
                rgb[i + 2] = (byte) ((x + y) / 8);
            }
        }
        final byte[] bgr = new byte[rgb.length];
        for (int i = 0; i < rgb.length; i += 3) {
            bgr[i] = rgb[i + 2];
            bgr[i + 1] = rgb[i + 1];
            bgr[i + 2] = rgb[i];
        }
        final byte[] ljpeg = FfmpegTestEncoder.image("ljpeg", avutil.AV_PIX_FMT_BGR24, w, h, null,
                (f, i) -> FfmpegTestEncoder.putPacked(f, bgr, w * 3));
        assertThat(hasMarker(ljpeg, 0xC3)).as("SOF3 (lossless)").isTrue();
        final byte[] jpegls = FfmpegTestEncoder.image("jpegls", avutil.AV_PIX_FMT_RGB24, w, h, null,
                (f, i) -> FfmpegTestEncoder.putPacked(f, rgb, w * 3));
        assertThat(hasMarker(jpegls, 0xF7)).as("SOF55 (JPEG-LS)").isTrue();
        final ImageSpec small = ImageSpec.centerCrop(128, 112, PixelFormat.RGB24); // baseline JPEGs: lowres 2
        for (final byte[] file : new byte[][] {ljpeg, jpegls}) {
            assertThat(decode(file, ImageSpec.exact(w, h, PixelFormat.RGB24))).as("lossless at full size")
                    .isEqualTo(rgb);
            assertThat(decode(file, small)).as("reduced output equals a full decode's")
                    .isEqualTo(decode(file, small.withLowres(false)));
        }
    }

    /**
     * A BMP with the 12-byte core header (Windows 2.x / OS/2 1.x) stores width and height as 16-bit values: read as
     * the 32-bit fields of later headers, this 4x2 image would claim 4,194,308 x 131,074 pixels and be refused.
     */
    @Test
    void shouldReadTheSizeOfACoreHeaderBmp() {
        final int w = 4;
        final int h = 2;
        final java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(26 + w * 3 * h)
                .order(java.nio.ByteOrder.LITTLE_ENDIAN);
        b.put((byte) 'B').put((byte) 'M').putInt(b.capacity()).putInt(0).putInt(26); // file header
        b.putInt(12).putShort((short) w).putShort((short) h).putShort((short) 1).putShort((short) 24); // core header
        final byte[] rgb = new byte[w * h * 3];
        for (int i = 0; i < rgb.length; i++) {
            rgb[i] = (byte) (i * 9);
        }
        for (int y = h - 1; y >= 0; y--) { // bottom-up rows of BGR; 12 bytes per row, already a multiple of 4
            for (int x = 0; x < w; x++) {
                final int i = (y * w + x) * 3;
                b.put(rgb[i + 2]).put(rgb[i + 1]).put(rgb[i]);
            }
        }
        assertThat(decode(b.array(), ImageSpec.exact(w, h, PixelFormat.RGB24))).isEqualTo(rgb);
    }

    private static void assertJpegMatchesImageIo(final byte[] jpeg, final int w, final int h) {
        final byte[] expected = TestImages.rgb(TestImages.read(jpeg));
        // At 1:1 the accurate scaler interpolates chroma as libjpeg's fancy upsampling does: both bounds hold. The
        // fast one interpolates at the output's resolution, a few levels further off at sharp colour edges: the mean.
        final ImageSpec spec = ImageSpec.exact(w, h, PixelFormat.RGB24).withLowres(false);
        final double[] d = TestImages.diff(decode(jpeg, spec.withScalerQuality(ScalerQuality.ACCURATE)), expected);
        assertThat(d[0]).as("mean |diff| vs ImageIO").isLessThan(JPEG_MEAN_TOLERANCE);
        assertThat(d[1]).as("max |diff| vs ImageIO").isLessThanOrEqualTo(JPEG_MAX_TOLERANCE);
        final double[] fast = TestImages.diff(decode(jpeg, spec.withScalerQuality(ScalerQuality.FAST)), expected);
        assertThat(fast[0]).as("mean |diff| vs ImageIO, fast scaler").isLessThan(JPEG_MEAN_TOLERANCE);
    }

    @Test
    void shouldDecodeBaselineJpegWithinTolerance() {
        assertJpegMatchesImageIo(TestImages.jpeg(TestImages.photo(320, 240, 7), 0.92f, false), 320, 240);
    }

    /**
     * Bytes between two segments (here two zeros after APP0) are skipped by libjpeg (with a warning) and by FFmpeg;
     * the header walk that reads the size must skip them too, at full and at reduced scale.
     */
    @Test
    void shouldDecodeAJpegWithStrayBytesBetweenSegmentsLikeTheCleanOne() {
        final byte[] clean = TestImages.jpeg(TestImages.photo(64, 48, 13), 0.9f, false);
        final int afterApp0 = 4 + ((clean[4] & 0xFF) << 8 | clean[5] & 0xFF);
        assertThat(clean[3] & 0xFF).as("APP0 first").isEqualTo(0xE0);
        final byte[] stray = new byte[clean.length + 2];
        System.arraycopy(clean, 0, stray, 0, afterApp0);
        System.arraycopy(clean, afterApp0, stray, afterApp0 + 2, clean.length - afterApp0);
        for (final ImageSpec spec : new ImageSpec[] {ImageSpec.exact(64, 48, PixelFormat.RGB24),
                ImageSpec.exact(8, 6, PixelFormat.RGB24)}) {
            assertThat(decode(stray, spec)).as("%dx%d", spec.width(), spec.height()).isEqualTo(decode(clean, spec));
        }
    }

    @Test
    void shouldDecodeProgressiveJpegWithinTolerance() {
        final byte[] jpeg = TestImages.jpeg(TestImages.photo(300, 200, 8), 0.92f, true);
        assertThat(hasMarker(jpeg, 0xC2)).as("progressive SOF2").isTrue();
        assertJpegMatchesImageIo(jpeg, 300, 200);
    }

    @Test
    void shouldDecodeJpeg444WithinTolerance() {
        final BufferedImage img = TestImages.photo(128, 96, 9);
        final byte[] rgb = TestImages.rgb(img);
        final byte[] jpeg = FfmpegTestEncoder.image("mjpeg", avutil.AV_PIX_FMT_YUVJ444P, 128, 96, null,
                (f, i) -> fillYuv444(f, rgb, 128, 96));
        assertJpegMatchesImageIo(jpeg, 128, 96);
    }

    @Test
    void shouldDecodeGrayJpegWithinTolerance() {
        final BufferedImage src = TestImages.photo(200, 100, 10);
        final BufferedImage gray = new BufferedImage(200, 100, BufferedImage.TYPE_BYTE_GRAY);
        gray.getGraphics().drawImage(src, 0, 0, null);
        final byte[] jpeg = TestImages.jpeg(gray, 0.95f, false);
        final byte[] expected = new byte[200 * 100];
        TestImages.read(jpeg).getRaster().getDataElements(0, 0, 200, 100, expected);
        final double[] d = TestImages.diff(decode(jpeg, ImageSpec.exact(200, 100, PixelFormat.GRAY8)), expected);
        assertThat(d[0]).isLessThan(JPEG_MEAN_TOLERANCE);
        assertThat(d[1]).isLessThanOrEqualTo(JPEG_MAX_TOLERANCE);
    }

    @Test
    void shouldDecodeCmykJpegToTheRightColours() throws Exception {
        // Four flat quadrants, stored the way Adobe writes CMYK JPEGs (inverted: 255 = no ink).
        final int w = 64;
        final int h = 64;
        final int[][] cmyk = {{255, 0, 0, 0}, {0, 255, 0, 0}, {0, 0, 255, 0}, {0, 0, 0, 128}};
        final int[][] rgb = {{0, 255, 255}, {255, 0, 255}, {255, 255, 0}, {127, 127, 127}};
        final BufferedImage img = new BufferedImage(w, h, BufferedImage.TYPE_4BYTE_ABGR);
        final WritableRaster raster = img.getRaster().createCompatibleWritableRaster(w, h);
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++) {
                final int q = (y / 32) * 2 + x / 32;
                for (int c = 0; c < 4; c++) {
                    raster.setSample(x, y, c, 255 - cmyk[q][c]);
                }
            }
        }
        final ImageWriter writer = ImageIO.getImageWritersByFormatName("jpeg").next();
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (MemoryCacheImageOutputStream out = new MemoryCacheImageOutputStream(bytes)) {
            writer.setOutput(out);
            writer.write(null, new IIOImage(raster, null, null), null);
        } finally {
            writer.dispose();
        }
        final byte[] jpeg = withAdobeMarker(bytes.toByteArray());
        final byte[] out = decode(jpeg, ImageSpec.exact(w, h, PixelFormat.RGB24));
        for (int q = 0; q < 4; q++) {
            final int i = (((q / 2) * 32 + 16) * w + (q % 2) * 32 + 16) * 3;
            for (int c = 0; c < 3; c++) {
                assertThat(out[i + c] & 0xFF).as("quadrant %d channel %d", q, c)
                        .isCloseTo(rgb[q][c], org.assertj.core.data.Offset.offset(12));
            }
        }
    }

    @Test
    void shouldDecodeFromAPathAndFromMemoryIdentically(@org.junit.jupiter.api.io.TempDir final Path dir)
            throws Exception {
        final byte[] jpeg = TestImages.jpeg(TestImages.photo(333, 222, 11), 0.9f, false);
        final Path file = dir.resolve("photo.jpg");
        Files.write(file, jpeg);
        final ImageSpec spec = ImageSpec.centerCrop(128, 112, PixelFormat.RGB24);
        try (SingleThreadImageDecoder d = new SingleThreadImageDecoder(MediaLimits.DEFAULT)) {
            final UnsafeBuffer a = TestImages.nativeBuffer(spec.bytes());
            final UnsafeBuffer b = TestImages.nativeBuffer(spec.bytes());
            d.decodeFile(file, spec, a, 0);
            d.decode(TestImages.offHeap(jpeg), 0, jpeg.length, "mem", spec, b, 0);
            assertThat(TestImages.bytes(a, spec.bytes())).isEqualTo(TestImages.bytes(b, spec.bytes()));
            assertThat(d.lastSourceWidth()).isEqualTo(333);
            assertThat(d.lastSourceHeight()).isEqualTo(222);
        }
    }

    /** Inserts an Adobe APP14 segment (transform 0: no colour transform) after SOI. */
    private static byte[] withAdobeMarker(final byte[] jpeg) {
        final byte[] app14 = {(byte) 0xFF, (byte) 0xEE, 0, 14, 'A', 'd', 'o', 'b', 'e', 0, 100, 0, 0, 0, 0, 0};
        final byte[] out = new byte[jpeg.length + app14.length];
        System.arraycopy(jpeg, 0, out, 0, 2);
        System.arraycopy(app14, 0, out, 2, app14.length);
        System.arraycopy(jpeg, 2, out, 2 + app14.length, jpeg.length - 2);
        return out;
    }

    private static boolean hasMarker(final byte[] jpeg, final int marker) {
        for (int i = 0; i + 1 < jpeg.length; i++) {
            if ((jpeg[i] & 0xFF) == 0xFF && (jpeg[i + 1] & 0xFF) == marker) {
                return true;
            }
        }
        return false;
    }

    /** Full-range BT.601 RGB -> YUV 4:4:4 (what JFIF specifies). */
    private static void fillYuv444(final org.bytedeco.ffmpeg.avutil.AVFrame f, final byte[] rgb, final int w,
                                   final int h) {
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++) {
                final int i = (y * w + x) * 3;
                final double r = rgb[i] & 0xFF;
                final double g = rgb[i + 1] & 0xFF;
                final double b = rgb[i + 2] & 0xFF;
                final long yy = (long) y * f.linesize(0) + x;
                f.data(0).put(yy, (byte) clamp(0.299 * r + 0.587 * g + 0.114 * b));
                f.data(1).put((long) y * f.linesize(1) + x, (byte) clamp(128 - 0.168736 * r - 0.331264 * g + 0.5 * b));
                f.data(2).put((long) y * f.linesize(2) + x, (byte) clamp(128 + 0.5 * r - 0.418688 * g - 0.081312 * b));
            }
        }
    }

    private static int clamp(final double v) {
        return (int) Math.max(0, Math.min(255, Math.round(v)));
    }
}
