package org.spdl4j.perf.offheap;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.spdl4j.offheap.BufferPool;
import org.spdl4j.offheap.LeakDetectionLevel;
import org.spdl4j.offheap.Lease;
import org.spdl4j.offheap.PoolConfig;

/**
 * Cost of getting a buffer for one item and giving it back: a pooled {@link Lease} against a direct
 * {@link ByteBuffer} and a heap {@code byte[]} allocated per item. Each variant writes one byte so the buffer is
 * really used. Run with {@code -prof gc}: {@code gc.alloc.rate.norm} is B/op (goal: 0 for the pool), {@code gc.time}
 * the GC time the allocating variants cost; the direct variant also pays its Cleaner and, under pressure,
 * {@code System.gc()} from {@code Bits.reserveMemory}. Multi-threaded contention: add {@code -t 4}.
 *
 * <p>The pool runs with leak detection off and checks off, as in production; paranoid costs a stack trace per
 * acquire and is for tests.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class PoolAcquireReleaseBenchmark {
    /** Bytes per item. */
    @Param({"4096", "65536"})
    public int size;

    private BufferPool pool;

    /** Opens a pool with room for every benchmark thread. */
    @Setup(Level.Trial)
    public void open() {
        pool = BufferPool.open(PoolConfig.builder("bench").sizeClass(4096, 256).sizeClass(65536, 256)
                .leakDetection(LeakDetectionLevel.OFF).checked(false).build());
    }

    /** Frees the pool. */
    @TearDown(Level.Trial)
    public void close() {
        pool.close();
    }

    /** Pooled: acquire, touch, release. */
    @Benchmark
    public long pooledLease() {
        final Lease lease = pool.acquire(size);
        lease.buffer().putByte(size - 1, (byte) 1);
        final long address = lease.address();
        lease.release();
        return address;
    }

    /** A new direct ByteBuffer per item (zeroed by the JDK, freed by its Cleaner after a GC). */
    @Benchmark
    public ByteBuffer directByteBuffer() {
        final ByteBuffer buffer = ByteBuffer.allocateDirect(size);
        buffer.put(size - 1, (byte) 1);
        return buffer;
    }

    /**
     * Native memory allocated and freed per item, deterministically (a confined {@link Arena}: malloc, zeroing,
     * free on close; no Cleaner, no GC): the fair baseline for what pooling saves, where {@code directByteBuffer}
     * mostly measures the JDK's GC-driven reclamation and depends on heap and direct-memory limits.
     *
     * @return the segment's address (dead after close; only a value for the blackhole)
     */
    @Benchmark
    public long arenaAllocateFree() {
        try (Arena arena = Arena.ofConfined()) {
            final MemorySegment segment = arena.allocate(size, 64);
            segment.set(ValueLayout.JAVA_BYTE, size - 1, (byte) 1);
            return segment.address();
        }
    }

    /** A new heap array per item (zeroed, collected by the GC). */
    @Benchmark
    public byte[] heapByteArray() {
        final byte[] bytes = new byte[size];
        bytes[size - 1] = 1;
        return bytes;
    }
}
