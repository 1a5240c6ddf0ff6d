package org.spdl4j.media;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The reduced-scale JPEG switch: its property, its earlier name still accepted, and which wins. */
class MediaConfigurationTest {
    @Test
    void shouldDecodeReducedJpegsWhenNeitherPropertyIsSet() {
        assertThat(MediaConfiguration.reducedJpegDecode(null, null)).isTrue();
    }

    @Test
    void shouldStillAcceptTheEarlierPropertyName() {
        assertThat(MediaConfiguration.reducedJpegDecode(null, "false")).isFalse();
        assertThat(MediaConfiguration.reducedJpegDecode(null, "true")).isTrue();
    }

    @Test
    void shouldLetTheCurrentPropertyNameWinOverTheEarlierOne() {
        assertThat(MediaConfiguration.reducedJpegDecode("false", null)).isFalse();
        assertThat(MediaConfiguration.reducedJpegDecode("false", "true")).isFalse();
        assertThat(MediaConfiguration.reducedJpegDecode("true", "false")).isTrue();
    }

    @Test
    void shouldNameBothProperties() {
        assertThat(MediaConfiguration.REDUCED_JPEG_DECODE_PROP).isEqualTo("spdl4j.media.reducedJpegDecode");
        assertThat(MediaConfiguration.JPEG_DC_DECODE_ALIAS_PROP).isEqualTo("spdl4j.media.jpegDcDecode");
    }
}
