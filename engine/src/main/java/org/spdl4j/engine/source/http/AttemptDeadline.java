package org.spdl4j.engine.source.http;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * The deadline of one attempt: cancels the client's future once the attempt has taken its timeout (which aborts the
 * exchange), not counting the time its body waited for its turn ({@link LargeBodies#inCallOrder()}): that wait is the
 * fetcher's, not the server's. (Counted, it failed a younger large body whose older objects took longer than one
 * attempt, for no fault of its server.) A deadline that finds time left, waited, looks again when that time is up.
 *
 * <p><b>Threading:</b> {@link #arm()} on the attempt's thread, {@link #run()} on the timer thread, {@link #disarm()}
 * where the call completes; one monitor orders them. <b>Allocation:</b> this object and one timer task per arming.
 */
final class AttemptDeadline implements Runnable {
    private final ScheduledExecutorService timers;
    private final CompletableFuture<?> call;
    private final LongSupplier waitedNanos;
    private final long timeoutNanos;
    private final long startedAt = System.nanoTime();
    /** The task now scheduled; guarded by this object's monitor. */
    private ScheduledFuture<?> scheduled;
    /** Set by {@link #disarm()}; guarded by this object's monitor. */
    private boolean disarmed;

    /**
     * A deadline from now, not armed yet.
     *
     * @param timers       the fetcher's timer
     * @param call         the client's future of this attempt
     * @param waitedNanos  how long the attempt's body has waited for its turn so far (never less than it did)
     * @param timeoutNanos the attempt timeout
     */
    AttemptDeadline(ScheduledExecutorService timers, CompletableFuture<?> call, LongSupplier waitedNanos,
                    long timeoutNanos) {
        this.timers = timers;
        this.call = call;
        this.waitedNanos = waitedNanos;
        this.timeoutNanos = timeoutNanos;
    }

    /**
     * Schedules the deadline.
     *
     * @throws RejectedExecutionException when the timer is shut down (the fetcher is closing)
     */
    synchronized void arm() {
        scheduled = timers.schedule(this, timeoutNanos, TimeUnit.NANOSECONDS);
    }

    /** Cancels the deadline (the attempt completed): its task no longer holds the attempt's response. */
    synchronized void disarm() {
        disarmed = true;
        if (scheduled != null) {
            scheduled.cancel(false);
        }
    }

    @Override
    public void run() {
        synchronized (this) {
            if (disarmed) {
                return;
            }
            long waited = waitedNanos.getAsLong();
            long left = waited == 0 ? 0 : timeoutNanos - (System.nanoTime() - startedAt - waited);
            if (left > 0) {
                try {
                    scheduled = timers.schedule(this, left, TimeUnit.NANOSECONDS);
                    return;
                } catch (RejectedExecutionException closing) {
                    // the fetcher is closing: abort below
                }
            }
        }
        call.cancel(true); // outside the monitor: the attempt's handler runs here
    }
}
