package org.spdl4j.media;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class MediaLimitsTest {
    @Test
    void shouldStartFromTheNamedDefaults() {
        assertThat(MediaLimits.DEFAULT).isEqualTo(new MediaLimits(MediaConfiguration.DEFAULT_MAX_PIXELS,
                MediaConfiguration.DEFAULT_MAX_FRAMES, MediaConfiguration.DEFAULT_MAX_DURATION_SECONDS,
                MediaConfiguration.DEFAULT_MAX_INPUT_BYTES));
    }

    @Test
    void shouldChangeOneLimitAtATime() {
        MediaLimits d = MediaLimits.DEFAULT;
        assertThat(d.withMaxPixels(7)).isEqualTo(new MediaLimits(7, d.maxFrames(), d.maxDurationSeconds(),
                d.maxInputBytes()));
        assertThat(d.withMaxFrames(7)).isEqualTo(new MediaLimits(d.maxPixels(), 7, d.maxDurationSeconds(),
                d.maxInputBytes()));
        assertThat(d.withMaxDurationSeconds(7)).isEqualTo(new MediaLimits(d.maxPixels(), d.maxFrames(), 7,
                d.maxInputBytes()));
        assertThat(d.withMaxInputBytes(7)).isEqualTo(new MediaLimits(d.maxPixels(), d.maxFrames(),
                d.maxDurationSeconds(), 7));
    }

    @Test
    void shouldRejectALimitThatIsNotPositive() {
        assertThatThrownBy(() -> MediaLimits.DEFAULT.withMaxInputBytes(0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("limits must be positive");
    }
}
