package org.spdl4j.media;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.bytedeco.ffmpeg.global.avutil;
import org.bytedeco.ffmpeg.global.swscale;
import org.bytedeco.ffmpeg.swscale.SwsContext;
import org.junit.jupiter.api.Test;

class ScalerContextsTest {
    private static final int FLAGS = swscale.SWS_BILINEAR | ScalerQuality.ACCURATE.swsFlags();
    private static final int RGB = avutil.AV_PIX_FMT_RGB24;
    /**
     * The source rectangles of Resize(256) + CenterCrop(224) for the sample's JPEG sizes: 500x375 and 375x500 (328),
     * 640x480 (420), 500x333 (291), 400x400 (350); and one non-square rectangle.
     */
    private static final int[][] CROPS = {{328, 328}, {420, 420}, {291, 291}, {350, 350}, {300, 240}};

    @Test
    void shouldBuildOneContextPerGeometryWhenSizesAlternate() {
        long before = NativeResourceCounter.outstanding(NativeResourceCounter.Kind.SCALER);
        ScalerContexts contexts = new ScalerContexts();
        try {
            SwsContext[] first = new SwsContext[CROPS.length];
            for (int i = 0; i < 100; i++) {
                int[] c = CROPS[i % CROPS.length];
                SwsContext sws = contexts.get(c[0], c[1], avutil.AV_PIX_FMT_YUVJ420P, 224, 224, RGB, FLAGS, "test");
                if (i < CROPS.length) {
                    first[i] = sws;
                } else {
                    assertThat(sws.address()).as("call %d reuses the context of its size", i)
                            .isEqualTo(first[i % CROPS.length].address());
                }
            }
            assertThat(contexts.builds()).as("one build per size, none per JPEG").isEqualTo(CROPS.length);
            assertThat(NativeResourceCounter.outstanding(NativeResourceCounter.Kind.SCALER) - before)
                    .isEqualTo(CROPS.length);
        } finally {
            contexts.free();
        }
        assertThat(NativeResourceCounter.outstanding(NativeResourceCounter.Kind.SCALER)).isEqualTo(before);
    }

    @Test
    void shouldReplaceRoundRobinWhenMoreGeometriesThanSlotsCycle() {
        long before = NativeResourceCounter.outstanding(NativeResourceCounter.Kind.SCALER);
        ScalerContexts contexts = new ScalerContexts();
        try {
            int sizes = ScalerContexts.SLOTS + 1;
            for (int lap = 0; lap < 3; lap++) {
                for (int s = 0; s < sizes; s++) {
                    contexts.get(200 + s, 200, avutil.AV_PIX_FMT_YUV420P, 224, 224, RGB, FLAGS, "test");
                }
            }
            assertThat(contexts.builds()).as("a cycle one longer than the cache misses every time")
                    .isEqualTo(3L * sizes);
            assertThat(NativeResourceCounter.outstanding(NativeResourceCounter.Kind.SCALER) - before)
                    .as("rebuilt in place: never more live contexts than slots").isEqualTo(ScalerContexts.SLOTS);
        } finally {
            contexts.free();
        }
        assertThat(NativeResourceCounter.outstanding(NativeResourceCounter.Kind.SCALER)).isEqualTo(before);
    }

    @Test
    void shouldAskSwscaleForPlainYuvInsteadOfTheDeprecatedJpegFormats() {
        assertThat(ScalerContexts.swsFormat(avutil.AV_PIX_FMT_YUVJ420P)).isEqualTo(avutil.AV_PIX_FMT_YUV420P);
        assertThat(ScalerContexts.swsFormat(avutil.AV_PIX_FMT_YUVJ422P)).isEqualTo(avutil.AV_PIX_FMT_YUV422P);
        assertThat(ScalerContexts.swsFormat(avutil.AV_PIX_FMT_YUVJ444P)).isEqualTo(avutil.AV_PIX_FMT_YUV444P);
        assertThat(ScalerContexts.swsFormat(avutil.AV_PIX_FMT_YUVJ440P)).isEqualTo(avutil.AV_PIX_FMT_YUV440P);
        assertThat(ScalerContexts.swsFormat(avutil.AV_PIX_FMT_YUVJ411P)).isEqualTo(avutil.AV_PIX_FMT_YUV411P);
        assertThat(ScalerContexts.swsFormat(avutil.AV_PIX_FMT_RGB24)).isEqualTo(avutil.AV_PIX_FMT_RGB24);
    }

    @Test
    void shouldNameTheGeometryWhenSwscaleRefusesIt() {
        ScalerContexts contexts = new ScalerContexts();
        try {
            assertThatThrownBy(() -> contexts.get(0, 0, avutil.AV_PIX_FMT_YUV420P, 224, 224, RGB, FLAGS, "bad.jpg"))
                    .isInstanceOf(MediaException.class).hasMessageContaining("bad.jpg")
                    .hasMessageContaining("0x0");
        } finally {
            contexts.free();
        }
    }
}
