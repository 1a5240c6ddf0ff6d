package org.spdl4j.offheap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class SizeClassSpecTest {
    @Test
    void shouldParseBinarySuffixes() {
        assertThat(SizeClassSpec.parseList("4K*2, 1M*3,100*7")).containsExactly(
                new SizeClassSpec(4096, 2), new SizeClassSpec(1 << 20, 3), new SizeClassSpec(100, 7));
    }

    @Test
    void shouldNameTheBadEntry() {
        assertThatThrownBy(() -> SizeClassSpec.parseList("4K*2,oops")).hasMessageContaining("'oops'");
        assertThatThrownBy(() -> SizeClassSpec.parseList("4G*1")).hasMessageContaining("2 GiB");
        // 2^34 G is 2^64 bytes: a plain shift wraps it to 0.
        assertThatThrownBy(() -> SizeClassSpec.parseList("17179869184G*1")).hasMessageContaining("out of range")
                .hasMessageContaining("'17179869184G*1'");
        assertThatThrownBy(() -> SizeClassSpec.parseList("4K*2, *4")).hasMessageContaining("'*4'")
                .hasMessageContaining("expected size*count");
    }

    /** {@code String.split} drops trailing empty strings: "4K*2," was taken as "4K*2", silently. */
    @Test
    void shouldRejectAnEmptyEntry() {
        for (String list : new String[] {"4K*2,", "4K*2, ", "4K*2,,1M*1", ",4K*2", ""}) {
            assertThatThrownBy(() -> SizeClassSpec.parseList(list)).as("'%s'", list)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("empty size class in '" + list + "'");
        }
    }

    @Test
    void shouldRejectDuplicateClassSizes() {
        assertThatThrownBy(() -> PoolConfig.builder("dup").sizeClass(64, 1).sizeClass(64, 2).build())
                .hasMessageContaining("two size classes of 64 bytes");
    }
}
