package org.spdl4j.engine.runtime;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The per-worker handshake that lets a {@link TimeoutWatchdog} interrupt a sync task past its deadline without ever
 * interrupting the worker's next task.
 *
 * <p>State is one long: {@code (taskSerial << 2) | phase}, phases IDLE, RUNNING, TIMING_OUT, TIMED_OUT. The worker
 * moves IDLE to RUNNING (new serial) before a task and RUNNING to IDLE with a CAS after it. The watchdog moves a
 * RUNNING state it read to TIMING_OUT with a CAS (the serial makes a stale read fail), interrupts the worker, then
 * stores TIMED_OUT. A worker whose CAS fails knows its task timed out; it waits for TIMED_OUT (a few instructions on
 * the watchdog) so the interrupt has surely landed, then clears it. Two CASes per task, only when a timeout is set.
 *
 * <p><b>Threading:</b> one worker thread and the watchdog thread.
 */
final class TaskTimeoutGuard {
    private static final VarHandle STATE;
    private static final long IDLE = 0;
    private static final long RUNNING = 1;
    private static final long TIMING_OUT = 2;
    private static final long TIMED_OUT = 3;
    private static final long PHASE = 3;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(TaskTimeoutGuard.class, "state", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final long timeoutNanos;
    private volatile Thread worker;
    @SuppressWarnings("unused") // accessed through STATE
    private volatile long state;
    private volatile long startedNanos;
    private long serial;

    TaskTimeoutGuard(long timeoutNanos) {
        this.timeoutNanos = timeoutNanos;
    }

    /** Called by the worker thread once, before its first task. */
    void bind(Thread thread) {
        this.worker = thread;
    }

    /** Worker: a task starts now. */
    void begin(long nowNanos) {
        startedNanos = nowNanos;
        serial++;
        STATE.setRelease(this, (serial << 2) | RUNNING); // release: startedNanos is visible with the state
    }

    /**
     * Worker: the task returned or threw.
     *
     * @return {@code true} if it finished in time, {@code false} if the watchdog timed it out (interrupt cleared)
     */
    boolean end() {
        long running = (serial << 2) | RUNNING;
        if (STATE.compareAndSet(this, running, serial << 2 | IDLE)) {
            return true;
        }
        while (((long) STATE.getAcquire(this) & PHASE) != TIMED_OUT) {
            Thread.onSpinWait(); // the watchdog is between its CAS and its interrupt: a few instructions
        }
        Thread.interrupted(); // clear the watchdog's interrupt so it cannot hit the next task
        STATE.setRelease(this, serial << 2 | IDLE);
        return false;
    }

    /** Watchdog: interrupts the worker if its current task is past the deadline. */
    void check(long nowNanos) {
        long s = (long) STATE.getAcquire(this);
        if ((s & PHASE) != RUNNING || nowNanos - startedNanos <= timeoutNanos) {
            return;
        }
        if (STATE.compareAndSet(this, s, (s & ~PHASE) | TIMING_OUT)) { // fails if the task ended meanwhile
            Thread t = worker;
            if (t != null) {
                t.interrupt();
            }
            STATE.setRelease(this, (s & ~PHASE) | TIMED_OUT);
        }
    }

    long timeoutNanos() {
        return timeoutNanos;
    }
}
