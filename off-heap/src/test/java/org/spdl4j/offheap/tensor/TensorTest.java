package org.spdl4j.offheap.tensor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.FloatBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.spdl4j.offheap.BufferPool;
import org.spdl4j.offheap.Lease;
import org.spdl4j.offheap.PoolConfig;
import org.spdl4j.offheap.testing.PoolLeakExtension;

@ExtendWith(PoolLeakExtension.class)
class TensorTest {
    private final BufferPool pool = BufferPool.open(PoolConfig.builder("tensor").sizeClass(4096, 2).build());

    @AfterEach
    void close() {
        pool.close();
    }

    @Test
    void shouldLayOutNhwcBatchInCOrder() {
        final BatchDescriptor d = BatchDescriptor.images(4, ImageLayout.NHWC, 3, 5, 2, DType.F32);
        assertThat(d.sampleBytes()).isEqualTo(3 * 5 * 2 * 4);
        assertThat(d.sampleOffset(3)).isEqualTo(3L * 120);
        final Lease lease = pool.acquire(d.batchBytes());
        final Tensor t = d.batchTensor(lease, 4);
        assertThat(t.shape()).containsExactly(4, 3, 5, 2);
        assertThat(t.stride(0)).isEqualTo(30);
        assertThat(t.isContiguous()).isTrue();
        assertThat(t.byteOffsetOf(new long[] {1, 2, 3, 1})).isEqualTo(((((1 * 3) + 2) * 5 + 3) * 2 + 1) * 4L);
        lease.buffer().putFloat((int) t.byteOffsetOf(new long[] {1, 2, 3, 1}), 6.5f);
        final Tensor sample = t.select(1);
        assertThat(sample.shape()).containsExactly(3, 5, 2);
        assertThat(sample.byteOffset()).isEqualTo(d.sampleOffset(1));
        final FloatBuffer floats = sample.asFloatBuffer();
        assertThat(floats.capacity()).isEqualTo(30);
        assertThat(floats.get((2 * 5 + 3) * 2 + 1)).isEqualTo(6.5f);
        assertThatThrownBy(() -> t.byteOffsetOf(new long[] {4, 0, 0, 0})).isInstanceOf(IndexOutOfBoundsException.class);
        lease.release();
    }

    @Test
    void shouldPutChannelsFirstInNchw() {
        assertThat(ImageLayout.NCHW.sampleShape(3, 5, 2)).containsExactly(2, 3, 5);
    }

    @Test
    void shouldRejectTensorLargerThanItsLease() {
        final Lease lease = pool.acquire(100);
        assertThatThrownBy(() -> Tensor.contiguous(lease, 0, DType.F32, 26)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("needs 104 B").hasMessageContaining("100 B");
        assertThatThrownBy(() -> Tensor.contiguous(lease, 4, DType.U8, 97)).isInstanceOf(IllegalArgumentException.class);
        assertThat(Tensor.contiguous(lease, 4, DType.U8, 96).byteSize()).isEqualTo(96);
        // (2^62 + 1) x 4 bytes wraps to 4: without exact arithmetic it would pass the bounds check.
        assertThatThrownBy(() -> Tensor.contiguous(lease, 0, DType.U8, (1L << 62) + 1, 4))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("overflows");
        assertThatThrownBy(() -> Tensor.contiguous(lease, 0, DType.U8, 3, 1L << 40, 1L << 40))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("overflows");
        lease.release();
    }

    @Test
    void shouldRefuseBufferViewsOfStridedOrMistypedTensors() {
        final Lease lease = pool.acquire(64);
        final Tensor transposed = Tensor.strided(lease, 0, DType.F32, new long[] {2, 3}, new long[] {1, 2});
        assertThat(transposed.isContiguous()).isFalse();
        assertThatThrownBy(transposed::asByteBuffer).hasMessageContaining("contiguous");
        assertThatThrownBy(() -> Tensor.contiguous(lease, 0, DType.I32, 4).asFloatBuffer()).hasMessageContaining("F32");
        lease.release();
    }

    @Test
    void shouldMapNumpyTypeStrings() {
        for (DType t : DType.values()) {
            assertThat(DType.fromNpyDescr(t.npyDescr())).isEqualTo(t);
        }
        assertThat(DType.U8.npyDescr()).isEqualTo("|u1");
        assertThat(DType.F16.npyDescr()).isEqualTo("<f2");
        assertThatThrownBy(() -> DType.fromNpyDescr(">f4")).hasMessageContaining("native byte order");
        assertThatThrownBy(() -> DType.fromNpyDescr("<c8")).hasMessageContaining("unsupported dtype");
    }

    /** A U8 sample of exactly 2^31 elements is refused, not clamped to 2^31 - 1 bytes and accepted. */
    @Test
    void shouldRefuseASampleOfTwoGiBElements() {
        assertThatThrownBy(() -> BatchDescriptor.of(1, DType.U8, 65536, 32768))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("exceeds 2 GiB");
        assertThatThrownBy(() -> BatchDescriptor.of(1, DType.U8, 65536, 65536, 65536, 65536))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("exceeds 2 GiB");
        assertThat(BatchDescriptor.of(1, DType.U8, 32768, 65535).sampleBytes()).isEqualTo(32768 * 65535);
    }
}
