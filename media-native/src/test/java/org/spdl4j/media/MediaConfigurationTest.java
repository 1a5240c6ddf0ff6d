package org.spdl4j.media;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The reduced-scale JPEG switch: its property, its earlier name still accepted, which wins, and bad values. */
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

    /** {@link Boolean#parseBoolean} read "yes" as false: the switch asked on was silently off. */
    @Test
    void shouldFailNamingTheDecidingPropertyForAValueNeitherTrueNorFalse() {
        assertThat(MediaConfiguration.reducedJpegDecode(" FALSE ", null)).isFalse();
        assertThatThrownBy(() -> MediaConfiguration.reducedJpegDecode("yes", "false"))
                .hasMessage("system property spdl4j.media.reducedJpegDecode='yes' is neither true nor false"
                        + " (default true)");
        assertThatThrownBy(() -> MediaConfiguration.reducedJpegDecode(null, "0"))
                .hasMessageContaining("spdl4j.media.jpegDcDecode='0' is neither true nor false");
    }

    @Test
    void shouldNameBothProperties() {
        assertThat(MediaConfiguration.REDUCED_JPEG_DECODE_PROP).isEqualTo("spdl4j.media.reducedJpegDecode");
        assertThat(MediaConfiguration.JPEG_DC_DECODE_ALIAS_PROP).isEqualTo("spdl4j.media.jpegDcDecode");
    }
}
