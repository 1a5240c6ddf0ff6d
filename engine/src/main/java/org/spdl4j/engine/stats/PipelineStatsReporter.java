package org.spdl4j.engine.stats;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Takes a {@link PipelineSnapshot} every interval on its own daemon thread, {@code spdl4j-<pipeline>-reporter}, and
 * hands it to a sink; by default the sink logs {@link StatsTable#render(PipelineSnapshot)} at INFO through SLF4J
 * (logger {@code org.spdl4j.engine.stats.PipelineStatsReporter}). Each snapshot also drives the pipeline's interval
 * listeners (the {@code .hlog} writer), so one reporter is the only periodic sampler a pipeline needs.
 *
 * <p><b>Threading:</b> start and close from any thread. The sink runs on the reporter thread; an exception from it is
 * logged and reporting goes on. {@link #close()} is idempotent: it wakes the thread, which reports one last time (the
 * tail interval) and ends; close waits for that up to {@link #CLOSE_TIMEOUT}. Only close ends it: an interrupt of
 * the reporter thread (from a debugger, a framework, or a sink that restores the flag) is cleared, logged once, and
 * reporting goes on at its period.
 *
 * <p><b>Allocation:</b> per interval, the snapshot and (when logged) the rendered table; never on worker threads.
 */
public final class PipelineStatsReporter implements AutoCloseable {
    /** How long {@link #close()} waits for the final report. */
    public static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(2);

    private static final Logger LOG = LoggerFactory.getLogger(PipelineStatsReporter.class);

    private final PipelineStats stats;
    private final long intervalNanos;
    private final Consumer<? super PipelineSnapshot> sink;
    private final Thread thread;
    private volatile boolean closed;
    private volatile PipelineSnapshot last;

    private PipelineStatsReporter(PipelineStats stats, Duration interval, Consumer<? super PipelineSnapshot> sink) {
        if (interval.isNegative() || interval.isZero()) {
            throw new IllegalArgumentException("report interval of pipeline '" + stats.name()
                    + "' must be positive, got " + interval);
        }
        this.stats = stats;
        this.intervalNanos = interval.toNanos();
        this.sink = sink;
        this.thread = Thread.ofPlatform().name("spdl4j-" + stats.name() + "-reporter").daemon(true)
                .unstarted(this::run);
    }

    /**
     * Starts logging the table every {@link StatsConfiguration#REPORT_INTERVAL} (10 s).
     *
     * @param stats the pipeline's stats
     * @return the running reporter; close it when the pipeline ends
     */
    public static PipelineStatsReporter start(PipelineStats stats) {
        return start(stats, StatsConfiguration.REPORT_INTERVAL);
    }

    /**
     * Starts logging the table every {@code interval}.
     *
     * @param stats    the pipeline's stats
     * @param interval the period, positive
     * @return the running reporter
     */
    public static PipelineStatsReporter start(PipelineStats stats, Duration interval) {
        return start(stats, interval, PipelineStatsReporter::log);
    }

    /**
     * Starts handing a snapshot to {@code sink} every {@code interval} (the CLI prints them; tests collect them).
     *
     * @param stats    the pipeline's stats
     * @param interval the period, positive
     * @param sink     receives each snapshot on the reporter thread
     * @return the running reporter
     */
    public static PipelineStatsReporter start(PipelineStats stats, Duration interval,
                                              Consumer<? super PipelineSnapshot> sink) {
        PipelineStatsReporter r = new PipelineStatsReporter(stats, interval, sink);
        r.thread.start();
        return r;
    }

    /** {@return the latest snapshot reported, or null before the first} */
    public PipelineSnapshot lastSnapshot() {
        return last;
    }

    /** {@return the reporter thread's name} */
    public String threadName() {
        return thread.getName();
    }

    private static void log(PipelineSnapshot snapshot) {
        if (LOG.isInfoEnabled()) {
            LOG.info("\n{}", StatsTable.render(snapshot));
        }
    }

    private void run() {
        long next = System.nanoTime() + intervalNanos;
        boolean interruptLogged = false;
        while (!closed) {
            if (Thread.interrupted()) {
                // Only close() ends the reporter. Left set, the flag would make every parkNanos return at once (a
                // spin on a core until close) and could fail the sink's next I/O, so it is cleared.
                if (!interruptLogged) {
                    interruptLogged = true;
                    LOG.warn("stats reporter thread {} was interrupted; interrupts are ignored (close() stops it),"
                            + " reporting goes on", thread.getName());
                }
            }
            long wait = next - System.nanoTime();
            if (wait > 0) {
                // close() unparks us; spurious wake-ups just loop.
                LockSupport.parkNanos(this, wait);
                continue;
            }
            report();
            next += intervalNanos;
            if (next - System.nanoTime() < 0) {
                next = System.nanoTime() + intervalNanos; // fell behind (slow sink or a pause): do not burst
            }
        }
        report(); // the tail interval
    }

    private void report() {
        try {
            PipelineSnapshot s = stats.snapshot();
            last = s;
            sink.accept(s);
        } catch (VirtualMachineError e) {
            throw e;
        } catch (Throwable e) { // an Error from a user sink (an assertion) must not end periodic reporting
            LOG.warn("stats reporter of pipeline '{}' failed; reporting goes on", stats.name(), e);
        }
    }

    /**
     * Stops the reporter after one final report; waits up to {@link #CLOSE_TIMEOUT} for it. Idempotent.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        LockSupport.unpark(thread);
        if (Thread.currentThread() == thread) {
            return; // closed from the sink itself: the loop ends after this report
        }
        try {
            if (!thread.join(CLOSE_TIMEOUT)) {
                LOG.warn("stats reporter thread {} still running {} ms after close: its sink is slow",
                        thread.getName(), TimeUnit.NANOSECONDS.toMillis(CLOSE_TIMEOUT.toNanos()));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
