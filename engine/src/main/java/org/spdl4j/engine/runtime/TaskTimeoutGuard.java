package org.spdl4j.engine.runtime;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

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
 * <p>The watchdog logs a task it times out when it does (stage, worker, item, time run), and once more, with the
 * worker's stack, a task that is still running a grace period later (it ignores interrupts and holds its worker),
 * so a stuck task shows in the log while it is stuck, not only when the pipeline closes.
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

    private static final Logger LOG = LoggerFactory.getLogger(TaskTimeoutGuard.class);
    /** The shortest wait after a time-out before a task still running is logged as ignoring the interrupt. */
    private static final long MIN_GRACE_NANOS = 1_000_000_000L;

    private final long timeoutNanos;
    private final String pipeline;
    private final String stage;
    private final int index;
    private volatile Thread worker;
    /** The running task's item (null between tasks), for the watchdog's log. */
    private volatile Object item;
    /** Watchdog-only: the state of the last task logged as ignoring its interrupt. */
    private long warnedIgnoring = -1;
    @SuppressWarnings("unused") // accessed through STATE
    private volatile long state;
    private volatile long startedNanos;
    private long serial;

    TaskTimeoutGuard(long timeoutNanos, String pipeline, String stage, int index) {
        this.timeoutNanos = timeoutNanos;
        this.pipeline = pipeline;
        this.stage = stage;
        this.index = index;
    }

    /** Called by the worker thread once, before its first task. */
    void bind(Thread thread) {
        this.worker = thread;
    }

    /** Worker: a task on {@code task} starts now. */
    void begin(long nowNanos, Object task) {
        startedNanos = nowNanos;
        item = task;
        serial++;
        STATE.setRelease(this, (serial << 2) | RUNNING); // release: startedNanos is visible with the state
    }

    /**
     * Worker: the task returned or threw.
     *
     * @return {@code true} if it finished in time, {@code false} if the watchdog timed it out (interrupt cleared)
     */
    boolean end() {
        item = null;
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
        if ((s & PHASE) == TIMED_OUT) {
            stillRunning(s, nowNanos);
            return;
        }
        if ((s & PHASE) != RUNNING || nowNanos - startedNanos <= timeoutNanos) {
            return;
        }
        if (STATE.compareAndSet(this, s, (s & ~PHASE) | TIMING_OUT)) { // fails if the task ended meanwhile
            Thread t = worker;
            if (t != null) {
                t.interrupt();
            }
            STATE.setRelease(this, (s & ~PHASE) | TIMED_OUT);
            if (LOG.isWarnEnabled()) {
                LOG.warn("pipeline '{}', stage '{}', worker {}: the task on item {} has run {} ms, past the stage's task"
                        + " timeout of {} ms: interrupted; its item counts as failed when it returns", pipeline, stage,
                        index, StageFailures.describe(item), (nowNanos - startedNanos) / 1_000_000, timeoutNanos / 1_000_000);
            }
        }
    }

    /** Watchdog: a timed-out task has not returned; logged once, a grace period after its deadline, with its stack. */
    private void stillRunning(long s, long nowNanos) {
        long grace = Math.max(MIN_GRACE_NANOS, timeoutNanos);
        if (warnedIgnoring == s || nowNanos - startedNanos <= timeoutNanos + grace) {
            return;
        }
        warnedIgnoring = s;
        Thread t = worker;
        if (LOG.isWarnEnabled()) {
            LOG.warn("pipeline '{}', stage '{}', worker {}: the task on item {} is still running {} ms after it started"
                    + " (task timeout {} ms): it ignores interrupts and holds its worker until it returns; make the"
                    + " stage function respond to interrupts or bound its own wait. It is at:{}", pipeline, stage,
                    index, StageFailures.describe(item), (nowNanos - startedNanos) / 1_000_000, timeoutNanos / 1_000_000,
                    t == null ? " (unknown)" : ThreadStopper.stackOf(t));
        }
    }

    long timeoutNanos() {
        return timeoutNanos;
    }
}
