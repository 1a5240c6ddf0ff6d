package org.spdl4j.media;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Objects;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A byte budget for decoded pixels shared by every decoder that holds it: before decoding an image, a decoder reserves
 * the memory its decoded frame takes (from the header: width x height x bytes per pixel of the decoded format, plus
 * the decoder's own buffers of that size, see {@link DecodeMemoryEstimate}) and gives it back when the image is done,
 * on success and on failure. Peak decode memory is then bounded by the budget, not by the largest image times the
 * number of decode threads.
 *
 * <p>{@link #shared()} is the process-wide budget every decoder uses unless given another
 * ({@link ImageSlotDecoder#of(ImageSpec, MediaLimits, DecodeMemoryBudget)},
 * {@link PerThreadImageDecoders#PerThreadImageDecoders(MediaLimits, DecodeMemoryBudget)},
 * {@link SingleThreadImageDecoder#SingleThreadImageDecoder(MediaLimits, boolean, DecodeMemoryBudget)}); its size is
 * {@link MediaConfiguration#DECODE_MEMORY_BYTES}.
 *
 * <p><b>Blocking:</b> {@link #reserve} waits while the reservation does not fit, first come first served (a large
 * image is not overtaken forever by small ones), at most {@link #maxWait()} and never past the caller's deadline
 * (a loader's decode timeout, {@link org.spdl4j.offheap.batch.EncodedSample#deadlineNanos()}), and gives up at once
 * when its thread is interrupted. A reservation larger than the whole budget fails at once. Either way the failure is a
 * {@link MediaException} naming the input, its size and the budget, and saying how to raise it.
 *
 * <p><b>Threading:</b> thread safe. <b>Allocation:</b> none when the reservation fits at once; a small queue node
 * when it must wait.
 */
public final class DecodeMemoryBudget {
    private static final DecodeMemoryBudget SHARED = new DecodeMemoryBudget(MediaConfiguration.DECODE_MEMORY_BYTES,
            MediaConfiguration.DEFAULT_DECODE_MEMORY_WAIT);

    private final long capacity;
    private final Duration maxWait;
    private final ReentrantLock lock = new ReentrantLock();
    /** Signalled whenever bytes are released or the head of the queue changes. */
    private final Condition changed = lock.newCondition();
    /** Threads waiting for room, in arrival order; only the head may take bytes. Guarded by {@link #lock}. */
    private final ArrayDeque<Object> waiting = new ArrayDeque<>();
    /** Bytes reserved now. Guarded by {@link #lock}. */
    private long inUse;
    /** The most bytes ever reserved at once. Guarded by {@link #lock}. */
    private long peak;

    private DecodeMemoryBudget(final long capacity, final Duration maxWait) {
        if (capacity <= 0) {
            throw new IllegalArgumentException("decode memory budget must be positive: " + capacity + " bytes");
        }
        Objects.requireNonNull(maxWait, "maxWait");
        if (maxWait.isNegative()) {
            throw new IllegalArgumentException("maxWait must not be negative: " + maxWait);
        }
        this.capacity = capacity;
        this.maxWait = maxWait;
    }

    /**
     * {@return the process-wide budget: {@link MediaConfiguration#DECODE_MEMORY_BYTES} bytes, reservations waiting at
     * most {@link MediaConfiguration#DEFAULT_DECODE_MEMORY_WAIT}}
     */
    public static DecodeMemoryBudget shared() {
        return SHARED;
    }

    /**
     * A budget of its own, for the decoders given it (e.g. one per loader, or a small one in a test).
     *
     * @param bytes the most bytes of decoded images held at once, positive
     * @return a budget whose reservations wait at most {@link MediaConfiguration#DEFAULT_DECODE_MEMORY_WAIT}
     */
    public static DecodeMemoryBudget ofBytes(final long bytes) {
        return new DecodeMemoryBudget(bytes, MediaConfiguration.DEFAULT_DECODE_MEMORY_WAIT);
    }

    /**
     * A budget of its own with a chosen wait.
     *
     * @param bytes the most bytes of decoded images held at once, positive
     * @param maxWait the longest a reservation waits for room before it fails, not negative
     * @return the budget
     */
    public static DecodeMemoryBudget ofBytes(final long bytes, final Duration maxWait) {
        return new DecodeMemoryBudget(bytes, maxWait);
    }

    /** {@return the budget in bytes} */
    public long capacity() {
        return capacity;
    }

    /** {@return the longest a reservation waits for room} */
    public Duration maxWait() {
        return maxWait;
    }

    /** {@return bytes reserved now} */
    public long inUse() {
        lock.lock();
        try {
            return inUse;
        } finally {
            lock.unlock();
        }
    }

    /** {@return the most bytes ever reserved at once} */
    public long peakInUse() {
        lock.lock();
        try {
            return peak;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Reserves {@code bytes}, waiting (first come, first served) until they fit. Every successful call must be paired
     * with a {@link #release} of the same bytes, in a {@code finally}.
     *
     * @param bytes bytes the decode holds at its peak, not negative
     * @param label the input, for errors
     * @param what what needs them, for errors (e.g. "a 10000x10000 PNG decoded as 4 bytes per pixel")
     * @throws MediaException at once when {@code bytes} exceed the whole budget; after {@link #maxWait()} without
     *                        room; when the thread is interrupted while waiting (its interrupt status is kept)
     */
    public void reserve(final long bytes, final String label, final String what) {
        reserve(bytes, label, what, Long.MAX_VALUE);
    }

    /**
     * Reserves {@code bytes} as {@link #reserve(long, String, String)} does, giving up at a deadline too (a loader's
     * decode timeout: an image that would start after it is failed rather than decoded and discarded).
     *
     * @param bytes bytes the decode holds at its peak, not negative
     * @param label the input, for errors
     * @param what what needs them, for errors
     * @param deadlineNanos the {@link System#nanoTime()} after which it stops waiting, or {@link Long#MAX_VALUE}
     * @throws MediaException as {@link #reserve(long, String, String)}, and when the deadline passes while waiting
     */
    public void reserve(final long bytes, final String label, final String what, final long deadlineNanos) {
        if (bytes > capacity) {
            throw new MediaException(label, what + " needs " + mib(bytes) + " to decode, more than the whole decode"
                    + " memory budget of " + mib(capacity) + "; raise it with -D"
                    + MediaConfiguration.DECODE_MEMORY_BYTES_PROP + "=<bytes> or DecodeMemoryBudget.ofBytes, or lower"
                    + " MediaLimits.maxPixels to refuse such images from the header");
        }
        if (bytes <= 0) {
            return;
        }
        lock.lock();
        try {
            if (waiting.isEmpty() && inUse + bytes <= capacity) {
                take(bytes);
                return;
            }
            final Object self = new Object();
            waiting.addLast(self);
            try {
                final long start = System.nanoTime();
                final long untilDeadline = deadlineNanos == Long.MAX_VALUE ? Long.MAX_VALUE : deadlineNanos - start;
                final boolean byDeadline = untilDeadline < maxWait.toNanos();
                long nanos = Math.min(maxWait.toNanos(), untilDeadline);
                while (waiting.peekFirst() != self || inUse + bytes > capacity) {
                    if (nanos <= 0) {
                        throw new MediaException(label, what + " needs " + mib(bytes) + " to decode and waited "
                                + (System.nanoTime() - start) / 1_000_000 + " ms for the decode memory budget ("
                                + mib(inUse) + " of " + mib(capacity) + " in use), "
                                + (byDeadline ? "until its decode deadline; raise the decode timeout, or"
                                        : "its longest wait; raise")
                                + " the budget with -D" + MediaConfiguration.DECODE_MEMORY_BYTES_PROP
                                + "=<bytes> or DecodeMemoryBudget.ofBytes, or decode on fewer threads");
                    }
                    nanos = changed.awaitNanos(nanos);
                }
                take(bytes);
            } catch (final InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new MediaException(label, "interrupted while waiting for " + mib(bytes)
                        + " of the decode memory budget", 0, e);
            } finally {
                waiting.remove(self);
                changed.signalAll(); // the next in line may fit now
            }
        } finally {
            lock.unlock();
        }
    }

    /** Takes bytes under the lock. */
    private void take(final long bytes) {
        inUse += bytes;
        peak = Math.max(peak, inUse);
    }

    /**
     * Gives back bytes a {@link #reserve} took.
     *
     * @param bytes the bytes reserved
     */
    public void release(final long bytes) {
        if (bytes <= 0) {
            return;
        }
        lock.lock();
        try {
            inUse -= bytes;
            if (inUse < 0) {
                final long over = -inUse;
                inUse = 0;
                throw new IllegalStateException("decode memory budget released " + over + " bytes more than reserved");
            }
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** {@return bytes as "123.4 MiB"} */
    static String mib(final long bytes) {
        return String.format(java.util.Locale.ROOT, "%.1f MiB (%d bytes)", bytes / (double) (1 << 20), bytes);
    }

    @Override
    public String toString() {
        return "DecodeMemoryBudget[" + mib(capacity) + ", maxWait " + maxWait.toMillis() + " ms]";
    }
}
