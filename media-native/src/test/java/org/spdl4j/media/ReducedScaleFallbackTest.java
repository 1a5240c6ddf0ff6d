package org.spdl4j.media;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A JPEG that FFmpeg decodes at full scale but not at a reduced one (a Photoshop-style YCCK or CMYK JPEG: four
 * components, the first and last sampled 2x2, for which FFmpeg's lowres says "Not yet implemented") is decoded again
 * at full scale instead of failing; a JPEG that fails at full scale too still fails.
 */
class ReducedScaleFallbackTest {
    /** 512x512 to 64x64: a 1/8-scale decode. */
    private static final ImageSpec EIGHTH = ImageSpec.exact(64, 64, PixelFormat.RGB24);

    @AfterEach
    void shouldLeaveNoNativeResources() {
        assertThat(NativeResourceCounter.outstanding()).as(NativeResourceCounter.describe()).isZero();
    }

    @Test
    void shouldDecodeAYcckJpegAtFullScaleWhenTheReducedScaleFails() {
        for (final int transform : new int[] {2, 0}) {
            final byte[] jpeg = TestJpegs.fourComponent(512, 512, transform, 3);
            final UnsafeBuffer full = TestImages.nativeBuffer(EIGHTH.bytes());
            final UnsafeBuffer reduced = TestImages.nativeBuffer(EIGHTH.bytes());
            final long before = ReducedScaleFallbacks.total();
            try (SingleThreadImageDecoder decoder = new SingleThreadImageDecoder(MediaLimits.DEFAULT)) {
                decoder.decode(TestImages.offHeap(jpeg), 0, jpeg.length, "cmyk.jpg", EIGHTH.withLowres(false), full,
                        0);
                decoder.decode(TestImages.offHeap(jpeg), 0, jpeg.length, "cmyk.jpg", EIGHTH, reduced, 0);
                assertThat(decoder.lastLowres()).as("decoded at full scale in the end").isZero();
                decoder.decode(TestImages.offHeap(jpeg), 0, jpeg.length, "cmyk.jpg", EIGHTH, reduced, 0);
            }
            assertThat(ReducedScaleFallbacks.total() - before).as("transform %d: one fallback per image", transform)
                    .isEqualTo(2);
            assertThat(TestImages.bytes(reduced, EIGHTH.bytes())).as("the same pixels as a full-scale decode")
                    .isEqualTo(TestImages.bytes(full, EIGHTH.bytes()));
        }
        assertThat(ReducedScaleFallbacks.count("avcodec_send_packet failed: Not yet implemented in FFmpeg, patches"
                + " welcome (-1163346256)")).isPositive();
    }

    @Test
    void shouldStillFailAJpegThatFailsAtFullScaleToo() {
        final byte[] jpeg = TestJpegs.fourComponent(512, 512, 2, 3);
        final byte[] cut = java.util.Arrays.copyOf(jpeg, 700);
        final UnsafeBuffer dst = TestImages.nativeBuffer(EIGHTH.bytes());
        try (SingleThreadImageDecoder decoder = new SingleThreadImageDecoder(MediaLimits.DEFAULT)) {
            assertThatThrownBy(() -> decoder.decode(TestImages.offHeap(cut), 0, cut.length, "cut.jpg", EIGHTH, dst, 0))
                    .isInstanceOf(MediaException.class).hasMessageStartingWith("cut.jpg: ")
                    .satisfies(e -> assertThat(e.getSuppressed()).as("the reduced-scale failure rides along")
                            .isNotEmpty());
        }
    }
}
