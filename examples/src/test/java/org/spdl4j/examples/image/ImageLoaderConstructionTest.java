package org.spdl4j.examples.image;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.spdl4j.offheap.BufferPool;
import org.spdl4j.offheap.MemoryAllocator;
import org.spdl4j.offheap.PoolRegistry;

/** A loader whose construction fails part way frees what it had built: no pool stays allocated. */
class ImageLoaderConstructionTest {
    /** Batch memory that cannot be had: the native allocator answers with an Error, as malloc's failure does. */
    private static final MemoryAllocator NO_MEMORY = new MemoryAllocator() {
        @Override
        public long allocate(long bytes, int alignment) {
            throw new OutOfMemoryError("no batch memory (test)");
        }

        @Override
        public void free(long address, long bytes, int alignment) {
            throw new AssertionError("nothing was allocated");
        }

        @Override
        public String name() {
            return "none";
        }
    };

    @Test
    void shouldFreeItsEncodedBytesPoolWhenTheBatchMemoryCannotBeAllocated() {
        assertThatThrownBy(() -> new ImageBatchLoader("no-batch-memory", List.of(), ImageLoaderOptions.defaults(),
                NO_MEMORY, null)).isInstanceOf(OutOfMemoryError.class);
        assertThat(PoolRegistry.livePools()).extracting(BufferPool::name)
            .as("pools still allocated after the constructor failed").noneMatch(n -> n.startsWith("no-batch-memory"));
    }
}
