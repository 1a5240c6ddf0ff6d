package org.spdl4j.engine.ring;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.locks.LockSupport;

/**
 * How many of a stage's started workers (sync threads) or task slots (async, virtual-thread tasks) may work now: an
 * adjustable limit between 1 and the stage's maximum, set from any thread (a tuner), read by the stage once per claim.
 *
 * <p>Sync stages: worker {@code i} works while {@code i < limit()}; a worker past the limit parks between claims
 * ({@link WorkSharingReader#parkWhileInactive}), never holding a claimed run, and wakes when the limit rises again,
 * at end of stream ({@link #openForEnd}) and on close or failure. Worker 0 never parks, so some worker always gates
 * the ring below every unclaimed sequence while others are parked (see {@link WorkSharingReader#parkWhileInactive}).
 *
 * <p>Memory ordering: the limit is stored with release semantics and read with an opaque load on the hot path (one per
 * claim): a worker acts on a change within its next claim or two, and a stale read only delays a park or a wake by one
 * run. The end-of-stream handshake ({@link #ending}, {@link #parked}) uses volatile accesses in Dekker order.
 *
 * <p>The limit sits on a cache line of its own (padding on both sides), so the tuner's rare store does not share a
 * line with anything the workers write.
 *
 * <p><b>Threading:</b> {@link #set} from any thread; the rest from the stage's workers. <b>Allocation:</b> none after
 * construction.
 */
public final class ActiveWorkers extends ActiveWorkersPadAfter {
    private static final VarHandle LIMIT;

    static {
        try {
            LIMIT = MethodHandles.lookup().findVarHandle(ActiveWorkersValue.class, "limit", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** How long a parked worker sleeps between looks at the limit when nobody unparks it (a bound, not a poll). */
    private static final long PARK_NANOS = 10_000_000L;

    private final int max;
    private final AtomicReferenceArray<Thread> parkedThreads;
    /** Workers between announcing a park and rejoining the claim protocol (see {@link #openForEnd}). */
    private final AtomicInteger parked = new AtomicInteger();
    /** Set once a worker took an end marker: nobody parks any more. */
    private volatile boolean ending;

    /**
     * Creates a limit.
     *
     * @param max     the stage's started workers or task slots, at least 1
     * @param initial the first limit, clamped to {@code 1..max}
     */
    public ActiveWorkers(int max, int initial) {
        if (max < 1) {
            throw new IllegalArgumentException("max must be at least 1, got " + max);
        }
        this.max = max;
        this.parkedThreads = new AtomicReferenceArray<>(max);
        LIMIT.setRelease(this, Math.clamp(initial, 1, max));
    }

    /** {@return the limit now (opaque load: the one read per claim on a stage's hot path)} */
    public int limit() {
        return (int) LIMIT.getOpaque(this);
    }

    /** {@return the stage's started workers or task slots: the highest limit} */
    public int max() {
        return max;
    }

    /**
     * Sets the limit and wakes the parked workers it lets work again. Any thread.
     *
     * @param n the new limit, clamped to {@code 1..max()}
     * @return the limit set
     */
    public int set(int n) {
        int v = Math.clamp(n, 1, max);
        LIMIT.setRelease(this, v); // release: what the tuner wrote before is visible to a worker that sees the value
        for (int i = 1; i < v; i++) {
            Thread t = parkedThreads.get(i);
            if (t != null) {
                LockSupport.unpark(t);
            }
        }
        return v;
    }

    /** {@return whether worker {@code index} may stay parked: past the limit and the stream not ending} */
    boolean keepsParked(int index) {
        return index >= limit() && !ending;
    }

    /**
     * Announces that worker {@code index} is about to park (volatile increment, then the caller re-checks
     * {@link #keepsParked}): either it sees {@link #ending}, or {@link #openForEnd} sees it counted and waits.
     */
    void announce(int index) {
        parked.incrementAndGet();
        parkedThreads.set(index, Thread.currentThread());
    }

    /** Worker {@code index} has rejoined the claim protocol (its gating sequence is set again) or stopped. */
    void rejoined(int index) {
        parkedThreads.set(index, null);
        parked.decrementAndGet(); // after the caller's gating store: openForEnd reads it afterwards
    }

    /** Parks the calling worker for a bounded time; it is unparked by {@link #set} and {@link #openForEnd}. */
    void parkOnce() {
        LockSupport.parkNanos(this, PARK_NANOS);
    }

    /**
     * Called by a worker that took an end marker, before it stops gating the ring: no worker parks from now on, and
     * it returns once every parked worker has rejoined the claim protocol (its gating sequence at or below the claim
     * counter), so the remaining end markers stay protected until each parked worker takes its own. Bounded by the
     * run flag; idempotent.
     *
     * @param running the pipeline's run flag
     */
    public void openForEnd(RunFlag running) {
        ending = true; // volatile store, then the volatile read of parked below (Dekker with announce)
        if (parked.get() == 0) {
            return;
        }
        for (int i = 0; i < max; i++) {
            Thread t = parkedThreads.get(i);
            if (t != null) {
                LockSupport.unpark(t);
            }
        }
        while (parked.get() > 0 && running.isRunning()) {
            LockSupport.parkNanos(50_000L); // end of stream only: waits for a woken worker's one store
        }
    }
}

/** Padding before the limit (superclass fields come first in an object's layout). */
abstract class ActiveWorkersPadBefore {
    byte p000, p001, p002, p003, p004, p005, p006, p007, p008, p009, p010, p011, p012, p013, p014, p015;
    byte p016, p017, p018, p019, p020, p021, p022, p023, p024, p025, p026, p027, p028, p029, p030, p031;
    byte p032, p033, p034, p035, p036, p037, p038, p039, p040, p041, p042, p043, p044, p045, p046, p047;
    byte p048, p049, p050, p051, p052, p053, p054, p055, p056, p057, p058, p059, p060, p061, p062, p063;
}

/** The limit itself, read and written through {@link ActiveWorkers}'s VarHandle. */
abstract class ActiveWorkersValue extends ActiveWorkersPadBefore {
    /** Written with release stores, read with opaque loads. */
    int limit;
}

/** Padding after the value. */
abstract class ActiveWorkersPadAfter extends ActiveWorkersValue {
    byte q000, q001, q002, q003, q004, q005, q006, q007, q008, q009, q010, q011, q012, q013, q014, q015;
    byte q016, q017, q018, q019, q020, q021, q022, q023, q024, q025, q026, q027, q028, q029, q030, q031;
    byte q032, q033, q034, q035, q036, q037, q038, q039, q040, q041, q042, q043, q044, q045, q046, q047;
    byte q048, q049, q050, q051, q052, q053, q054, q055, q056, q057, q058, q059, q060, q061, q062, q063;
}
