package org.spdl4j.engine.ring;

import com.lmax.disruptor.Sequence;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.function.Consumer;
import java.util.function.IntConsumer;
import org.agrona.concurrent.IdleStrategy;
import org.spdl4j.engine.stats.WaitKind;
import org.spdl4j.engine.stats.WorkerStats;

/**
 * Puts the results of a stage's concurrent workers back into input order: a preallocated window of results indexed by
 * input sequence. A worker that finishes sequence {@code s} stores its result (or {@code null} for an item that was
 * dropped, failed or was an end marker) at {@code s & mask}, then tries to drain: whoever holds the drain token
 * publishes every consecutive ready result from the head on. Dropped entries only advance the head, so they never
 * block the window.
 *
 * <p><b>Lock-free hot path:</b> storing is a volatile store of the entry's stamp; draining is guarded by a try-only
 * token (a CAS that never waits). A worker that fails to get the token leaves: the token holder re-checks the head
 * after giving the token back, so no ready entry is left stranded (see {@link #drain}). A worker whose sequence is a
 * whole window ahead of the head waits (by its idle strategy) until the head moves: that is back-pressure from the
 * slowest item in flight, and bounds the items the window holds to its capacity. While the head's result is stored
 * and its drainer waits for room in the output, the wait is the output's back-pressure: it is reported to the caller's
 * {@link WorkerStats} while it lasts ({@link WorkerStats#waitStarted}, {@link WorkerStats#waitEnded}), as the ring's
 * publisher reports its own waits for room.
 *
 * <p><b>Counting:</b> the drainer tells its {@code published} callback of each result right after publishing it,
 * before it may wait for room for the next: a drain in front of a slow consumer lasts as long as the window keeps
 * refilling, and the stage's output count (and the back-pressure the publisher reports while it waits) must not wait
 * for it to end. What a stop leaves unpublished is not counted.
 *
 * <p><b>Threading:</b> any number of workers, each with its own publisher and callback. <b>Allocation:</b> none after
 * construction.
 */
public final class ReorderWindow {
    /** {@link #put} stored the value; the pipeline still runs. */
    public static final int STORED = 0;
    /** {@link #put} stopped after storing the value: the window holds it (see {@link #drainUndelivered}). */
    public static final int STOPPED = -1;
    /** {@link #put} stopped before storing the value: the caller still owns it. */
    public static final int STOPPED_NOT_STORED = -2;
    private static final VarHandle STAMPS = MethodHandles.arrayElementVarHandle(long[].class);

    private final Object[] values;
    private final long[] epochs;
    private final long[] stamps;
    private final int mask;
    // The head (written by the drainer, read by every worker) and the drain token (CAS by every worker) are
    // Disruptor Sequences: each padded to its own cache line, so neither false-shares with the other or with the
    // read-only fields above. get() is an acquire load, set() a release store, compareAndSet() a full fence.
    private final Sequence head = new Sequence(0L);
    private final Sequence draining = new Sequence(0L);

    /**
     * Creates a window.
     *
     * @param capacity entries in the window, a power of two; bounds how far a result may run ahead of the head
     * @throws IllegalArgumentException if capacity is not a positive power of two
     */
    public ReorderWindow(int capacity) {
        if (capacity < 1 || Integer.bitCount(capacity) != 1) {
            throw new IllegalArgumentException("reorder window capacity must be a power of two, got " + capacity);
        }
        this.values = new Object[capacity];
        this.epochs = new long[capacity];
        this.stamps = new long[capacity];
        java.util.Arrays.fill(stamps, -1L);
        this.mask = capacity - 1;
    }

    /** {@return the window's capacity} */
    public int capacity() {
        return mask + 1;
    }

    /**
     * Stores the result of input sequence {@code s} and drains what is ready.
     *
     * @param s        the input sequence the result belongs to
     * @param value    the result, or {@code null} when the item produced nothing (dropped, failed, end marker)
     * @param epoch    the epoch of the item
     * @param out      the calling worker's publisher, used if this worker ends up draining
     * @param idle     the calling worker's idle strategy, used while {@code s} is a whole window ahead of the head
     * @param running  the pipeline's run flag
     * @param published told, on this thread, of each result this call publishes (with 1), right after it is
     *                  published; not told when another worker drains them
     * @param waits     the calling worker's stats, or {@code null} to report nothing: a wait for room while the
     *                  head's result is stored and not yet published (the output is full) is reported there as
     *                  back-pressure while it lasts; a wait for the head's task to finish (this stage's own slow item)
     *                  is not
     * @return {@link #STORED}, or {@link #STOPPED_NOT_STORED} if the pipeline stopped while waiting for room (the
     *         value was not stored), or {@link #STOPPED} if it stopped while publishing (the value is in the window)
     */
    public int put(long s, Object value, long epoch, BoundedPublisher out, IdleStrategy idle, RunFlag running,
                   IntConsumer published, WorkerStats waits) {
        if (s - head.get() > mask && !awaitRoom(s, idle, running, waits)) {
            return STOPPED_NOT_STORED;
        }
        int i = (int) s & mask;
        values[i] = value;
        epochs[i] = epoch;
        // Volatile, not just release: value and epoch are visible to whoever sees the stamp, and the store must also
        // stay ordered before drain()'s token CAS. A failed compareAndSet is only a volatile read, and a release store
        // followed by a volatile read may be reordered (store->load) under the JMM; then this worker could miss the
        // token while the holder, re-checking after its release, misses our stamp, stranding the entry. With both
        // sides volatile (our stamp store and token read, the holder's token store and stamp read), one sees the
        // other. HotSpot's CAS is a full fence anyway on x86 and AArch64, so this costs nothing there.
        STAMPS.setVolatile(stamps, i, s);
        return drain(out, running, published) ? STORED : STOPPED;
    }

    /**
     * Waits while {@code s} is a whole window ahead of the head. While the head's result is stored (its drainer holds
     * it, waiting for room in the output) the wait is back-pressure, reported to {@code waits} while it lasts: begun
     * when a turn finds the head's result stored, ended when one finds the head's task unfinished again (the head
     * moved on to a slower item) and when the wait ends for any reason (room, a stop, an exception). So the clock is
     * read only when that changes, at most once per head the wait sees, never per idle turn; nothing is allocated.
     *
     * @return {@code true} once there is room, {@code false} if the pipeline stopped first
     */
    private boolean awaitRoom(long s, IdleStrategy idle, RunFlag running, WorkerStats waits) {
        idle.reset();
        boolean held = false; // a back-pressure wait is open in waits
        try {
            long h;
            while (s - (h = head.get()) > mask) { // acquire: the drainer has cleared the old entry
                if (!running.isRunning()) {
                    return false;
                }
                boolean headStored = (long) STAMPS.getAcquire(stamps, (int) h & mask) == h;
                if (headStored != held && waits != null) {
                    if (headStored) {
                        waits.waitStarted(WaitKind.BACK_PRESSURED, System.nanoTime(), 1); // readers see it now
                    } else {
                        waits.waitEnded(System.nanoTime()); // the head's own task holds us now: not back-pressure
                    }
                    held = headStored;
                }
                idle.idle();
            }
            return true;
        } finally {
            if (held) {
                waits.waitEnded(System.nanoTime());
            }
        }
    }

    /**
     * Publishes every ready result from the head on if no other worker is draining. After giving the token back it
     * re-checks the head: a worker that stored the head's result while we held the token and failed to get the token
     * relies on this re-check (its volatile stamp store precedes its failed CAS, a volatile read of the token; our
     * volatile token store precedes our volatile stamp load; in the total order of volatile accesses one of the two
     * loads sees the other's store).
     *
     * @param out       the caller's publisher
     * @param running   the pipeline's run flag
     * @param published told, on this thread, of each result as it is published (with 1), before waiting for room
     *                  for the next (so also what went out before a stop ended the drain part-way)
     * @return {@code true}, or {@code false} if the pipeline stopped while publishing (the result that could not be
     *         published stays in the window)
     */
    public boolean drain(BoundedPublisher out, RunFlag running, IntConsumer published) {
        for (;;) {
            if (!draining.compareAndSet(0, 1)) { // full fence; try-only, never waits
                return true;
            }
            long h = head.get(); // only the token holder writes the head
            int i = (int) h & mask;
            while ((long) STAMPS.getAcquire(stamps, i) == h) {
                Object v = values[i];
                values[i] = null; // let the GC have the item once published
                if (v != null) {
                    if (!out.publish(v, epochs[i])) {
                        values[i] = v; // undelivered: stays for drainUndelivered (head not advanced)
                        draining.setVolatile(0);
                        return false; // what went out before the stop was counted as it went
                    }
                    published.accept(1); // now, not at the drain's end: it may wait for room for the next long
                }
                h++;
                head.set(h); // release: the entry was cleared before a worker may refill it
                i = (int) h & mask;
            }
            draining.setVolatile(0); // volatile store then volatile load below: no store-load reordering
            if ((long) STAMPS.getVolatile(stamps, i) != h) {
                return true;
            }
        }
    }

    /**
     * Takes every result still in the window (stored, never published) and gives it to {@code sink}: the close-time
     * sweep. Call only once every worker using the window has stopped.
     *
     * @param sink receives each result left
     * @return the number of results handed to {@code sink}
     */
    public int drainUndelivered(Consumer<Object> sink) {
        int n = 0;
        for (int i = 0; i < values.length; i++) {
            Object v = values[i];
            if (v != null) {
                values[i] = null;
                sink.accept(v);
                n++;
            }
        }
        return n;
    }

    /** {@return the next input sequence the window will publish} */
    public long head() {
        return head.get();
    }
}
