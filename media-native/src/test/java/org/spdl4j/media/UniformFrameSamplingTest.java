package org.spdl4j.media;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Frame t of T is the middle of the t-th of T equal segments of the clip. */
class UniformFrameSamplingTest {
    @Test
    void shouldTakeTheMiddleFrameOfEachSegment() {
        assertThat(UniformFrameSampling.indices(100, new long[8])).containsExactly(6, 18, 31, 43, 56, 68, 81, 93);
        assertThat(UniformFrameSampling.indices(300, new long[4])).containsExactly(37, 112, 187, 262);
    }

    @Test
    void shouldRepeatFramesOfAClipShorterThanT() {
        assertThat(UniformFrameSampling.indices(3, new long[5])).containsExactly(0, 0, 1, 2, 2);
        assertThat(UniformFrameSampling.indices(1, new long[2])).containsExactly(0, 0);
    }

    @Test
    void shouldRefuseAClipWithoutFrames() {
        assertThatThrownBy(() -> UniformFrameSampling.indices(0, new long[2]))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("got 0");
    }
}
