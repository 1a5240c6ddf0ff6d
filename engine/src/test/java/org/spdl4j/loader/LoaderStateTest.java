package org.spdl4j.loader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class LoaderStateTest {
    @Test
    void shouldEncodeRangesCompactlyAndReadThemBack() {
        LoaderState s = new LoaderState(42, 1, 4, 3, Map.of(
            3L, new LoaderState.Mark(1024, new long[] {1030, 1032, 1033, 1034, 1040}),
            4L, new LoaderState.Mark(0, new long[] {5})));
        assertThat(s.encode()).isEqualTo("spdl4j-loader/1 seed=42 rank=1/4 epoch=3 3:1024+1030,1032-1034,1040 4:0+5");
        assertThat(LoaderState.parse(s.encode())).isEqualTo(s);
    }

    @Test
    void shouldRejectPositionsBelowTheWatermark() {
        assertThatThrownBy(() -> new LoaderState.Mark(10, new long[] {3}))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("above it");
    }

    @Test
    void shouldNameTheTextItCannotRead() {
        assertThatThrownBy(() -> LoaderState.parse("spdl4j-source/1 seed=1 epoch=0 position=3"))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("spdl4j-source/1");
    }
}
