package org.spdl4j.offheap;

import java.time.Duration;
import java.util.List;

/**
 * Every tunable of the off-heap module in one place: a named default, the system property that overrides it, and
 * the value in effect (read once, when this class initialises).
 *
 * <p>Builders ({@link PoolConfig.Builder}) start from these values, so a deployment can change a default without
 * code, and code can still override any of them per pool. A property set to a value that does not parse or is out of
 * range (an alignment that is not a power of two, "yes" for a boolean) fails this class's initialisation with a
 * message naming it ({@link SystemProperties}), rather than leaving the default silently in effect or letting
 * {@link BufferPool#open} fail later for a reason that names no property.
 */
public final class OffHeapConfiguration {
    /** Property: leak detection level, {@code off | sampled | paranoid} (tests run paranoid). */
    public static final String LEAK_DETECTION_PROP = "spdl4j.leakDetection";
    /** Default leak detection level: sampled, as in production. */
    public static final LeakDetectionLevel LEAK_DETECTION_DEFAULT = LeakDetectionLevel.SAMPLED;
    /** Leak detection level in effect. */
    public static final LeakDetectionLevel LEAK_DETECTION =
            LeakDetectionLevel.parse(System.getProperty(LEAK_DETECTION_PROP, LEAK_DETECTION_DEFAULT.name()));

    /** Property: in sampled mode, one acquire in this many is tracked. */
    public static final String LEAK_SAMPLING_INTERVAL_PROP = "spdl4j.leakDetection.samplingInterval";
    /** Default sampling interval. */
    public static final int LEAK_SAMPLING_INTERVAL_DEFAULT = 128;
    /** Sampling interval in effect. */
    public static final int LEAK_SAMPLING_INTERVAL = SystemProperties.intValue(LEAK_SAMPLING_INTERVAL_PROP,
            LEAK_SAMPLING_INTERVAL_DEFAULT, 1, Integer.MAX_VALUE);

    /**
     * Property: checked mode ({@code true|false}): leases refuse {@code address()}, {@code buffer()} and slices
     * once released, and a released lease's {@code buffer()} view is shrunk to zero bytes. Defaults to true when
     * leak detection is paranoid (so tests run checked), false otherwise.
     */
    public static final String CHECKED_PROP = "spdl4j.checked";
    /** Checked mode in effect. */
    public static final boolean CHECKED =
            SystemProperties.booleanValue(CHECKED_PROP, LEAK_DETECTION == LeakDetectionLevel.PARANOID);

    /** Property: default slab alignment in bytes (a power of two). */
    public static final String ALIGNMENT_PROP = "spdl4j.pool.alignment";
    /** Default slab alignment: one cache line, so no two slabs share a line (no false sharing between writers). */
    public static final int ALIGNMENT_DEFAULT = 64;
    /** Slab alignment in effect. */
    public static final int ALIGNMENT = SystemProperties.powerOfTwoValue(ALIGNMENT_PROP, ALIGNMENT_DEFAULT, 1 << 30);
    /** Alignment for memory that DMA engines read (GPU copies, O_DIRECT I/O): one page. */
    public static final int DMA_ALIGNMENT = 4096;

    /** Property: how long {@code acquire} waits for a free slab before failing, in milliseconds. */
    public static final String ACQUIRE_TIMEOUT_PROP = "spdl4j.pool.acquireTimeoutMs";
    /** Default acquire timeout: long enough for a slow consumer, short enough that a leak fails a job visibly. */
    public static final long ACQUIRE_TIMEOUT_MS_DEFAULT = 30_000;
    /** Acquire timeout in effect. */
    public static final Duration ACQUIRE_TIMEOUT = Duration.ofMillis(
            SystemProperties.longValue(ACQUIRE_TIMEOUT_PROP, ACQUIRE_TIMEOUT_MS_DEFAULT, 0, Long.MAX_VALUE));

    /** Property: the longest single park while waiting for a free slab, in microseconds. */
    public static final String MAX_PARK_PROP = "spdl4j.pool.maxParkMicros";
    /** Default longest park: 1 ms, a bound on the extra latency a waiter sees once a slab is free. */
    public static final long MAX_PARK_MICROS_DEFAULT = 1_000;
    /** Longest park in effect. */
    public static final long MAX_PARK_MICROS =
            SystemProperties.longValue(MAX_PARK_PROP, MAX_PARK_MICROS_DEFAULT, 0, Long.MAX_VALUE);

    /** Property: the largest single allocation a size class asks its allocator for, in bytes. */
    public static final String MAX_CHUNK_PROP = "spdl4j.pool.maxChunkBytes";
    /** Default largest chunk: 1 GiB, so one class is a few big allocations, not thousands of small ones. */
    public static final long MAX_CHUNK_BYTES_DEFAULT = 1L << 30;
    /** Largest chunk in effect. */
    public static final long MAX_CHUNK_BYTES =
            SystemProperties.longValue(MAX_CHUNK_PROP, MAX_CHUNK_BYTES_DEFAULT, 1, Long.MAX_VALUE);

    /** System property: whether the direct allocator touches (zeroes) every page of a block when it allocates it. */
    public static final String PREFAULT_PROP = "spdl4j.pool.prefault";
    /**
     * Default {@code false}: pages become resident when first used, so a size class sized for rare large items costs
     * resident memory only once such items arrive (slabs are reused, so each page faults once in the pool's life).
     * {@code true} pays every page fault at start, for a hot path that must never take one.
     */
    public static final boolean PREFAULT_DEFAULT = false;
    /** Whether blocks are prefaulted: {@value #PREFAULT_PROP}. */
    public static final boolean PREFAULT = SystemProperties.booleanValue(PREFAULT_PROP, PREFAULT_DEFAULT);

    /**
     * Property: default size classes, as {@code size*count} pairs separated by commas, sizes with an optional
     * {@code K}, {@code M} or {@code G} suffix (binary), e.g. {@code 64K*256,1M*64}. A list with an entry that does
     * not parse, an empty entry (a trailing or doubled comma) or two classes of one size fails this class's initialisation naming the property and the entry.
     */
    public static final String SIZE_CLASSES_PROP = "spdl4j.pool.sizeClasses";
    /** Default size classes: 64 MiB in all, sized for small images and encoded files. */
    public static final String SIZE_CLASSES_DEFAULT = "4K*1024,64K*256,1M*32";
    /** Size classes in effect, smallest first (immutable): those of a pool built without any of its own. */
    public static final List<SizeClassSpec> SIZE_CLASSES = sizeClasses();

    /** Property: how long the JUnit leak check waits for leases released by background threads, in ms. */
    public static final String LEAK_CHECK_GRACE_PROP = "spdl4j.leakCheck.graceMs";
    /** Default grace period of the test leak check. */
    public static final long LEAK_CHECK_GRACE_MS_DEFAULT = 2_000;
    /** Grace period in effect. */
    public static final long LEAK_CHECK_GRACE_MS =
            SystemProperties.longValue(LEAK_CHECK_GRACE_PROP, LEAK_CHECK_GRACE_MS_DEFAULT, 0, Long.MAX_VALUE);

    private OffHeapConfiguration() {
    }

    /** Parses {@value #SIZE_CLASSES_PROP}; a failure names the property (the parser alone names only the entry). */
    private static List<SizeClassSpec> sizeClasses() {
        final String text = System.getProperty(SIZE_CLASSES_PROP, SIZE_CLASSES_DEFAULT);
        final List<SizeClassSpec> classes;
        try {
            classes = SizeClassSpec.parseList(text);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("system property " + SIZE_CLASSES_PROP + ": " + e.getMessage()
                    + " (default " + SIZE_CLASSES_DEFAULT + ")", e);
        }
        return SizeClassSpec.sortedDistinct(classes, "system property " + SIZE_CLASSES_PROP + "='" + text + "'");
    }
}
