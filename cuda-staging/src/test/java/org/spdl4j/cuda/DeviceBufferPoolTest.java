package org.spdl4j.cuda;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.Map;
import jcuda.driver.CUresult;
import org.junit.jupiter.api.Test;

class DeviceBufferPoolTest {
    /** Fake device memory: hands out fake addresses, refuses beyond a capacity like cuMemAlloc does. */
    static final class FakeMemory implements RawDeviceMemory {
        final Map<Long, Long> live = new HashMap<>();
        final long capacity;
        long next = 0x1000;
        int allocations;
        /** How many of the next frees fail, before freeing (a driver error on cuMemFree). */
        int failFrees;

        FakeMemory(long capacity) {
            this.capacity = capacity;
        }

        long used() {
            return live.values().stream().mapToLong(Long::longValue).sum();
        }

        @Override
        public long allocate(long bytes) {
            if (used() + bytes > capacity) {
                throw new CudaDriverException("cuMemAlloc(" + bytes + ")", CUresult.CUDA_ERROR_OUT_OF_MEMORY);
            }
            allocations++;
            long address = next;
            next += bytes;
            live.put(address, bytes);
            return address;
        }

        @Override
        public void free(long address, long bytes) {
            if (failFrees > 0) {
                failFrees--;
                throw new IllegalStateException("cuMemFree(0x" + Long.toHexString(address) + ") failed (test)");
            }
            assertThat(live.remove(address)).isEqualTo(bytes);
        }
    }

    @Test
    void shouldReuseABufferOfTheSameClassWithoutAllocating() {
        FakeMemory memory = new FakeMemory(1L << 30);
        LiveResourceCounters counters = new LiveResourceCounters();
        try (DeviceBufferPool pool = new DeviceBufferPool("test", memory, counters, 1L << 30)) {
            DeviceBuffer a = pool.acquire(1000);
            long address = a.address();
            a.close();
            DeviceBuffer b = pool.acquire(1024);
            assertThat(b.address()).isEqualTo(address);
            assertThat(memory.allocations).isEqualTo(1);
            DeviceBuffer c = pool.acquire(4000);
            assertThat(c.address()).isNotEqualTo(address);
            assertThat(counters.leasedBuffers()).isEqualTo(2);
            b.close();
            c.close();
            assertThat(counters.leasedBuffers()).isZero();
            assertThat(counters.deviceAllocations()).isEqualTo(2);
        }
        assertThat(memory.live).isEmpty();
        assertThat(counters.allReleased()).isTrue();
    }

    /**
     * A stale second close, after the block went to a new owner, must fail and leave the new owner's block alone.
     * Before the fix the pool handed out the same object again, so that close returned the new owner's block: the
     * next acquire got memory a live buffer still used.
     */
    @Test
    void shouldRefuseAStaleSecondCloseAfterTheBlockWentToAnotherOwner() {
        FakeMemory memory = new FakeMemory(1L << 30);
        LiveResourceCounters counters = new LiveResourceCounters();
        try (DeviceBufferPool pool = new DeviceBufferPool("test", memory, counters, 1L << 30)) {
            DeviceBuffer first = pool.acquire(1000);
            first.close();
            DeviceBuffer second = pool.acquire(1000); // the same block, a new owner

            assertThatThrownBy(first::close).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("closed twice");
            DeviceBuffer third = pool.acquire(1000);

            assertThat(third.address()).as("the live second buffer's block is not handed out again")
                    .isNotEqualTo(second.address());
            assertThat(counters.leasedBuffers()).isEqualTo(2);
            second.close();
            third.close();
        }
        assertThat(counters.allReleased()).isTrue();
    }

    @Test
    void shouldFreeReturnedBuffersBeyondTheCacheCap() {
        FakeMemory memory = new FakeMemory(1L << 30);
        LiveResourceCounters counters = new LiveResourceCounters();
        try (DeviceBufferPool pool = new DeviceBufferPool("test", memory, counters, 1 << 20)) {
            DeviceBuffer a = pool.acquire(1 << 20);
            DeviceBuffer b = pool.acquire(1 << 20);
            a.close();
            b.close(); // the cap holds one 1 MiB block
            assertThat(memory.live).hasSize(1);
        }
    }

    @Test
    void shouldTrimTheCacheAndRetryWhenTheDeviceIsFull() {
        FakeMemory memory = new FakeMemory(3L << 20);
        LiveResourceCounters counters = new LiveResourceCounters();
        try (DeviceBufferPool pool = new DeviceBufferPool("test", memory, counters, 1L << 30)) {
            pool.acquire(1 << 20).close();
            pool.acquire(1 << 19).close();     // 1.5 MiB cached in two classes
            DeviceBuffer big = pool.acquire(2L << 20); // needs the cache back
            assertThat(memory.live).containsValue(2L << 20).hasSize(1);
            assertThatThrownBy(() -> pool.acquire(2L << 20)).isInstanceOf(CudaDriverException.class)
                    .hasMessageContaining("CUDA_ERROR_OUT_OF_MEMORY");
            big.close();
        }
    }

    /** Trim has taken every block out of the cache before freeing them: one failed free must not leak the rest. */
    @Test
    void shouldFreeEveryCachedBlockWhenOneFreeFails() {
        FakeMemory memory = new FakeMemory(1L << 30);
        LiveResourceCounters counters = new LiveResourceCounters();
        try (DeviceBufferPool pool = new DeviceBufferPool("test", memory, counters, 1L << 30)) {
            DeviceBuffer a = pool.acquire(1000);
            DeviceBuffer b = pool.acquire(1 << 20);
            a.close();
            b.close(); // two blocks cached
            memory.failFrees = 1;
            assertThatThrownBy(pool::trim).hasMessageContaining("cuMemFree").hasMessageContaining("failed (test)");
            assertThat(memory.live).as("only the block whose free failed is left").hasSize(1);
            assertThat(counters.deviceAllocations()).isEqualTo(1);
        }
    }

    /** Out of memory, and the trim that would make room frees all but one block: the allocation is tried again. */
    @Test
    void shouldRetryTheAllocationAfterATrimThatPartlyFailed() {
        FakeMemory memory = new FakeMemory(3L << 20);
        LiveResourceCounters counters = new LiveResourceCounters();
        try (DeviceBufferPool pool = new DeviceBufferPool("test", memory, counters, 1L << 30)) {
            DeviceBuffer a = pool.acquire(1 << 20);
            DeviceBuffer b = pool.acquire(1 << 20);
            a.close();
            b.close(); // 2 MiB cached, 1 MiB free
            memory.failFrees = 1; // the trim frees one cached block, the other's free fails
            try (DeviceBuffer big = pool.acquire(2 << 20)) {
                assertThat(big.capacity()).isGreaterThanOrEqualTo(2L << 20);
            }
        }
    }

    @Test
    void shouldFreeBuffersReturnedAfterClose() {
        FakeMemory memory = new FakeMemory(1L << 30);
        LiveResourceCounters counters = new LiveResourceCounters();
        DeviceBufferPool pool = new DeviceBufferPool("test", memory, counters, 1L << 30);
        DeviceBuffer held = pool.acquire(100);
        pool.close();
        assertThatThrownBy(() -> pool.acquire(100)).isInstanceOf(IllegalStateException.class).hasMessageContaining("closed");
        held.close();
        assertThat(memory.live).isEmpty();
        assertThat(counters.allReleased()).isTrue();
    }
}
