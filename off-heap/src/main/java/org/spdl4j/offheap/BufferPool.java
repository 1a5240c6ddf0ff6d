package org.spdl4j.offheap;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A pool of preallocated, aligned off-heap slabs in size classes, leased out as reference-counted {@link Lease}s.
 * All memory is allocated by {@link #open(PoolConfig)} and freed by {@link #close()}; in between the pool never
 * allocates native memory, and acquire/release allocate nothing on the heap (leak tracking aside).
 *
 * <p><b>Acquire:</b> picks the smallest class whose slabs fit the size asked (no fallback to a larger class: memory
 * per class stays as configured). When that class is empty it waits (back-pressure) with a bounded {@link Backoff},
 * up to the timeout, then throws {@link PoolExhaustedException} naming the pool, the size and each class's use and
 * high-water mark. A size larger than every class fails at once with {@link IllegalArgumentException}.
 *
 * <p><b>Thread safety:</b> every method may be called from any thread. Acquire and release are lock-free (JCTools
 * MPMC free lists, one per class) apart from the wait when a class is empty.
 *
 * <p><b>Close and leaks:</b> {@link #close()} logs every lease still held (with its acquisition stack when tracked,
 * see {@link LeakDetectionLevel}) and frees the memory at once if none is; otherwise the memory is freed when the
 * last lease comes back, so a late writer never touches freed memory. Open pools are listed by
 * {@link PoolRegistry}, which the tests' leak check uses.
 */
public final class BufferPool implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(BufferPool.class);

    /** How long {@link #close()} waits for leases being handed over to settle before it reports: 100 ms. */
    private static final long SETTLE_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

    private final PoolConfig config;
    private final String name;
    private final SizeClass[] classes;
    private final int[] classSlabBytes;
    private final boolean tracking;
    private final boolean paranoid;
    private final boolean checked;
    private final long defaultTimeoutNanos;
    private final long maxParkNanos;
    private volatile boolean closed;
    private final AtomicBoolean freed = new AtomicBoolean();

    private BufferPool(PoolConfig config) {
        this.config = config;
        this.name = config.name();
        this.tracking = config.leakDetection() != LeakDetectionLevel.OFF;
        this.paranoid = config.leakDetection() == LeakDetectionLevel.PARANOID;
        this.checked = config.checked();
        this.defaultTimeoutNanos = Timeouts.nanos(config.acquireTimeout());
        this.maxParkNanos = TimeUnit.MICROSECONDS.toNanos(OffHeapConfiguration.MAX_PARK_MICROS);
        final List<SizeClassSpec> specs = config.sizeClasses();
        this.classes = new SizeClass[specs.size()];
        this.classSlabBytes = new int[specs.size()];
        int nextId = 0;
        try {
            for (int i = 0; i < classes.length; i++) {
                classes[i] = new SizeClass(this, config, specs.get(i), nextId);
                classSlabBytes[i] = specs.get(i).slabBytes();
                nextId += specs.get(i).count();
            }
        } catch (RuntimeException | Error e) {
            for (SizeClass c : classes) {
                if (c != null) {
                    try {
                        c.free(config);
                    } catch (RuntimeException | Error freeFailure) {
                        e.addSuppressed(freeFailure); // and go on: the other classes' memory must still go back
                    }
                }
            }
            throw e;
        }
    }

    /**
     * Allocates every slab of the description and opens the pool.
     *
     * @param config what to build
     * @return the running pool, registered with {@link PoolRegistry} until its memory is freed
     * @throws OutOfMemoryError     when the allocator cannot supply the memory (nothing stays allocated)
     * @throws IllegalStateException when the JVM runs without {@code --add-exports java.base/jdk.internal.misc=...},
     *                               which Agrona's {@code UnsafeApi} needs; the message names the flag
     */
    public static BufferPool open(PoolConfig config) {
        AgronaAccess.check();
        final BufferPool pool = new BufferPool(config);
        PoolRegistry.register(pool);
        return pool;
    }

    /**
     * Acquires a lease of {@code size} bytes, waiting up to the configured timeout when its class is empty.
     *
     * @param size bytes needed, at least 1
     * @return a lease with a reference count of one, owned by the caller
     * @throws PoolExhaustedException   when no slab became free in time
     * @throws IllegalArgumentException when {@code size} fits no class
     * @throws IllegalStateException    when the pool is closed, also while waiting
     */
    public Lease acquire(int size) {
        return acquireNanos(size, defaultTimeoutNanos);
    }

    /**
     * Acquires a lease of {@code size} bytes, waiting up to {@code timeout} when its class is empty.
     *
     * @param size    bytes needed, at least 1
     * @param timeout how long to wait for a free slab
     * @return a lease with a reference count of one, owned by the caller
     * @throws PoolExhaustedException   when no slab became free in time, or the wait was interrupted (the
     *                                  interrupt flag is set again)
     * @throws IllegalArgumentException when {@code size} fits no class
     * @throws IllegalStateException    when the pool is closed, also while waiting
     */
    public Lease acquire(int size, Duration timeout) {
        return acquireNanos(size, Timeouts.nanos(timeout));
    }

    /**
     * Acquires a lease of {@code size} bytes, waiting up to {@code timeoutNanos} when its class is empty: the
     * allocation-free form of {@link #acquire(int, Duration)} for callers that keep their deadline in nanoseconds.
     *
     * @param size         bytes needed, at least 1
     * @param timeoutNanos how long to wait for a free slab, in nanoseconds (0: do not wait)
     * @return a lease with a reference count of one, owned by the caller
     * @throws PoolExhaustedException   when no slab became free in time, or the wait was interrupted (the
     *                                  interrupt flag is set again)
     * @throws IllegalArgumentException when {@code size} fits no class
     * @throws IllegalStateException    when the pool is closed, also while waiting
     */
    public Lease acquire(int size, long timeoutNanos) {
        return acquireNanos(size, timeoutNanos);
    }

    /**
     * Acquires a lease if its class has a free slab right now.
     *
     * @param size bytes needed, at least 1
     * @return a lease owned by the caller, or null when the class is empty
     * @throws IllegalArgumentException when {@code size} fits no class
     * @throws IllegalStateException    when the pool is closed
     */
    public Lease tryAcquire(int size) {
        final SizeClass c = classFor(size);
        final Lease lease = c.poll();
        return lease == null ? null : handOut(c, lease, size);
    }

    private Lease acquireNanos(int size, long timeoutNanos) {
        final SizeClass c = classFor(size);
        Lease lease = c.poll();
        if (lease == null) {
            lease = await(c, size, timeoutNanos);
        }
        return handOut(c, lease, size);
    }

    private Lease handOut(SizeClass c, Lease lease, int size) {
        // Volatile read after the poll (a CAS): pairs with close()'s write of `closed` before it counts leases. If
        // close() saw this lease free and freed the memory, `closed` is visible here; if this read still sees the
        // pool open, close() counts this lease as held and keeps the memory. Either way no lease over freed memory.
        if (closed) {
            recycle(c, lease);
            throw new IllegalStateException("pool '" + name + "' is closed");
        }
        AcquisitionSite site = null;
        // OFF: one predictable branch on a final field, nothing else on the hot path.
        if (tracking && (paranoid || ThreadLocalRandom.current().nextInt(config.samplingInterval()) == 0)) {
            try {
                site = new AcquisitionSite("lease #" + lease.id() + " (" + size + " B) of pool '" + name
                        + "' acquired by thread '" + Thread.currentThread().getName() + "'");
            } catch (Throwable t) { // an OutOfMemoryError capturing the stack: the slab must not fall out of the pool
                recycle(c, lease);
                throw t;
            }
        }
        lease.onAcquire(size, site);
        return lease;
    }

    private SizeClass classFor(int size) {
        if (closed) {
            throw new IllegalStateException("pool '" + name + "' is closed");
        }
        final int[] sizes = classSlabBytes;
        for (int i = 0; i < sizes.length; i++) { // a handful of classes: a linear scan beats a binary search
            if (size <= sizes[i]) {
                if (size <= 0) {
                    throw new IllegalArgumentException("pool '" + name + "': size must be > 0, got " + size);
                }
                return classes[i];
            }
        }
        throw new IllegalArgumentException("pool '" + name + "': " + size + " B is larger than its largest slab ("
                + sizes[sizes.length - 1] + " B); add a larger size class (PoolConfig.Builder.sizeClass) or split the"
                + " item");
    }

    /**
     * Slow path: the class is empty. Waits with a bounded backoff, then fails with the pool's state; fails at once
     * with {@link IllegalStateException} when the pool closes meanwhile.
     */
    private Lease await(SizeClass c, int size, long timeoutNanos) {
        c.recordWait();
        final long start = System.nanoTime();
        int attempt = 0;
        while (true) {
            final Lease lease = c.poll();
            if (lease != null) {
                return lease;
            }
            final long waited = System.nanoTime() - start;
            if (closed) { // not a timeout: the pool is gone, as for an acquire that starts after close
                throw new IllegalStateException("pool '" + name + "' is closed (closed while an acquire of " + size
                        + " B waited " + TimeUnit.NANOSECONDS.toMillis(waited) + " ms for a free slab)");
            }
            if (waited >= timeoutNanos || Thread.currentThread().isInterrupted()) {
                c.recordTimeout();
                final boolean interrupted = Thread.interrupted();
                if (interrupted) {
                    Thread.currentThread().interrupt(); // keep the flag for the caller's own checks
                }
                throw new PoolExhaustedException("pool '" + name + "': no free slab for " + size + " B after "
                        + TimeUnit.NANOSECONDS.toMillis(waited) + " ms" + (interrupted ? " (interrupted)" : "")
                        + "; " + stats() + ". Release leases sooner, enlarge the "
                        + c.slabBytes + " B class, or look for leaks with -D" + OffHeapConfiguration.LEAK_DETECTION_PROP
                        + "=paranoid", interrupted ? new InterruptedException() : null);
            }
            // Never park past the deadline: the timeout is a bound, not a hint.
            Backoff.idle(attempt++, Math.max(1, Math.min(maxParkNanos, timeoutNanos - waited)));
        }
    }

    /**
     * Finds the lease whose slab holds an address, so memory handed out as a raw address or a {@code ByteBuffer}
     * view can be given back without carrying its lease (the engine's pooled sample allocator does this). Whether
     * the lease is held is not checked: that is the caller's business.
     *
     * <p>Any thread; lock-free and allocation-free (a bounds check per size class and chunk, then a division).
     *
     * @param address any address inside a slab ({@code lease.address()} up to {@code lease.slabCapacity()} bytes on)
     * @return the lease, or null when the address is in no slab of this pool (or in the alignment padding between)
     */
    public Lease leaseAt(long address) {
        for (SizeClass c : classes) {
            final Lease lease = c.leaseAt(address);
            if (lease != null) {
                return lease;
            }
        }
        return null;
    }

    /** {@return the number of slabs of all classes: lease ids run from 0 to this minus one} */
    public int slabCount() {
        int n = 0;
        for (SizeClass c : classes) {
            n += c.count;
        }
        return n;
    }

    /** Called by {@link Lease#release()} when the count reaches zero. */
    void recycle(SizeClass c, Lease lease) {
        c.offer(lease);
        // Volatile read after the offer: pairs with close()'s write of `closed` before it counts leases, so at least
        // one of the two sees the pool both closed and full, and frees it.
        if (closed) {
            freeIfIdleLogged();
        }
    }

    boolean checked() {
        return checked;
    }

    /** {@return the pool's name} */
    public String name() {
        return name;
    }

    /** {@return the description this pool was opened from} */
    public PoolConfig config() {
        return config;
    }

    /** {@return the largest size an acquire can ask for} */
    public int maxSlabBytes() {
        return classSlabBytes[classSlabBytes.length - 1];
    }

    /** {@return leases currently held, all classes together (exact when no other thread is acquiring)} */
    public int inUse() {
        int sum = 0;
        for (SizeClass c : classes) {
            sum += c.inUse();
        }
        return sum;
    }

    /** {@return a snapshot of each class's use; allocates} */
    public PoolStats stats() {
        final List<SizeClassStats> list = new ArrayList<>(classes.length);
        for (SizeClass c : classes) {
            list.add(c.stats());
        }
        return new PoolStats(name, list);
    }

    /** {@return every lease held right now, with its acquisition site when tracked; allocates} */
    public List<LeakRecord> outstanding() {
        final List<LeakRecord> out = new ArrayList<>();
        for (SizeClass c : classes) {
            for (Lease lease : c.leases) {
                final LeakRecord r = lease.leakRecordIfHeld();
                if (r != null) {
                    out.add(r);
                }
            }
        }
        return out;
    }

    /** {@return true once {@link #close()} was called} */
    public boolean isClosed() {
        return closed;
    }

    /**
     * {@return true once the pool's memory is freed (closed and every lease back), also when the allocator failed to
     * free part of it (that failure was reported then)}
     */
    public boolean isFreed() {
        return freed.get();
    }

    /**
     * Closes the pool: later acquires fail; waiting acquires fail; leases still held are logged as leaks and the
     * memory is freed when the last of them is released (at once if none is held). Idempotent.
     *
     * <p>Freeing tries every chunk of every class and unregisters the pool even when the allocator fails to free
     * one; a failure while freeing at close is thrown from here, one while freeing on the last lease's release is
     * logged (the releasing owner did nothing wrong).
     *
     * @throws IllegalStateException when the allocator failed to free some of the memory (it may leak), naming the
     *                               pool; the allocator's failures are its cause and suppressed exceptions
     */
    @Override
    public void close() {
        close(true);
    }

    /**
     * Closes the pool as {@link #close()} does, but without reporting the leases still held as leaks: for an owner
     * that knows who holds them and that they will be released (a loader closed while its consumer keeps batches,
     * which it has said). The memory is freed when the last is released, as after {@link #close()}.
     */
    public void closeWhileHeld() {
        close(false);
    }

    private void close(final boolean reportHeld) {
        if (closed) {
            return;
        }
        closed = true; // volatile write before counting leases: see recycle()
        final int[] inUseSeen = new int[1];
        final List<LeakRecord> leaks = outstandingOnceSettled(inUseSeen);
        final int unsettled = inUseSeen[0] - leaks.size();
        if (!reportHeld && (!leaks.isEmpty() || unsettled > 0)) {
            LOG.debug("pool '{}' closed with {} lease(s) held by their owner; freed when they are released", name,
                    inUseSeen[0]);
        } else if (!leaks.isEmpty() || unsettled > 0) {
            LOG.error("pool '{}' closed with {} lease(s) held{}; its memory is freed when they are released", name,
                    leaks.size(), unsettled > 0 ? " and " + unsettled + " still being handed over after "
                            + TimeUnit.NANOSECONDS.toMillis(SETTLE_NANOS) + " ms" : "");
            for (LeakRecord leak : leaks) {
                LOG.error(leak.describe());
            }
        }
        freeIfIdle();
    }

    /**
     * The held leases, once no lease is between the free list and its holder. An acquire that took a slab off the
     * free list before it could see {@code closed} counts the lease as held a few instructions later (the count is
     * a release store, with no fence before the check of {@code closed}, to keep the hot path free of one), and a
     * release puts a lease back a few instructions after its count reached 0. Such a lease is neither free nor
     * counted for a moment; without this wait an acquire racing close could end with a lease close never named
     * (closed "clean", the memory still held). Bounded: close never waits more than {@link #SETTLE_NANOS}.
     */
    private List<LeakRecord> outstandingOnceSettled(int[] inUseSeen) {
        final long start = System.nanoTime();
        for (;;) {
            // In use first, then the held leases: a lease released between the two reads lowers only the second,
            // so it cannot hide a lease in transit (read the other way round, the two could match by accident).
            final int inUse = inUse();
            final List<LeakRecord> leaks = outstanding();
            if (inUse <= leaks.size() || System.nanoTime() - start >= SETTLE_NANOS) {
                inUseSeen[0] = inUse;
                return leaks;
            }
            Thread.yield(); // the other thread is within a few instructions of done, unless it was descheduled
        }
    }

    /**
     * Frees the memory if the pool is closed and every lease is back, exactly once (the CAS on {@code freed}). Every
     * class is freed and the pool unregistered whatever fails; then the first failure is thrown, naming the pool.
     */
    private void freeIfIdle() {
        if (inUse() == 0 && freed.compareAndSet(false, true)) {
            IllegalStateException failure = null;
            for (SizeClass c : classes) {
                try {
                    c.free(config);
                } catch (RuntimeException | Error e) {
                    if (failure == null) {
                        failure = new IllegalStateException("pool '" + name + "': allocator '"
                                + config.allocator().name() + "' failed to free slab memory of the " + c.slabBytes
                                + " B class; that memory may leak (the rest of the pool's memory was freed)", e);
                    } else {
                        failure.addSuppressed(e);
                    }
                }
            }
            PoolRegistry.unregister(this); // even after a failure: the pool is done, leak checks must not list it
            if (failure != null) {
                throw failure;
            }
        }
    }

    /** {@link #freeIfIdle()} on behalf of a lease owner (release, an acquire racing close): logs, never throws. */
    private void freeIfIdleLogged() {
        try {
            freeIfIdle();
        } catch (RuntimeException e) {
            LOG.error("{}; found when the pool's last lease came back after close", e.getMessage(), e);
        }
    }

    @Override
    public String toString() {
        return "BufferPool[" + name + ", " + config.allocator().name() + "]";
    }
}
