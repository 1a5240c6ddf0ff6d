package org.spdl4j.media;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/** A thread's cached codec contexts must not let one image's decoding depend on the images decoded before it. */
class CodecContextCacheTest {
    /** Full scale through FFmpeg's mjpeg decoder (no lowres, no reduced-scale decoder). */
    private static final ImageSpec SPEC = ImageSpec.exact(64, 48, PixelFormat.RGB24).withLowres(false);

    /**
     * A JPEG without DHT (as Motion JPEG frames are) means the standard Huffman tables. A context that decoded a JPEG
     * with optimized tables still holds those after a flush, so the DHT-less JPEG must not be decoded in it.
     */
    @Test
    void shouldDecodeAJpegWithoutHuffmanTablesAlikeAfterOneWithOptimizedTables() {
        final byte[] optimized = TestJpegs.optimizedHuffman(TestImages.photo(64, 48, 11), 0.9f);
        final byte[] standardTables = TestJpegs.withoutSegments(
                TestImages.jpeg(TestImages.photo(64, 48, 12), 0.9f, false), 0xC4);
        assertThat(TestJpegs.find(standardTables, 0xC4, 2)).as("DHT stripped").isEqualTo(-1);
        final byte[] alone;
        try (SingleThreadImageDecoder d = new SingleThreadImageDecoder(MediaLimits.DEFAULT)) {
            alone = decode(d, standardTables);
        }
        try (SingleThreadImageDecoder d = new SingleThreadImageDecoder(MediaLimits.DEFAULT)) {
            decode(d, optimized);
            assertThat(decode(d, standardTables)).as("after a JPEG with optimized Huffman tables").isEqualTo(alone);
            decode(d, optimized);
            assertThat(decode(d, standardTables)).as("once more").isEqualTo(alone);
        }
    }

    /**
     * {@code FF 02} is not a marker to FFmpeg (it takes FF C0..FE only) but stray bytes, so FFmpeg reads the DHT
     * that follows. A sniffer that took it for a segment and jumped by its "length" would miss that DHT, key the image
     * as one without Huffman tables, and let its tables reach the next DHT-less JPEG on the thread.
     */
    @Test
    void shouldSeeTheTablesFfmpegSeesBehindBytesThatOnlyLookLikeASegment() {
        // FF 02: not a marker to FFmpeg; FF C8 (JPG), CC (DAC), DC (DNL), F0 (JPG0): markers it finds and steps over
        for (final int fake : new int[] {0x02, 0xC8, 0xCC, 0xDC, 0xF0, 0xC9, 0xC5}) { // C9, C5: SOFs FFmpeg refuses
            assertTablesSeenBehind(fake);
        }
    }

    /**
     * The table walk stops at the first scan: bytes after it (entropy-coded data, a trailer after EOI such as a gain
     * map, a tables-looking segment there) never change an image's key.
     */
    @Test
    void shouldKeyAJpegByTheTablesBeforeItsFirstScanOnly() {
        final byte[] clean = TestImages.jpeg(TestImages.photo(64, 48, 15), 0.9f, false);
        final byte[] fakeDht = {(byte) 0xFF, (byte) 0xC4, 0, 20, 0x13, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
            7};
        final byte[] trailed = java.util.Arrays.copyOf(clean, clean.length + fakeDht.length);
        System.arraycopy(fakeDht, 0, trailed, clean.length, fakeDht.length);
        final UnsafeBuffer trailedBuffer = TestImages.offHeap(trailed); // held: the walk reads its native memory
        final UnsafeBuffer cleanBuffer = TestImages.offHeap(clean);
        assertThat(ImageSniffer.jpegContextKey(trailedBuffer.addressOffset(), trailed.length))
                .isEqualTo(ImageSniffer.jpegContextKey(cleanBuffer.addressOffset(), clean.length))
                .isNotZero();
    }

    /**
     * FFmpeg's mjpeg decoder keeps what a few comments and application segments set for the rest of its context's
     * life, a flush does not reset it: COM "Metasoft MJPEG Codec" flips every later picture upside down, COM
     * "CS=ITU601" reads every later one as limited-range YUV, APPn "LJIF" with colour space 2 (Pegasus RCT) reads
     * every later frame as 9-bit. One such JPEG must not change the pixels of the plain JPEGs decoded after it on the
     * thread.
     */
    @Test
    void shouldDecodeAJpegAlikeAfterOneWhoseSegmentsSetDecoderState() {
        final byte[] plain = TestImages.jpeg(TestImages.photo(64, 48, 16), 0.9f, false);
        final byte[] alone;
        try (SingleThreadImageDecoder d = new SingleThreadImageDecoder(MediaLimits.DEFAULT)) {
            alone = decode(d, plain);
        }
        final byte[] pegasus = {'L', 'J', 'I', 'F', 0, 0, 0, 0, 0, 0, 0, 0, 2, 0};
        final byte[][] tagged = {
            TestJpegs.withSegment(plain, 0xFE, "Metasoft MJPEG Codec".getBytes(StandardCharsets.US_ASCII)),
            TestJpegs.withSegment(plain, 0xFE, "CS=ITU601".getBytes(StandardCharsets.US_ASCII)),
            TestJpegs.withSegment(plain, 0xE3, pegasus)};
        final String[] names = {"COM Metasoft MJPEG Codec", "COM CS=ITU601", "APP3 LJIF (Pegasus RCT)"};
        for (int i = 0; i < tagged.length; i++) {
            try (SingleThreadImageDecoder d = new SingleThreadImageDecoder(MediaLimits.DEFAULT)) {
                try {
                    decode(d, tagged[i]);
                } catch (final MediaException e) {
                    // its own pixels are FFmpeg's business; what matters is the next image
                }
                assertThat(TestImages.diff(decode(d, plain), alone)[1]).as("max |diff| after a JPEG with %s", names[i])
                        .isZero();
            }
        }
    }

    private static void assertTablesSeenBehind(final int fakeMarker) {
        final byte[] optimized = TestJpegs.optimizedHuffman(TestImages.photo(64, 48, 13), 0.9f);
        final int dht = TestJpegs.find(optimized, 0xC4, 2);
        final int sos = TestJpegs.find(optimized, 0xDA, 2);
        assertThat(dht).isPositive();
        assertThat(sos).isGreaterThan(dht);
        final int fakeLength = sos + 2 - dht; // from the fake marker to the start of scan, once shifted by 4
        final byte[] trap = new byte[optimized.length + 4];
        System.arraycopy(optimized, 0, trap, 0, dht);
        trap[dht] = (byte) 0xFF;
        trap[dht + 1] = (byte) fakeMarker;
        trap[dht + 2] = (byte) (fakeLength >> 8);
        trap[dht + 3] = (byte) fakeLength;
        System.arraycopy(optimized, dht, trap, dht + 4, optimized.length - dht);
        final byte[] standardTables = TestJpegs.withoutSegments(
                TestImages.jpeg(TestImages.photo(64, 48, 14), 0.9f, false), 0xC4);
        final byte[] alone;
        try (SingleThreadImageDecoder d = new SingleThreadImageDecoder(MediaLimits.DEFAULT)) {
            alone = decode(d, standardTables);
            assertThat(decode(d, trap)).as("FF %02X: FFmpeg reads past it", fakeMarker).isEqualTo(decode(d, optimized));
        }
        try (SingleThreadImageDecoder d = new SingleThreadImageDecoder(MediaLimits.DEFAULT)) {
            decode(d, trap);
            assertThat(decode(d, standardTables)).as("after the JPEG with FF %02X before its DHT", fakeMarker)
                    .isEqualTo(alone);
        }
    }

    private static byte[] decode(final SingleThreadImageDecoder d, final byte[] jpeg) {
        final UnsafeBuffer dst = TestImages.nativeBuffer(SPEC.bytes());
        d.decode(TestImages.offHeap(jpeg), 0, jpeg.length, "test.jpg", SPEC, dst, 0);
        return TestImages.bytes(dst, SPEC.bytes());
    }
}
