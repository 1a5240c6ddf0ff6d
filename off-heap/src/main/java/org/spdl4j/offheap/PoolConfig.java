package org.spdl4j.offheap;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The immutable description of a {@link BufferPool}: its name, allocator, alignment, size classes, acquire timeout,
 * leak detection level and checked mode. Built by {@link #builder(String)}, whose defaults are named in
 * {@link OffHeapConfiguration} (leak detection and checked mode as its system properties set them);
 * {@link BufferPool#open} turns it into a running pool.
 *
 * <p><b>Thread safety:</b> immutable. {@link Builder} is not thread-safe.
 */
public final class PoolConfig {
    private final String name;
    private final MemoryAllocator allocator;
    private final int alignment;
    private final List<SizeClassSpec> sizeClasses;
    private final Duration acquireTimeout;
    private final LeakDetectionLevel leakDetection;
    private final int samplingInterval;
    private final boolean checked;
    private final long maxChunkBytes;

    private PoolConfig(Builder b) {
        this.name = b.name;
        this.allocator = b.allocator;
        this.alignment = b.alignment;
        this.sizeClasses = b.sizeClasses.isEmpty() ? OffHeapConfiguration.SIZE_CLASSES_DEFAULT
                : SizeClassSpec.sortedDistinct(b.sizeClasses, "pool '" + name + "'");
        this.acquireTimeout = b.acquireTimeout;
        this.leakDetection = b.leakDetection;
                this.samplingInterval = b.samplingInterval;
        this.checked = b.checked;
        this.maxChunkBytes = b.maxChunkBytes;
    }

    /**
     * Starts a description with every value at its configured default.
     *
     * @param name the pool's name, used in messages, stats and leak reports
     * @return a builder
     */
    public static Builder builder(String name) {
        return new Builder(name);
    }

    /** {@return the pool's name} */
    public String name() {
        return name;
    }

    /** {@return where the slabs come from} */
    public MemoryAllocator allocator() {
        return allocator;
    }

    /** {@return the alignment of every slab's address, a power of two} */
    public int alignment() {
        return alignment;
    }

    /** {@return the size classes, smallest slab first} */
    public List<SizeClassSpec> sizeClasses() {
        return sizeClasses;
    }

    /** {@return how long {@link BufferPool#acquire(int)} waits for a free slab} */
    public Duration acquireTimeout() {
        return acquireTimeout;
    }

    /** {@return the leak detection level} */
    public LeakDetectionLevel leakDetection() {
        return leakDetection;
    }

    /** {@return in sampled mode, one acquire in this many is tracked} */
    public int samplingInterval() {
        return samplingInterval;
    }

    /** {@return whether leases check for use after release} */
    public boolean checked() {
        return checked;
    }

    /** {@return the largest single allocation a size class makes} */
    public long maxChunkBytes() {
        return maxChunkBytes;
    }

    /** {@return the total slab bytes of all classes (without alignment padding)} */
    public long totalBytes() {
        long total = 0;
        for (SizeClassSpec c : sizeClasses) {
            total += (long) c.slabBytes() * c.count();
        }
        return total;
    }

    @Override
    public String toString() {
        return "PoolConfig[" + name + ", allocator=" + allocator.name() + ", alignment=" + alignment + ", classes="
                + sizeClasses + ", timeout=" + acquireTimeout + ", leaks=" + leakDetection + ", checked=" + checked + "]";
    }

    /** Collects a {@link PoolConfig}; every setter's default is named in {@link OffHeapConfiguration}. */
    public static final class Builder {
        private final String name;
        private MemoryAllocator allocator = DirectMemoryAllocator.INSTANCE;
        private int alignment = OffHeapConfiguration.ALIGNMENT_DEFAULT;
        private final List<SizeClassSpec> sizeClasses = new ArrayList<>();
        private Duration acquireTimeout = OffHeapConfiguration.ACQUIRE_TIMEOUT_DEFAULT;
        private LeakDetectionLevel leakDetection = OffHeapConfiguration.LEAK_DETECTION;
        private int samplingInterval = OffHeapConfiguration.LEAK_SAMPLING_INTERVAL;
        private boolean checked = OffHeapConfiguration.CHECKED;
        private long maxChunkBytes = OffHeapConfiguration.MAX_CHUNK_BYTES_DEFAULT;

        private Builder(String name) {
            this.name = Objects.requireNonNull(name, "name");
        }

        /**
         * Sets where slabs come from (default: {@link DirectMemoryAllocator#INSTANCE}, which does not prefault;
         * {@code new DirectMemoryAllocator(true)} does).
         *
         * @param allocator the allocator
         * @return this builder
         */
        public Builder allocator(MemoryAllocator allocator) {
            this.allocator = Objects.requireNonNull(allocator, "allocator");
            return this;
        }

        /**
         * Sets the slab alignment (default {@value OffHeapConfiguration#ALIGNMENT_DEFAULT}).
         *
         * @param alignment a power of two
         * @return this builder
         * @throws IllegalArgumentException when not a power of two
         */
        public Builder alignment(int alignment) {
            if (alignment <= 0 || Integer.bitCount(alignment) != 1) { // MIN_VALUE has one bit set too
                throw new IllegalArgumentException("pool '" + name + "': alignment must be a power of two, got "
                        + alignment);
            }
            this.alignment = alignment;
            return this;
        }

        /**
         * Aligns slabs for DMA ({@value OffHeapConfiguration#DMA_ALIGNMENT} B).
         *
         * @return this builder
         */
        public Builder dmaAligned() {
            return alignment(OffHeapConfiguration.DMA_ALIGNMENT);
        }

        /**
         * Adds a size class; when none is added, {@link OffHeapConfiguration#SIZE_CLASSES_DEFAULT} are used.
         *
         * @param slabBytes bytes per slab
         * @param count     number of slabs
         * @return this builder
         */
        public Builder sizeClass(int slabBytes, int count) {
            sizeClasses.add(new SizeClassSpec(slabBytes, count));
            return this;
        }

        /**
         * Sets how long an acquire waits for a free slab before it fails (default
         * {@link OffHeapConfiguration#ACQUIRE_TIMEOUT_DEFAULT}, 30 s).
         *
         * @param timeout a non-negative duration (0: fail at once when the class is empty;
         *                {@code ChronoUnit.FOREVER.getDuration()}: wait without a bound)
         * @return this builder
         * @throws IllegalArgumentException when {@code timeout} is negative
         */
        public Builder acquireTimeout(Duration timeout) {
            Objects.requireNonNull(timeout, "timeout");
            if (timeout.isNegative()) { // "-1 means forever" elsewhere: here it would never wait at all
                throw new IllegalArgumentException("pool '" + name + "': acquire timeout " + timeout
                        + " must not be negative (use ChronoUnit.FOREVER.getDuration() to wait without a bound)");
            }
            this.acquireTimeout = timeout;
            return this;
        }

        /**
         * Sets the leak detection level (default {@link OffHeapConfiguration#LEAK_DETECTION}, from
         * {@value OffHeapConfiguration#LEAK_DETECTION_PROP}).
         *
         * @param level the level
         * @return this builder
         */
        public Builder leakDetection(LeakDetectionLevel level) {
            this.leakDetection = Objects.requireNonNull(level, "level");
            return this;
        }

        /**
         * Sets the sampling interval of {@link LeakDetectionLevel#SAMPLED} (default
         * {@link OffHeapConfiguration#LEAK_SAMPLING_INTERVAL}, from
         * {@value OffHeapConfiguration#LEAK_SAMPLING_INTERVAL_PROP}).
         *
         * @param interval one acquire in this many is tracked, at least 1
         * @return this builder
         */
        public Builder samplingInterval(int interval) {
            if (interval < 1) {
                throw new IllegalArgumentException("sampling interval must be >= 1, got " + interval);
            }
            this.samplingInterval = interval;
            return this;
        }

        /**
         * Turns use-after-release checks on or off (default {@link OffHeapConfiguration#CHECKED}, from
         * {@value OffHeapConfiguration#CHECKED_PROP}).
         *
         * @param checked whether leases check their reference count on every access
         * @return this builder
         */
        public Builder checked(boolean checked) {
            this.checked = checked;
            return this;
        }

        /**
         * Sets the largest single allocation a size class makes (default
         * {@value OffHeapConfiguration#MAX_CHUNK_BYTES_DEFAULT} B).
         *
         * @param bytes positive; a class whose slab is larger than this gets one slab per chunk
         * @return this builder
         * @throws IllegalArgumentException when {@code bytes} is not positive
         */
        public Builder maxChunkBytes(long bytes) {
            if (bytes < 1) {
                throw new IllegalArgumentException("pool '" + name + "': max chunk bytes must be positive, got "
                        + bytes);
            }
            this.maxChunkBytes = bytes;
            return this;
        }

        /**
         * Validates and freezes the description.
         *
         * @return the description
         * @throws IllegalArgumentException when two classes have the same slab size
         */
        public PoolConfig build() {
            return new PoolConfig(this);
        }
    }
}
