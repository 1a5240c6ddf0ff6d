package org.spdl4j.engine.runtime;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;

/**
 * One of an async stage's {@code concurrency} task entries, preallocated and reused. The dispatcher thread starts a
 * task in a FREE entry; whichever thread completes it (the future's thread, the virtual thread, or the dispatcher on a
 * timeout) moves it to DONE; the dispatcher publishes the outcome and frees the entry.
 *
 * <p>The state is one int, {@code (generation << 2) | phase}. Completing is a CAS from this generation's RUNNING, so
 * a late completion of an abandoned (timed-out, or running when the pipeline stopped) task finds another state; its
 * result goes to the {@link Discarder}, since no one else will ever take it. The outcome fields are
 * written after winning that CAS and published by the release store of DONE; the dispatcher reads them after an
 * acquire load of DONE.
 *
 * <p><b>Threading:</b> dispatcher plus one completing thread per task.
 */
final class AsyncTaskEntry {
    static final int FREE = 0;
    static final int RUNNING = 1;
    static final int COMPLETING = 2;
    static final int DONE = 3;
    private static final int PHASE = 3;
    private static final VarHandle STATE;
    private static final VarHandle RUNNER;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(AsyncTaskEntry.class, "state", int.class);
            RUNNER = MethodHandles.lookup().findVarHandle(AsyncTaskEntry.class, "runner", Thread.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    @SuppressWarnings("unused") // accessed through STATE
    private volatile int state;
    private final Thread dispatcher;
    private final Discarder discarder;
    // Written by the dispatcher before starting the task (the start happens-before the task's completion).
    Object item;
    long epoch;
    long inputSequence;
    long startedNanos;
    int generation;
    // Written by the completer between the CAS and the release of DONE.
    Object result;
    Throwable error;
    /** When the task completed: its time is {@code completedNanos - startedNanos}, not when it was published. */
    long completedNanos;
    /**
     * The virtual thread running the current generation's task (virtual-thread pipes), interrupted on timeout. Set
     * only through {@link #bindRunner}, cleared by {@link #free}, so a thread of an earlier generation never stays in
     * it.
     */
    private volatile Thread runner;

    AsyncTaskEntry(Thread dispatcher, Discarder discarder) {
        this.dispatcher = dispatcher;
        this.discarder = discarder;
    }

    /** Dispatcher: marks the entry running for a new task; returns the generation the completion must present. */
    int start(Object taskItem, long taskEpoch, long sequence, long now) {
        item = taskItem;
        epoch = taskEpoch;
        inputSequence = sequence;
        startedNanos = now;
        generation++;
        STATE.setRelease(this, generation << 2 | RUNNING);
        return generation;
    }

    /**
     * Any thread: completes the task of generation {@code gen}. If that task was already completed or abandoned,
     * the value is discarded (handed to the discard hook).
     */
    void complete(int gen, Object value, Throwable failure) {
        if (!STATE.compareAndSet(this, gen << 2 | RUNNING, gen << 2 | COMPLETING)) {
            discarder.discard(value); // a late result: the entry moved on, nobody will publish it
            return;
        }
        result = value;
        error = failure;
        completedNanos = System.nanoTime(); // one clock read per async task (I/O-scale work), on the completer
        STATE.setRelease(this, gen << 2 | DONE); // release: result and error are visible with DONE
        LockSupport.unpark(dispatcher); // wake a parked dispatcher; no-op cost when it runs
    }

    /**
     * The virtual thread of task {@code gen}, before it calls the function: records itself as the runner to interrupt
     * on timeout if the entry still runs that task. {@code false} when the task timed out or was abandoned before its
     * thread started (the entry may run a later generation by now): the caller must not call the function, and still
     * owns the item.
     */
    boolean bindRunner(int gen, Thread self) {
        int running = gen << 2 | RUNNING;
        for (;;) {
            if ((int) STATE.getVolatile(this) != running) {
                return false;
            }
            if (RUNNER.compareAndSet(this, null, self)) {
                break;
            }
            // Held by a stale task's thread between its CAS and its re-check below: it is about to clear it.
            Thread.onSpinWait();
        }
        // Volatile CAS of the runner, then volatile load of the state; the dispatcher completes a timed-out task
        // (CAS of the state) and then reads the runner. Either it sees us and interrupts us, or we see its completion
        // and give the runner back without calling the function.
        if ((int) STATE.getVolatile(this) == running) {
            return true;
        }
        RUNNER.compareAndSet(this, self, null);
        return false;
    }

    /**
     * Dispatcher, after completing a timed-out task: the thread to interrupt, or {@code null}. Until the dispatcher
     * frees the entry no later generation starts, so this is the timed-out task's thread, or a thread that is about to
     * give up without calling the function (for which the interrupt is harmless).
     */
    Thread runner() {
        return (Thread) RUNNER.getVolatile(this);
    }

    int phase() {
        return (int) STATE.getAcquire(this) & PHASE;
    }

    /**
     * Closing thread, once the dispatcher thread has ended: gives the entry up. A result already in goes to the
     * discarder; a task still running is moved to a new generation, so its completion fails its CAS and discards its
     * own result on its own thread.
     */
    void abandon() {
        for (;;) {
            int s = (int) STATE.getAcquire(this); // acquire: a DONE state's result is visible
            int phase = s & PHASE;
            if (phase == FREE) {
                return;
            }
            if (phase == DONE) {
                Object r = result;
                free();
                discarder.discard(r);
                return;
            }
            if (phase == RUNNING && STATE.compareAndSet(this, s, (generation + 1) << 2 | FREE)) {
                generation++; // the running task's complete(gen) now fails and discards
                return;
            }
            Thread.onSpinWait(); // COMPLETING: the completer is between its CAS and DONE, a few instructions
        }
    }

    /** Dispatcher: after publishing the outcome, clears references and frees the entry. */
    void free() {
        item = null;
        result = null;
        error = null;
        runner = null;
        STATE.setRelease(this, generation << 2 | FREE);
    }
}
