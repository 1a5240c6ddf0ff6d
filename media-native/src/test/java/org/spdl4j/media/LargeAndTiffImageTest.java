package org.spdl4j.media;

import org.spdl4j.media.testing.TestPngs;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import javax.imageio.ImageIO;
import javax.imageio.ImageWriteParam;
import javax.imageio.ImageWriter;
import javax.imageio.stream.MemoryCacheImageOutputStream;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Images that used to fail with FFmpeg's bare error text: a 10000x10000 PNG within the pixel limit (FFmpeg checks its
 * own max_pixels against the width padded to 64), valid TIFFs (FFmpeg's TIFF decoder refuses unknown tags under
 * AV_EF_EXPLODE), and paths that are not regular files (a FIFO must not block the caller).
 */
class LargeAndTiffImageTest {
    private static final ImageSpec GRAY = ImageSpec.exact(16, 16, PixelFormat.GRAY8);
    private static final ImageSpec RGB = ImageSpec.exact(32, 24, PixelFormat.RGB24);

    @AfterEach
    void shouldLeaveNoNativeResources() {
        assertThat(NativeResourceCounter.outstanding()).as(NativeResourceCounter.describe()).isZero();
    }

    @Test
    @Timeout(120)
    void shouldDecodeA10000By10000PngWithinThePixelLimit() {
        final byte[] png = TestPngs.uniform(10_000, 10_000, 2, 77);
        final byte[] small = TestPngs.uniform(64, 64, 2, 77);
        final UnsafeBuffer dst = TestImages.nativeBuffer(RGB.bytes());
        final UnsafeBuffer expected = TestImages.nativeBuffer(RGB.bytes());
        try (SingleThreadImageDecoder decoder = new SingleThreadImageDecoder(MediaLimits.DEFAULT)) {
            decoder.decode(TestImages.offHeap(small), 0, small.length, "small.png", RGB, expected, 0);
            decoder.decode(TestImages.offHeap(png), 0, png.length, "big.png", RGB, dst, 0);
        }
        assertThat(TestImages.bytes(dst, RGB.bytes())).as("the same colour as a small image of that colour")
                .isEqualTo(TestImages.bytes(expected, RGB.bytes()));
    }

    @Test
    void shouldRefuseAPngOverThePixelLimitNamingSizeAndLimit() {
        final byte[] png = TestPngs.uniform(10_000, 10_000, 0, 77);
        final UnsafeBuffer dst = TestImages.nativeBuffer(GRAY.bytes());
        try (SingleThreadImageDecoder decoder = new SingleThreadImageDecoder(
                MediaLimits.DEFAULT.withMaxPixels(99_999_999L))) {
            assertThatThrownBy(() -> decoder.decode(TestImages.offHeap(png), 0, png.length, "big.png", GRAY, dst, 0))
                    .hasMessage("big.png: declared size 10000x10000 exceeds the limit of 99999999 pixels; raise"
                            + " MediaLimits.maxPixels if the input is trusted");
        }
    }

    @Test
    void shouldDecodeTiffsImageIoWrites() throws Exception {
        final BufferedImage photo = TestImages.photo(32, 24, 5);
        for (final String compression : new String[] {null, "LZW", "Deflate", "PackBits"}) {
            final byte[] tiff = tiff(photo, compression);
            final UnsafeBuffer dst = TestImages.nativeBuffer(RGB.bytes());
            try (SingleThreadImageDecoder decoder = new SingleThreadImageDecoder(MediaLimits.DEFAULT)) {
                decoder.decode(TestImages.offHeap(tiff), 0, tiff.length, "photo.tiff", RGB, dst, 0);
            }
            final double[] diff = TestImages.diff(TestImages.bytes(dst, RGB.bytes()), TestImages.rgb(photo));
            assertThat(diff[0]).as("mean abs difference, compression %s", compression).isLessThan(1.0);
        }
    }

    @Test
    void shouldCheckATiffsSizeFromItsHeaderBeforeDecoding() throws Exception {
        final byte[] tiff = tiff(TestImages.photo(320, 240, 5), null);
        final UnsafeBuffer dst = TestImages.nativeBuffer(RGB.bytes());
        try (SingleThreadImageDecoder decoder = new SingleThreadImageDecoder(
                MediaLimits.DEFAULT.withMaxPixels(320 * 240 - 1))) {
            assertThatThrownBy(() -> decoder.decode(TestImages.offHeap(tiff), 0, tiff.length, "photo.tiff", RGB, dst,
                    0)).hasMessage("photo.tiff: declared size 320x240 exceeds the limit of 76799 pixels; raise"
                            + " MediaLimits.maxPixels if the input is trusted");
        }
        final DecodeMemoryBudget budget = DecodeMemoryBudget.ofBytes(100_000);
        try (SingleThreadImageDecoder decoder = new SingleThreadImageDecoder(MediaLimits.DEFAULT, true, budget)) {
            assertThatThrownBy(() -> decoder.decode(TestImages.offHeap(tiff), 0, tiff.length, "photo.tiff", RGB, dst,
                    0)).hasMessageStartingWith("photo.tiff: a 320x240 TIFF needs 0.2 MiB (230400 bytes) to decode, more"
                            + " than the whole decode memory budget");
        }
    }

    @Test
    void shouldStillRefuseACorruptTiff() throws Exception {
        final byte[] tiff = tiff(TestImages.photo(32, 24, 5), null);
        final byte[] cut = java.util.Arrays.copyOf(tiff, tiff.length / 2);
        final UnsafeBuffer dst = TestImages.nativeBuffer(RGB.bytes());
        try (SingleThreadImageDecoder decoder = new SingleThreadImageDecoder(MediaLimits.DEFAULT)) {
            assertThatThrownBy(() -> decoder.decode(TestImages.offHeap(cut), 0, cut.length, "cut.tiff", RGB, dst, 0))
                    .isInstanceOf(MediaException.class).hasMessageStartingWith("cut.tiff: ");
        }
    }

    @Test
    void shouldSayADirectoryIsNotARegularFile(@TempDir final Path dir) {
        assertThatThrownBy(() -> MediaProbe.probe(dir)).isInstanceOf(MediaException.class)
                .hasMessageStartingWith(dir + ": not a regular file (a directory)");
        assertThatThrownBy(() -> MediaProbe.probe(dir.resolve("missing.mp4"))).isInstanceOf(MediaException.class)
                .hasMessage(dir.resolve("missing.mp4") + ": no such file");
    }

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void shouldSayAFifoIsNotARegularFileWithoutBlocking(@TempDir final Path dir) throws Exception {
        final Path fifo = dir.resolve("pipe");
        final Process mkfifo = new ProcessBuilder("mkfifo", fifo.toString()).inheritIO().start();
        assertThat(mkfifo.waitFor()).isZero();
        assertThat(Files.exists(fifo)).isTrue();
        assertThatThrownBy(() -> MediaProbe.probe(fifo)).isInstanceOf(MediaException.class)
                .hasMessageStartingWith(fifo + ": not a regular file (a FIFO)");
        assertThat(MediaProbe.problem(fifo)).startsWith("not a regular file (a FIFO)");
    }

    /** {@return the image as a TIFF written by ImageIO, with a compression type or none} */
    private static byte[] tiff(final BufferedImage img, final String compression) throws Exception {
        final ImageWriter writer = ImageIO.getImageWritersByFormatName("tiff").next();
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (MemoryCacheImageOutputStream ios = new MemoryCacheImageOutputStream(out)) {
            final ImageWriteParam p = writer.getDefaultWriteParam();
            if (compression != null) {
                p.setCompressionMode(ImageWriteParam.MODE_EXPLICIT);
                p.setCompressionType(compression);
            }
            writer.setOutput(ios);
            writer.write(null, new javax.imageio.IIOImage(img, null, null), p);
        } finally {
            writer.dispose();
        }
        return out.toByteArray();
    }
}
