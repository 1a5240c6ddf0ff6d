package org.spdl4j.offheap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

class DirectMemoryAllocatorTest {
    private final DirectMemoryAllocator allocator = new DirectMemoryAllocator();

    @Test
    void shouldAlignToCacheLineAndPage() {
        for (int alignment : new int[] {64, 4096}) {
            final long address = allocator.allocate(10_000, alignment);
            assertThat(address % alignment).as("alignment %d", alignment).isZero();
            final UnsafeBuffer buffer = new UnsafeBuffer(address, 10_000);
            assertThat(buffer.getLong(9_992)).as("zeroed").isZero();
            buffer.putLong(9_992, 42L);
            assertThat(buffer.getLong(9_992)).isEqualTo(42L);
            allocator.free(address, 10_000, alignment);
        }
        assertThat(allocator.liveBlocks()).isZero();
    }

    @Test
    void shouldRejectDoubleFreeAndMismatchedSize() {
        final long address = allocator.allocate(128, 64);
        assertThatThrownBy(() -> allocator.free(address, 256, 64)).hasMessageContaining("has 128 bytes");
        allocator.free(address, 128, 64);
        assertThatThrownBy(() -> allocator.free(address, 128, 64)).hasMessageContaining("already freed");
    }

    @Test
    void shouldRejectBadAlignment() {
        assertThatThrownBy(() -> allocator.allocate(128, 48)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("power of two");
    }
}
