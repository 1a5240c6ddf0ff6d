package org.spdl4j.perf.djl;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.agrona.UnsafeApi;
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
import org.spdl4j.djl.PixelNormalization;

/**
 * Cost per batch of turning uint8 {@code [N, H, W, 3]} pixels into normalized float {@code [N, 3, H, W]} on one
 * thread, as spdl4j-djl's {@code NormalizingSlotDecoder} does in each decode worker (per sample, in place in the
 * slot): {@link PixelNormalization#hwcToChw} (a 768-entry table, one look-up per element) against the same formula
 * computed per element ({@code ((x / 255f) - mean) / std}, two float divisions). The whole batch on one thread: in
 * a loader this work is spread over the decode workers.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class NormalizeBenchmark {
    /** Image side (square). */
    @Param({"64", "224"})
    public int side;

    /** Samples per batch. */
    @Param({"32"})
    public int batch;

    private Arena arena;
    private long src;
    private long dst;
    private PixelNormalization normalization;
    private float[] mean;
    private float[] std;

    /** Random pixels and the float destination. */
    @Setup(Level.Trial)
    public void allocate() {
        arena = Arena.ofShared();
        long pixels = (long) batch * side * side;
        MemorySegment in = arena.allocate(3 * pixels, 64);
        MemorySegment out = arena.allocate(12 * pixels, 64);
        SplittableRandom random = new SplittableRandom(1);
        for (long i = 0; i < in.byteSize(); i++) {
            in.set(java.lang.foreign.ValueLayout.JAVA_BYTE, i, (byte) random.nextInt(256));
        }
        src = in.address();
        dst = out.address();
        normalization = PixelNormalization.imagenet();
        mean = normalization.mean();
        std = normalization.std();
    }

    /** Frees the buffers. */
    @TearDown(Level.Trial)
    public void free() {
        arena.close();
    }

    /** The adapter's kernel, sample by sample. */
    @Benchmark
    public long lookupTable() {
        final int pixels = side * side;
        for (int n = 0; n < batch; n++) {
            normalization.hwcToChw(src + 3L * pixels * n, dst + 12L * pixels * n, pixels);
        }
        return dst;
    }

    /** The formula per element, the same loop otherwise. */
    @Benchmark
    public long arithmetic() {
        final int pixels = side * side;
        final long plane = 4L * pixels;
        final float m0 = mean[0];
        final float m1 = mean[1];
        final float m2 = mean[2];
        final float s0 = std[0];
        final float s1 = std[1];
        final float s2 = std[2];
        for (int n = 0; n < batch; n++) {
            final long in = src + 3L * pixels * n;
            final long out = dst + 12L * pixels * n;
            for (int p = 0; p < pixels; p++) {
                final long s = in + 3L * p;
                final long d = out + 4L * p;
                UnsafeApi.putFloat(d, (((UnsafeApi.getByte(s) & 0xff) / 255f) - m0) / s0);
                UnsafeApi.putFloat(d + plane, (((UnsafeApi.getByte(s + 1) & 0xff) / 255f) - m1) / s1);
                UnsafeApi.putFloat(d + 2 * plane, (((UnsafeApi.getByte(s + 2) & 0xff) / 255f) - m2) / s2);
            }
        }
        return dst;
    }
}
