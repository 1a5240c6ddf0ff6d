package org.spdl4j.engine.runtime;

import java.util.List;
import java.util.concurrent.locks.LockSupport;
import org.spdl4j.engine.ring.RunFlag;

/**
 * One thread per pipeline (only when some stage has a task timeout) that checks every guarded worker a few times per
 * timeout period and interrupts the ones whose task ran too long. A task that ignores interrupts keeps its worker
 * until it returns; its item still counts as failed.
 *
 * <p><b>Threading:</b> runs on its own thread; the guards are the handshake with the workers.
 */
final class TimeoutWatchdog implements Runnable {
    private static final long MIN_PERIOD_NANOS = 1_000_000L;
    private static final long MAX_PERIOD_NANOS = 50_000_000L;

    private final List<TaskTimeoutGuard> guards;
    private final RunFlag running;
    private final long periodNanos;

    TimeoutWatchdog(List<TaskTimeoutGuard> guards, RunFlag running) {
        this.guards = List.copyOf(guards);
        this.running = running;
        long shortest = Long.MAX_VALUE;
        for (TaskTimeoutGuard g : guards) {
            shortest = Math.min(shortest, g.timeoutNanos());
        }
        this.periodNanos = Math.max(MIN_PERIOD_NANOS, Math.min(MAX_PERIOD_NANOS, shortest / 4));
    }

    @Override
    public void run() {
        while (running.isRunning() && !Thread.currentThread().isInterrupted()) {
            long now = System.nanoTime();
            for (int i = 0; i < guards.size(); i++) {
                guards.get(i).check(now);
            }
            LockSupport.parkNanos(periodNanos);
        }
    }
}
