package org.spdl4j.offheap;

import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * A reference-counted hold on one slab of a {@link BufferPool}: the bytes {@code [address(), address() + capacity())},
 * where {@code capacity()} is the size asked for at acquire (the slab may be larger: {@link #slabCapacity()}).
 *
 * <p><b>Ownership:</b> {@code acquire} returns a lease with a count of one, owned by the caller. {@link #retain()}
 * adds an owner, {@link #release()} drops one; the release that brings the count to zero returns the slab to the
 * pool's free list, after which the memory belongs to the next acquirer. Views ({@link #buffer()},
 * {@link #byteBuffer()}, {@link #segment()}, slices) own nothing: use them only while you hold a count.
 *
 * <p><b>Thread safety:</b> retain and release are atomic (a CAS loop on a VarHandle) and may be called from any
 * thread; a release is a volatile write, so everything the releasing thread wrote into the slab happens-before the
 * next acquirer sees it. The bytes themselves are plain memory: writers and readers of a slab coordinate by handing
 * the lease over through something that publishes safely (a ring, a queue, {@code release}/{@code acquire}).
 *
 * <p><b>Errors:</b> a release when the count is already zero always throws {@link LeaseStateException} and leaves
 * the pool intact (a lease can never enter the free list twice). In checked mode
 * ({@value OffHeapConfiguration#CHECKED_PROP}) every accessor of the bytes ({@link #address()}, the views, slices)
 * also throws once the count is zero, and the {@link #buffer()} view is shrunk to zero bytes on release so stale
 * holders of it fail their bounds check. A stale
 * release made after another thread re-acquired the same slab cannot be told from a legitimate one (leases are
 * pooled objects; there is no per-acquire handle): that is what leak detection and checked mode help find.
 *
 * <p><b>Allocation:</b> none on acquire, retain, release, {@link #address()} or {@link #buffer()}; the
 * {@link #byteBuffer()} and {@link #segment()} views allocate a small wrapper per call.
 */
public final class Lease {
    private static final VarHandle REF_CNT;

    static {
        try {
            REF_CNT = MethodHandles.lookup().findVarHandle(Lease.class, "refCnt", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final BufferPool pool;
    private final SizeClass sizeClass;
    private final int id;
    private final long address;
    private final MemorySegment slab;
    private final UnsafeBuffer view;
    /** Written by the acquiring thread before it publishes the count (release store); read by owners. */
    private int length;
    /** Written by the acquiring thread before the count's release store; cleared on the final release. */
    private AcquisitionSite site;
    /** Where a tracked lease was last handed to another owner ({@link #handOver}); cleared on the final release. */
    private volatile AcquisitionSite handedOver;
    @SuppressWarnings("unused") // accessed through REF_CNT
    private volatile int refCnt;

    Lease(BufferPool pool, SizeClass sizeClass, int id, long address, MemorySegment slab) {
        this.pool = pool;
        this.sizeClass = sizeClass;
        this.id = id;
        this.address = address;
        this.slab = slab;
        this.view = new UnsafeBuffer(address, 0);
    }

    /** Called by the pool on the acquiring thread, which owns this lease exclusively until it returns it. */
    void onAcquire(int size, AcquisitionSite acquisitionSite) {
        this.length = size;
        this.site = acquisitionSite;
        view.wrap(address, size);
        // Release store: the fields above are visible to any thread that later reads the count (retain, leak check).
        REF_CNT.setRelease(this, 1);
    }

    /** {@return the address of the first byte} @throws LeaseStateException in checked mode, after release */
    public long address() {
        checkLive("address()");
        return address;
    }

    /** {@return the bytes this lease covers: the size asked for at acquire} */
    public int capacity() {
        return length;
    }

    /** {@return the bytes of the underlying slab, at least {@link #capacity()}} */
    public int slabCapacity() {
        return sizeClass.slabBytes;
    }

    /**
     * An Agrona view of exactly this lease's bytes, index 0 at {@link #address()}. The view is preallocated and
     * shared by all holders of the lease: do not {@code wrap} it to something else.
     *
     * @return the view
     * @throws LeaseStateException in checked mode, after release
     */
    public UnsafeBuffer buffer() {
        checkLive("buffer()");
        return view;
    }

    /**
     * Wraps a caller-owned buffer around part of this lease (allocation-free slice).
     *
     * @param offset first byte, relative to {@link #address()}
     * @param length bytes in the slice
     * @param into   the buffer to wrap
     * @return {@code into}
     * @throws IndexOutOfBoundsException when the slice does not fit in {@link #capacity()}
     * @throws LeaseStateException       in checked mode, after release
     */
    public UnsafeBuffer slice(int offset, int length, UnsafeBuffer into) {
        into.wrap(sliceAddress(offset, length), length);
        return into;
    }

    /**
     * Address of a bounds-checked region of this lease.
     *
     * @param offset first byte, relative to {@link #address()}
     * @param length bytes in the region
     * @return {@code address() + offset}
     * @throws IndexOutOfBoundsException when the region does not fit in {@link #capacity()}
     * @throws LeaseStateException       in checked mode, after release
     */
    public long sliceAddress(long offset, long length) {
        checkLive("slice");
        if (offset < 0 || length < 0 || length > this.length - offset) { // no offset + length: it could wrap
            throw new IndexOutOfBoundsException("slice [" + offset + ", +" + length + ") outside lease #" + id
                    + " of pool '" + pool.name() + "' (" + this.length + " B)");
        }
        return address + offset;
    }

    /**
     * A new {@link ByteBuffer} over this lease's bytes, in native byte order, for APIs that want one. Allocates.
     *
     * @return a direct buffer of {@link #capacity()} bytes
     * @throws LeaseStateException in checked mode, after release
     */
    public ByteBuffer byteBuffer() {
        return segment().asByteBuffer().order(ByteOrder.nativeOrder());
    }

    /**
     * A new {@link MemorySegment} over this lease's bytes (global scope: it does not stop the slab being reused).
     * Allocates.
     *
     * @return a segment of {@link #capacity()} bytes
     * @throws LeaseStateException in checked mode, after release
     */
    public MemorySegment segment() {
        checkLive("segment()");
        return slab.asSlice(0, length);
    }

    /**
     * Adds an owner.
     *
     * @return this lease
     * @throws LeaseStateException when the count is already zero (use after release)
     */
    public Lease retain() {
        int cur;
        do {
            cur = (int) REF_CNT.getVolatile(this);
            if (cur <= 0) {
                throw new LeaseStateException("retain() on released " + this + ": it was used after release");
            }
            if (cur == Integer.MAX_VALUE) {
                throw new LeaseStateException("retain() on " + this + ": reference count overflow");
            }
        } while (!REF_CNT.compareAndSet(this, cur, cur + 1)); // volatile CAS: orders with concurrent releases
        return this;
    }

    /**
     * Drops an owner; the last one returns the slab to the pool.
     *
     * @return true when this call returned the slab to the pool
     * @throws LeaseStateException when the count is already zero (double release)
     */
    public boolean release() {
        int cur;
        do {
            cur = (int) REF_CNT.getVolatile(this);
            if (cur <= 0) {
                throw new LeaseStateException("release() on already released " + this + ": double release");
            }
            // Volatile CAS: this owner's writes to the slab happen-before whoever takes the slab next.
        } while (!REF_CNT.compareAndSet(this, cur, cur - 1));
        if (cur == 1) {
            site = null;
            handedOver = null;
            if (pool.checked()) {
                view.wrap(address, 0); // stale holders of buffer() now fail Agrona's bounds checks
            }
            pool.recycle(sizeClass, this);
            return true;
        }
        return false;
    }

    /** {@return the current reference count: 0 when free} */
    public int refCount() {
        return (int) REF_CNT.getVolatile(this);
    }

    /**
     * {@return this lease's id, unique within its pool and dense: from 0 to {@link BufferPool#slabCount()} - 1, so
     * users may keep per-slab data in a plain array indexed by it}
     */
    public int id() {
        return id;
    }

    /** {@return the pool this lease belongs to} */
    public BufferPool pool() {
        return pool;
    }

    /**
     * Records, for a lease whose acquisition is tracked (leak detection paranoid, or this lease sampled), where it is
     * handed to another owner, so that a leak report names the code that last took it (a batch handed from a decode
     * thread to a training loop) and not only the library code that acquired it. Untracked: does nothing, allocates
     * nothing.
     *
     * @param to who takes it, for the report ("the consumer of loader 'train'")
     */
    public void handOver(String to) {
        if (site != null) {
            handedOver = new AcquisitionSite("lease #" + id + " of pool '" + pool.name() + "' handed to " + to
                    + " on thread '" + Thread.currentThread().getName() + "'");
        }
    }

    /** Acquire-load of the count, then the site it published; null when the lease is free or untracked. */
    LeakRecord leakRecordIfHeld() {
        final int count = (int) REF_CNT.getAcquire(this);
        return count > 0 ? new LeakRecord(pool.name(), id, sizeClass.slabBytes, length, count, site, handedOver)
                : null;
    }

    private void checkLive(String what) {
        if (pool.checked() && (int) REF_CNT.getOpaque(this) <= 0) {
            throw new LeaseStateException(what + " on released " + this + ": use after release");
        }
    }

    @Override
    public String toString() {
        return "lease #" + id + " of pool '" + pool.name() + "' (" + length + " of " + sizeClass.slabBytes + " B)";
    }
}
