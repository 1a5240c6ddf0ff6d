package org.spdl4j.media;

import org.agrona.concurrent.UnsafeBuffer;
import org.bytedeco.ffmpeg.global.avutil;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.awt.image.BufferedImage;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.zip.CRC32;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * Truncated, empty, random and bit-flipped inputs of every image kind fail with a MediaException naming the input
 * and carrying FFmpeg's error text; oversized headers are refused before decoding; nothing native leaks, even over
 * 10,000 failures.
 *
 * <p>Bit flips: PNG carries CRCs, so a flip anywhere is detected; JPEG, WebP and BMP have no checksum over their
 * pixel data (a flipped pixel bit is a valid, different image), so their flips target the headers.
 */
class BadImageInputTest {
    private static final ImageSpec SPEC = ImageSpec.exact(32, 32, PixelFormat.RGB24);

    @AfterEach
    void shouldLeaveNoNativeResources() {
        assertThat(NativeResourceCounter.outstanding()).as(NativeResourceCounter.describe()).isZero();
    }

    record Sample(String kind, byte[] bytes, int headerBytes) {
    }

    static List<Sample> goodSamples() {
        final BufferedImage photo = TestImages.photo(48, 40, 31);
        final byte[] rgb = TestImages.rgb(photo);
        final byte[] bgra = new byte[48 * 40 * 4];
        for (int i = 0; i < 48 * 40; i++) {
            bgra[4 * i] = rgb[3 * i + 2];
            bgra[4 * i + 1] = rgb[3 * i + 1];
            bgra[4 * i + 2] = rgb[3 * i];
            bgra[4 * i + 3] = (byte) 255;
        }
        final byte[] webp = FfmpegTestEncoder.image("libwebp", avutil.AV_PIX_FMT_BGRA, 48, 40, "quality=80",
                (f, i) -> FfmpegTestEncoder.putPacked(f, bgra, 48 * 4));
        return List.of(new Sample("jpeg", TestImages.jpeg(photo, 0.9f, false), 20),
                new Sample("png", TestImages.encode(photo, "png"), -1),
                new Sample("webp", webp, 16),
                new Sample("bmp", TestImages.encode(photo, "bmp"), 30));
    }

    /** Every way to break each sample, labelled. */
    static List<Sample> badSamples(final long seed) {
        final Random r = new Random(seed);
        final List<Sample> bad = new ArrayList<>();
        for (final Sample s : goodSamples()) {
            final byte[] b = s.bytes();
            bad.add(new Sample(s.kind() + "-truncated", Arrays.copyOf(b, b.length / 2), 0));
            bad.add(new Sample(s.kind() + "-truncated-header", Arrays.copyOf(b, Math.min(b.length, 10)), 0));
            final byte[] random = new byte[b.length];
            r.nextBytes(random);
            bad.add(new Sample("random", random, 0));
            final byte[] magicThenRandom = random.clone();
            System.arraycopy(b, 0, magicThenRandom, 0, 12);
            bad.add(new Sample(s.kind() + "-magic-then-random", magicThenRandom, 0));
            final byte[] flipped = b.clone();
            final int at = s.headerBytes() < 0 ? 16 + r.nextInt(b.length - 16) : headerFlip(s.kind(), r);
            flipped[at] ^= (byte) (1 << r.nextInt(8));
            bad.add(new Sample(s.kind() + "-bitflip@" + at, flipped, 0));
        }
        bad.add(new Sample("empty", new byte[0], 0));
        return bad;
    }

    /** A header byte whose every bit matters (checked exhaustively): JPEG SOI, WebP "WEBP" tag, BMP magic. */
    private static int headerFlip(final String kind, final Random r) {
        return switch (kind) {
            case "jpeg" -> r.nextInt(2);    // FF D8 (SOI)
            case "webp" -> 8 + r.nextInt(4); // "WEBP"
            default -> r.nextInt(2);        // "BM"
        };
    }

    @Test
    void shouldDecodeTheGoodSamples() {
        try (SingleThreadImageDecoder d = new SingleThreadImageDecoder(MediaLimits.DEFAULT)) {
            final UnsafeBuffer dst = TestImages.nativeBuffer(SPEC.bytes());
            for (final Sample s : goodSamples()) {
                assertThat(d.decode(TestImages.offHeap(s.bytes()), 0, s.bytes().length, s.kind(), SPEC, dst, 0))
                        .as(s.kind()).isEqualTo(SPEC.bytes());
            }
        }
    }

    @Test
    void shouldThrowMediaExceptionNamingTheInputForEveryBadSample() {
        try (SingleThreadImageDecoder d = new SingleThreadImageDecoder(MediaLimits.DEFAULT)) {
            final UnsafeBuffer dst = TestImages.nativeBuffer(SPEC.bytes());
            for (final Sample s : badSamples(1)) {
                final MediaException e = catchThrowableOfType(MediaException.class, () ->
                        d.decode(TestImages.offHeap(s.bytes()), 0, s.bytes().length, "in-" + s.kind(), SPEC, dst, 0));
                assertThat(e).as(s.kind()).isNotNull();
                assertThat(e.input()).isEqualTo("in-" + s.kind());
                assertThat(e.getMessage()).startsWith("in-" + s.kind() + ": ");
            }
            // The decoder is still healthy after all those failures.
            final Sample good = goodSamples().get(0);
            d.decode(TestImages.offHeap(good.bytes()), 0, good.bytes().length, "good", SPEC, dst, 0);
        }
    }

    @Test
    void shouldCarryFfmpegErrorText() {
        final byte[] png = TestImages.encode(TestImages.photo(48, 40, 32), "png");
        png[png.length / 2] ^= 0x10; // IDAT CRC mismatch
        try (SingleThreadImageDecoder d = new SingleThreadImageDecoder(MediaLimits.DEFAULT)) {
            final MediaException e = catchThrowableOfType(MediaException.class, () -> d.decode(
                    TestImages.offHeap(png), 0, png.length, "broken.png", SPEC, TestImages.nativeBuffer(SPEC.bytes()), 0));
            assertThat(e.errorCode()).isNegative();
            assertThat(e.getMessage()).contains("broken.png").contains(FFmpeg.errorText(e.errorCode()));
        }
    }

    @Test
    void shouldRefuseAJpegDeclaring65500x65500BeforeDecoding() {
        final byte[] jpeg = TestImages.jpeg(TestImages.photo(48, 40, 33), 0.9f, false);
        for (int i = 2; i + 8 < jpeg.length; i++) {
            if ((jpeg[i] & 0xFF) == 0xFF && (jpeg[i + 1] & 0xFF) == 0xC0) {
                jpeg[i + 5] = (byte) 0xFF; // height 0xFFDC = 65500
                jpeg[i + 6] = (byte) 0xDC;
                jpeg[i + 7] = (byte) 0xFF;
                jpeg[i + 8] = (byte) 0xDC;
                break;
            }
        }
        assertRefusedAsTooLarge(jpeg, "bomb.jpg");
    }

    @Test
    void shouldRefuseAPngDeclaring65500x65500BeforeDecoding() {
        final byte[] png = TestImages.encode(TestImages.photo(48, 40, 34), "png");
        // IHDR data starts at 16: width, height (big-endian); its CRC covers "IHDR" + 13 data bytes.
        putInt(png, 16, 65500);
        putInt(png, 20, 65500);
        final CRC32 crc = new CRC32();
        crc.update(png, 12, 17);
        putInt(png, 29, (int) crc.getValue());
        assertThat(new String(png, 12, 4, StandardCharsets.US_ASCII)).isEqualTo("IHDR");
        assertRefusedAsTooLarge(png, "bomb.png");
    }

    private static void assertRefusedAsTooLarge(final byte[] file, final String label) {
        try (SingleThreadImageDecoder d = new SingleThreadImageDecoder(MediaLimits.DEFAULT)) {
            assertThatThrownBy(() -> d.decode(TestImages.offHeap(file), 0, file.length, label, SPEC,
                    TestImages.nativeBuffer(SPEC.bytes()), 0))
                    .isInstanceOf(MediaException.class).hasMessageStartingWith(label)
                    .hasMessageContaining("declared size 65500x65500 exceeds the limit");
        }
    }

    @Test
    void shouldApplyThePixelLimitToEveryFormatFromItsHeader() {
        final MediaLimits tight = new MediaLimits(48 * 40 - 1, 10, 10, 1 << 20);
        try (SingleThreadImageDecoder d = new SingleThreadImageDecoder(tight)) {
            for (final Sample s : goodSamples()) {
                assertThatThrownBy(() -> d.decode(TestImages.offHeap(s.bytes()), 0, s.bytes().length, s.kind(), SPEC,
                        TestImages.nativeBuffer(SPEC.bytes()), 0))
                        .as(s.kind()).isInstanceOf(MediaException.class)
                        .hasMessageContaining("declared size 48x40 exceeds the limit of 1919 pixels");
            }
        }
    }

    @Test
    void shouldRefuseADestinationTooSmall() {
        final byte[] png = TestImages.encode(TestImages.photo(48, 40, 35), "png");
        try (SingleThreadImageDecoder d = new SingleThreadImageDecoder(MediaLimits.DEFAULT)) {
            assertThatThrownBy(() -> d.decode(TestImages.offHeap(png), 0, png.length, "small", SPEC,
                    TestImages.nativeBuffer(SPEC.bytes() - 1), 0))
                    .isInstanceOf(MediaException.class).hasMessageContaining("destination holds");
        }
    }

    /**
     * A heap buffer over maxInputBytes is refused before it is copied to native memory, as a file over it is before
     * it is read: the copy grew the thread's scratch buffer to the input's size (64 MiB here, kept for the decoder's
     * life, or an OutOfMemoryError where direct memory is short) only for the limit to refuse the input afterwards.
     */
    @Test
    void shouldRefuseAHeapBufferOverTheInputLimitBeforeCopyingIt() {
        final MediaLimits limits = new MediaLimits(MediaLimits.DEFAULT.maxPixels(), MediaLimits.DEFAULT.maxFrames(),
                MediaLimits.DEFAULT.maxDurationSeconds(), 1 << 20);
        final byte[] big = new byte[64 << 20];
        final BufferPoolMXBean direct = ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class).stream()
                .filter(pool -> pool.getName().equals("direct")).findFirst().orElseThrow();
        try (SingleThreadImageDecoder d = new SingleThreadImageDecoder(limits)) {
            final UnsafeBuffer dst = TestImages.nativeBuffer(SPEC.bytes());
            final long before = direct.getTotalCapacity();
            assertThatThrownBy(() -> d.decode(new UnsafeBuffer(big), 0, big.length, "big", SPEC, dst, 0))
                    .isInstanceOf(MediaException.class).hasMessageStartingWith("big: ")
                    .hasMessageContaining("exceeds the limit");
            assertThat(direct.getTotalCapacity() - before).as("direct memory allocated for the refused input")
                    .isLessThan(32 << 20);
        }
    }

    @Test
    void shouldNameAMissingFile(@org.junit.jupiter.api.io.TempDir final Path dir) {
        final Path missing = dir.resolve("missing.jpg");
        try (SingleThreadImageDecoder d = new SingleThreadImageDecoder(MediaLimits.DEFAULT)) {
            assertThatThrownBy(() -> d.decodeFile(missing, SPEC, TestImages.nativeBuffer(SPEC.bytes()), 0))
                    .isInstanceOf(MediaException.class).hasMessageStartingWith(missing.toString());
        }
        assertThat(Files.exists(missing)).isFalse();
    }

    @Test
    @Timeout(120)
    void shouldKeepNativeMemoryFlatOver10000FailedDecodes() throws Exception {
        final List<Sample> bad = badSamples(2);
        final List<UnsafeBuffer> inputs = new ArrayList<>();
        for (final Sample s : bad) {
            inputs.add(TestImages.offHeap(s.bytes()));
        }
        final UnsafeBuffer dst = TestImages.nativeBuffer(SPEC.bytes());
        try (SingleThreadImageDecoder d = new SingleThreadImageDecoder(MediaLimits.DEFAULT)) {
            int failures = 0;
            for (int i = 0; i < 1_000; i++) { // warm-up: JIT, codec contexts, malloc arenas
                failures += decodeExpectingFailure(d, bad.get(i % bad.size()), inputs.get(i % bad.size()), dst);
            }
            final long before = NativeHeap.footprintKib(); // native memory in use: Java heap growth does not count
            for (int i = 0; i < 10_000; i++) {
                failures += decodeExpectingFailure(d, bad.get(i % bad.size()), inputs.get(i % bad.size()), dst);
            }
            final long after = NativeHeap.footprintKib();
            assertThat(failures).isEqualTo(11_000);
            assertThat(after - before).as("%s in KiB over 10,000 failed decodes", NativeHeap.footprintName())
                    .isLessThan(10 * 1024);
        }
    }

    private static int decodeExpectingFailure(final SingleThreadImageDecoder d, final Sample s, final UnsafeBuffer in,
                                              final UnsafeBuffer dst) {
        try {
            d.decode(in, 0, s.bytes().length, s.kind(), SPEC, dst, 0);
            return 0;
        } catch (final MediaException expected) {
            return 1;
        }
    }

    private static void putInt(final byte[] b, final int at, final int v) {
        b[at] = (byte) (v >>> 24);
        b[at + 1] = (byte) (v >>> 16);
        b[at + 2] = (byte) (v >>> 8);
        b[at + 3] = (byte) v;
    }
}
