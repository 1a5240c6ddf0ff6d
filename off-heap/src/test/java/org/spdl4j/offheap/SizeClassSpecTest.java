package org.spdl4j.offheap;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class SizeClassSpecTest {
    @Test
    void shouldRejectDuplicateClassSizes() {
        assertThatThrownBy(() -> PoolConfig.builder("dup").sizeClass(64, 1).sizeClass(64, 2).build())
                .hasMessageContaining("two size classes of 64 bytes");
    }
}
