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
            buffer.putLong(9_992, 42L);
            assertThat(buffer.getLong(9_992)).isEqualTo(42L);
            allocator.free(address, 10_000, alignment);
        }
        assertThat(allocator.liveBlocks()).isZero();
    }

    @Test
    void shouldZeroEveryByteWhenPrefaulting() {
        final DirectMemoryAllocator prefaulting = new DirectMemoryAllocator(true);
        final long address = prefaulting.allocate(1 << 20, 4096);
        final UnsafeBuffer buffer = new UnsafeBuffer(address, 1 << 20);
        for (int i = 0; i < 1 << 20; i += 8) {
            assertThat(buffer.getLong(i)).isZero();
        }
        prefaulting.free(address, 1 << 20, 4096);
    }

    @Test
    void shouldNotMakeAnUntouchedBlockResident() throws Exception {
        final long before = rssKib();
        final long bytes = 256L << 20;
        final long address = allocator.allocate(bytes, 4096);
        try {
            assertThat(rssKib() - before).as("KiB resident after allocating 256 MiB untouched").isLessThan(64 << 10);
        } finally {
            allocator.free(address, bytes, 4096);
        }
    }

    private static long rssKib() throws java.io.IOException {
        for (String line : java.nio.file.Files.readAllLines(java.nio.file.Path.of("/proc/self/status"))) {
            if (line.startsWith("VmRSS:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", ""));
            }
        }
        throw new IllegalStateException("no VmRSS");
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
