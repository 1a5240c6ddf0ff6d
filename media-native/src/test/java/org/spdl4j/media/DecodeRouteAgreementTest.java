package org.spdl4j.media;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.awt.image.BufferedImage;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every decode route gives the same picture: a full decode with the accurate scaler is the reference, and each other
 * route (the fast scaler, FFmpeg's lowres 1/2, spdl4j's own 1/4 and 1/8 decoders, FFmpeg's lowres 2 and 3 in their
 * place) must land within a stated mean absolute difference of it, per channel, on photo-like images of each kind:
 * baseline 4:2:0 and 4:4:4, progressive, grey, CMYK (which FFmpeg's lowres refuses: the reduced routes fall back to a
 * full decode) and PNG; spdl4j's own 1/4 and 1/8 decoder takes the baseline JPEGs, FFmpeg the progressive. Each
 * route is checked to be the one taken ({@link SingleThreadImageDecoder#lastLowres()},
 * {@code lastReduced()}), so a route that silently falls back cannot pass for another.
 */
class DecodeRouteAgreementTest {
    /** Scaler flags alone, same decode: rounding and chroma interpolation differences only (up to 0.82 here). */
    static final double SCALER_MAD = 1.25;
    /**
     * A DCT-domain reduction: the picture is averaged over 2, 4 or 8 pixels by the IDCT before the resize instead of
     * after it; on these grainy photos 0.8-1.4 grey levels on average (1/2 the most), a shift or colour error far
     * more.
     */
    static final double REDUCED_MAD = 2.0;

    /** 2048x1536 source: 1/2 for a 768-pixel short side, 1/4 for 384, 1/8 for 192. */
    private static final int W = 2048;
    private static final int H = 1536;

    @AfterEach
    void shouldLeaveNoNativeResources() {
        assertThat(NativeResourceCounter.outstanding()).as(NativeResourceCounter.describe()).isZero();
    }

    static Stream<Arguments> images() {
        final BufferedImage photo = TestJpegs.grainy(TestImages.photo(W, H, 11), 10, 5);
        return Stream.of(
                Arguments.of("baseline 4:2:0", TestJpegs.jpeg(photo, 0.9f, 2, 2, 0), true, true),
                Arguments.of("baseline 4:4:4", TestJpegs.jpeg(photo, 0.9f, 1, 1, 0), true, true),
                Arguments.of("progressive", TestImages.jpeg(photo, 0.9f, true), true, false),
                Arguments.of("grey", TestJpegs.jpeg(TestJpegs.gray(photo), 0.9f, 1, 1, 0), true, true),
                Arguments.of("CMYK", TestJpegs.fourComponent(W, H, 0, 3), false, false),
                Arguments.of("PNG", TestImages.encode(photo, "png"), false, false));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("images")
    void shouldGiveTheSamePictureByEveryRoute(final String kind, final byte[] bytes, final boolean reducible,
                                              final boolean baseline) {
        final UnsafeBuffer src = TestImages.offHeap(bytes);
        try (SingleThreadImageDecoder own = new SingleThreadImageDecoder(MediaLimits.DEFAULT, true);
             SingleThreadImageDecoder ffmpeg = new SingleThreadImageDecoder(MediaLimits.DEFAULT, false)) {
            // short side -> the scale each route decodes at: 1536 -> 768 is 1/2, 384 is 1/4, 192 is 1/8
            check(kind, src, bytes.length, own, baseline, crop(768, 704), 1, reducible);
            check(kind, src, bytes.length, own, baseline, crop(384, 352), 2, reducible);
            check(kind, src, bytes.length, ffmpeg, false, crop(384, 352), 2, reducible);
            check(kind, src, bytes.length, own, baseline, crop(192, 176), 3, reducible);
            check(kind, src, bytes.length, ffmpeg, false, crop(192, 176), 3, reducible);
            check(kind, src, bytes.length, own, baseline, crop(256, 224), 2, reducible);
        }
    }

    /**
     * Decodes {@code spec} by the full route with the accurate scaler (the reference), then with the fast scaler at
     * full scale, then by the reduced route with each scaler, and compares each with the reference.
     */
    private static void check(final String kind, final UnsafeBuffer src, final int length,
                              final SingleThreadImageDecoder decoder, final boolean ownReduced, final ImageSpec spec,
                              final int lowres, final boolean reducible) {
        final ImageSpec full = spec.withLowres(false).withScalerQuality(ScalerQuality.ACCURATE);
        final byte[] reference = decode(decoder, src, length, full);
        assertThat(decoder.lastLowres()).isZero();
        final String what = kind + " " + spec.resizeShortSide() + "/" + spec.width();
        final byte[] fast = decode(decoder, src, length, full.withScalerQuality(ScalerQuality.FAST));
        assertMad(what + ", full decode, fast scaler", fast, reference, SCALER_MAD);
        for (final ScalerQuality quality : ScalerQuality.values()) {
            final byte[] reduced = decode(decoder, src, length, spec.withLowres(true).withScalerQuality(quality));
            final String route = what + ", " + quality + " scaler, " + route(decoder);
            assertThat(decoder.lastLowres()).as(route).isEqualTo(reducible ? lowres : 0);
            assertThat(decoder.lastReduced()).as(route + ": spdl4j's own decoder for 1/4 and 1/8")
                    .isEqualTo(reducible && lowres >= ReducedJpegDecoder.MIN_LOWRES && ownReduced);
            assertMad(route, reduced, reference, reducible ? REDUCED_MAD : SCALER_MAD);
        }
    }

    private static String route(final SingleThreadImageDecoder decoder) {
        final int lowres = decoder.lastLowres();
        if (lowres == 0) {
            return "full decode";
        }
        return "1/" + (1 << lowres) + (decoder.lastReduced() ? " by spdl4j's decoder" : " by FFmpeg's lowres");
    }

    private static ImageSpec crop(final int shortSide, final int size) {
        return ImageSpec.centerCrop(shortSide, size, PixelFormat.RGB24);
    }

    private static byte[] decode(final SingleThreadImageDecoder decoder, final UnsafeBuffer src, final int length,
                                 final ImageSpec spec) {
        final UnsafeBuffer dst = TestImages.nativeBuffer(spec.bytes());
        decoder.decode(src, 0, length, "route", spec, dst, 0);
        return TestImages.bytes(dst, spec.bytes());
    }

    /** Mean absolute difference per channel (R, G, B) must stay within {@code tolerance}. */
    private static void assertMad(final String route, final byte[] got, final byte[] want, final double tolerance) {
        for (int c = 0; c < 3; c++) {
            long sum = 0;
            for (int i = c; i < got.length; i += 3) {
                sum += Math.abs((got[i] & 0xFF) - (want[i] & 0xFF));
            }
            final double mad = (double) sum / (got.length / 3);
            assertThat(mad).as("%s: channel %d mean absolute difference", route, c).isLessThanOrEqualTo(tolerance);
        }
    }
}
