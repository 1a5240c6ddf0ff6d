package org.spdl4j.engine.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class SourceStateTest {
    @Test
    void shouldRoundTripThroughTextAndBytes() {
        SourceState s = new SourceState(-123456789L, 7, 1L << 40);
        assertThat(SourceState.parse(s.encode())).isEqualTo(s);
        assertThat(SourceState.fromBytes(s.toBytes())).isEqualTo(s);
        assertThat(s.encode()).isEqualTo("spdl4j-source/1 seed=-123456789 epoch=7 position=1099511627776");
        assertThat(s.toBytes()).hasSize(SourceState.ENCODED_LENGTH);
    }

    @Test
    void shouldRejectGarbage() {
        assertThatThrownBy(() -> SourceState.parse("seed=1 epoch=2")).hasMessageContaining("seed=1 epoch=2");
        assertThatThrownBy(() -> SourceState.parse("spdl4j-source/1 seed=x epoch=0 position=0"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> SourceState.fromBytes(new byte[3])).isInstanceOf(IllegalArgumentException.class);
        byte[] b = new SourceState(1, 2, 3).toBytes();
        b[3] = 9;
        assertThatThrownBy(() -> SourceState.fromBytes(b)).hasMessageContaining("version 9");
    }
}
