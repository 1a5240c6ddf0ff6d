package org.spdl4j.offheap;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.spdl4j.offheap.testing.PoolLeakExtension;

@ExtendWith(PoolLeakExtension.class)
@Timeout(30)
class LeaseLookupTest {
    @Test
    void shouldFindTheLeaseOfAnyAddressInsideItsSlabAcrossClassesAndChunks() {
        // 3 slabs of 1000 B per chunk (stride 1024): the 7-slab class spans three chunks, with padding between slabs
        PoolConfig config = PoolConfig.builder("lookup").sizeClass(1000, 7).sizeClass(100, 3).maxChunkBytes(3 * 1024)
                .build();
        try (BufferPool pool = BufferPool.open(config)) {
            assertThat(pool.slabCount()).isEqualTo(10);
            List<Lease> all = new ArrayList<>();
            for (int i = 0; i < 7; i++) {
                all.add(pool.acquire(1000));
            }
            for (int i = 0; i < 3; i++) {
                all.add(pool.acquire(50));
            }
            boolean[] ids = new boolean[pool.slabCount()];
            for (Lease lease : all) {
                ids[lease.id()] = true;
                assertThat(pool.leaseAt(lease.address())).isSameAs(lease);
                assertThat(pool.leaseAt(lease.address() + lease.slabCapacity() - 1)).as("last byte of the slab")
                        .isSameAs(lease);
                if (lease.slabCapacity() == 1000) {
                    assertThat(pool.leaseAt(lease.address() + 1000)).as("alignment padding after the slab").isNull();
                }
            }
            assertThat(ids).as("ids are dense: 0 .. slabCount - 1").doesNotContain(false);
            assertThat(pool.leaseAt(0)).isNull();
            assertThat(pool.leaseAt(all.get(0).address() - 4096 * 1024L)).isNull();
            all.forEach(Lease::release);
        }
    }
}
