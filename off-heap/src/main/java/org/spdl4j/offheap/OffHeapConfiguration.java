package org.spdl4j.offheap;

import java.time.Duration;
import java.util.List;

/**
 * The off-heap module's defaults in one place, and the three system properties it reads: leak detection, its sampling
 * interval and checked mode, the switches a user flips without recompiling (read once, when this class
 * initialises). Everything else is an option of {@link PoolConfig.Builder} whose default is named here, or a
 * constant.
 *
 * <p>A property set to a value that does not parse ("yes" for a boolean, "loud" for a level) fails this class's
 * initialisation with a message naming it ({@link SystemProperties}), rather than leaving the default silently in
 * effect.
 *
 * <p><b>Threading:</b> constants only; immutable.
 */
public final class OffHeapConfiguration {
    /** Property: leak detection level, {@code off | sampled | paranoid} (tests run paranoid). */
    public static final String LEAK_DETECTION_PROP = "spdl4j.leakDetection";
    /** Default leak detection level: sampled, as in production. */
    public static final LeakDetectionLevel LEAK_DETECTION_DEFAULT = LeakDetectionLevel.SAMPLED;
    /** Leak detection level in effect: that of a pool whose builder sets none. */
    public static final LeakDetectionLevel LEAK_DETECTION =
            LeakDetectionLevel.parse(System.getProperty(LEAK_DETECTION_PROP, LEAK_DETECTION_DEFAULT.name()));

    /** Property: in sampled mode, one acquire in this many is tracked. */
    public static final String LEAK_SAMPLING_INTERVAL_PROP = "spdl4j.leakDetection.samplingInterval";
    /** Default sampling interval. */
    public static final int LEAK_SAMPLING_INTERVAL_DEFAULT = 128;
    /** Sampling interval in effect: that of a pool whose builder sets none. */
    public static final int LEAK_SAMPLING_INTERVAL = SystemProperties.intValue(LEAK_SAMPLING_INTERVAL_PROP,
            LEAK_SAMPLING_INTERVAL_DEFAULT, 1, Integer.MAX_VALUE);

    /**
     * Property: checked mode ({@code true|false}): leases refuse {@code address()}, {@code buffer()} and slices
     * once released, and a released lease's {@code buffer()} view is shrunk to zero bytes. Defaults to true when
     * leak detection is paranoid (so tests run checked), false otherwise.
     */
    public static final String CHECKED_PROP = "spdl4j.checked";
    /** Checked mode in effect: that of a pool whose builder sets none. */
    public static final boolean CHECKED =
            SystemProperties.booleanValue(CHECKED_PROP, LEAK_DETECTION == LeakDetectionLevel.PARANOID);

    /**
     * Default slab alignment ({@link PoolConfig.Builder#alignment}): one cache line, so no two slabs share a line (no
     * false sharing between writers).
     */
    public static final int ALIGNMENT_DEFAULT = 64;
    /** Alignment for memory that DMA engines read (GPU copies, O_DIRECT I/O): one page. */
    public static final int DMA_ALIGNMENT = 4096;

    /**
     * Default acquire timeout ({@link PoolConfig.Builder#acquireTimeout}): long enough for a slow consumer, short
     * enough that a leak fails a job visibly.
     */
    public static final Duration ACQUIRE_TIMEOUT_DEFAULT = Duration.ofSeconds(30);

    /**
     * The longest single park of a thread waiting for a free slab or batch, in microseconds: 1 ms, a bound on the
     * extra latency a waiter sees once one is free.
     */
    public static final long MAX_PARK_MICROS = 1_000;

    /**
     * Default largest single allocation a size class asks its allocator for ({@link PoolConfig.Builder#maxChunkBytes}):
     * 1 GiB, so one class is a few big allocations, not thousands of small ones.
     */
    public static final long MAX_CHUNK_BYTES_DEFAULT = 1L << 30;

    /**
     * Whether {@link DirectMemoryAllocator#INSTANCE} touches (zeroes) every page of a block when it allocates it:
     * {@code false}, so pages become resident when first used and a size class sized for rare large items costs
     * resident memory only once such items arrive (slabs are reused, so each page faults once in the pool's life).
     * A pool whose hot path must never take a page fault uses {@code new DirectMemoryAllocator(true)}
     * ({@link PoolConfig.Builder#allocator}), which pays every fault at start.
     */
    public static final boolean PREFAULT_DEFAULT = false;

    /**
     * Default size classes, those of a pool whose builder adds none ({@link PoolConfig.Builder#sizeClass}): 4 KiB x
     * 1024, 64 KiB x 256 and 1 MiB x 32, 64 MiB in all, sized for small images and encoded files. Smallest first,
     * immutable.
     */
    public static final List<SizeClassSpec> SIZE_CLASSES_DEFAULT = List.of(new SizeClassSpec(4 << 10, 1024),
            new SizeClassSpec(64 << 10, 256), new SizeClassSpec(1 << 20, 32));

    private OffHeapConfiguration() {
    }

    /**
     * Checks that this JVM runs with the flags off-heap memory needs, before anything touches it: a pool checks when
     * it opens; code that writes through Agrona earlier (a decoder's warm-up) calls this first.
     *
     * @throws IllegalStateException naming the missing JVM flag ({@code --add-exports
     *                               java.base/jdk.internal.misc=ALL-UNNAMED} on the class path), Agrona's own error
     *                               as the cause
     */
    public static void checkJvmAccess() {
        AgronaAccess.check();
    }
}
