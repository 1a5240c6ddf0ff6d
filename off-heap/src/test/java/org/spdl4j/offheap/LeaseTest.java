package org.spdl4j.offheap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.util.IdentityHashMap;
import java.util.Map;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.spdl4j.offheap.testing.PoolLeakExtension;

@ExtendWith(PoolLeakExtension.class)
class LeaseTest {
    private final BufferPool checked = BufferPool.open(PoolConfig.builder("checked").sizeClass(256, 4).checked(true)
            .build());
    private final BufferPool unchecked = BufferPool.open(PoolConfig.builder("unchecked").sizeClass(256, 4)
            .checked(false).build());

    @AfterEach
    void close() {
        checked.close();
        unchecked.close();
    }

    @Test
    void shouldReturnToPoolOnlyWhenLastOwnerReleases() {
        final Lease lease = checked.acquire(200);
        assertThat(lease.retain()).isSameAs(lease);
        assertThat(lease.refCount()).isEqualTo(2);
        assertThat(lease.release()).isFalse();
        assertThat(checked.inUse()).isEqualTo(1);
        assertThat(lease.release()).isTrue();
        assertThat(checked.inUse()).isZero();
    }

    @Test
    void shouldDetectDoubleReleaseWithoutCorruptingFreeList() {
        for (BufferPool pool : new BufferPool[] {checked, unchecked}) {
            final Lease lease = pool.acquire(10);
            lease.release();
            assertThatThrownBy(lease::release).isInstanceOf(LeaseStateException.class)
                    .hasMessageContaining("double release").hasMessageContaining("pool '" + pool.name() + "'");
            final Map<Lease, Boolean> seen = new IdentityHashMap<>();
            Lease l;
            while ((l = pool.tryAcquire(10)) != null) {
                assertThat(seen.put(l, true)).as("handed out twice").isNull();
            }
            assertThat(seen).hasSize(4);
            seen.keySet().forEach(Lease::release);
        }
    }

    @Test
    void shouldCatchUseAfterReleaseInCheckedMode() {
        final Lease lease = checked.acquire(64);
        final UnsafeBuffer stale = lease.buffer();
        lease.release();
        assertThatThrownBy(lease::address).isInstanceOf(LeaseStateException.class)
                .hasMessageContaining("use after release");
        assertThatThrownBy(lease::buffer).isInstanceOf(LeaseStateException.class);
        assertThatThrownBy(lease::retain).isInstanceOf(LeaseStateException.class);
        assertThatThrownBy(() -> lease.sliceAddress(0, 1)).isInstanceOf(LeaseStateException.class);
        assertThatThrownBy(() -> stale.putInt(0, 1)).as("stale view shrunk to zero bytes")
                .isInstanceOf(IndexOutOfBoundsException.class);
    }

    @Test
    void shouldNotCheckAccessorsWhenUnchecked() {
        final Lease lease = unchecked.acquire(64);
        final long address = lease.address();
        lease.release();
        assertThat(lease.address()).as("no check, no cost").isEqualTo(address);
        assertThatThrownBy(lease::retain).as("retain always checks").isInstanceOf(LeaseStateException.class);
    }

    @Test
    void shouldBoundsCheckSlicesAndShareBytesWithViews() {
        final Lease lease = checked.acquire(100);
        final UnsafeBuffer slice = lease.slice(10, 20, new UnsafeBuffer());
        slice.putInt(0, 0xCAFEBABE);
        assertThat(lease.buffer().getInt(10)).isEqualTo(0xCAFEBABE);
        final ByteBuffer bb = lease.byteBuffer();
        assertThat(bb.capacity()).isEqualTo(100);
        assertThat(bb.getInt(10)).isEqualTo(0xCAFEBABE);
        assertThat(lease.segment().byteSize()).isEqualTo(100);
        assertThatThrownBy(() -> lease.slice(90, 11, new UnsafeBuffer())).isInstanceOf(IndexOutOfBoundsException.class)
                .hasMessageContaining("outside lease");
        assertThatThrownBy(() -> lease.sliceAddress(-1, 1)).isInstanceOf(IndexOutOfBoundsException.class);
        // offset + length wraps negative here: the check must not add them.
        assertThatThrownBy(() -> lease.sliceAddress(Long.MAX_VALUE - 2, 8)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThat(lease.sliceAddress(100, 0)).isEqualTo(lease.address() + 100);
        lease.release();
    }
}
