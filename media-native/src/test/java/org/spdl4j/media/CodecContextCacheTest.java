package org.spdl4j.media;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.spdl4j.offheap.testing.NoLeftoversExtension;

import static org.assertj.core.api.Assertions.assertThat;

/** A thread's cached codec contexts must not let one image's decoding depend on the images decoded before it. */
@ExtendWith(NoLeftoversExtension.class)
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

    private static byte[] decode(final SingleThreadImageDecoder d, final byte[] jpeg) {
        final UnsafeBuffer dst = TestImages.nativeBuffer(SPEC.bytes());
        d.decode(TestImages.offHeap(jpeg), 0, jpeg.length, "test.jpg", SPEC, dst, 0);
        return TestImages.bytes(dst, SPEC.bytes());
    }
}
