package org.spdl4j.examples.cli;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Ends {@code spdl4j run} cleanly on SIGINT or SIGTERM: a shutdown hook asks the run loop to stop after the batch it
 * holds ({@link #requested()}, polled between batches), then waits for the run to finish its ending (keys flushed,
 * state written, summary printed, loader closed) before the JVM halts. Should the run not finish within
 * {@link #WAIT_SECONDS} s (a stage that does not stop), the hook runs the run's save step itself (once in all), then
 * closes the loader.
 *
 * <p><b>Threading:</b> {@link #requested()} from the run loop, the hook on the JVM's shutdown thread; the save step
 * runs at most once, on whichever thread comes first. A normal end {@link #close() removes} the hook.
 */
final class SignalStop implements AutoCloseable {
    /** The longest the hook waits for the run to end by itself. */
    static final long WAIT_SECONDS = 20;

    private final Runnable save;
    private final Runnable closeLoader;
    private final Thread hook = new Thread(this::onShutdown, "spdl4j-run-stop");
    private final CountDownLatch finished = new CountDownLatch(1);
    private volatile boolean requested;
    private boolean saved;

    private SignalStop(Runnable save, Runnable closeLoader) {
        this.save = save;
        this.closeLoader = closeLoader;
    }

    /**
     * Installs the hook.
     *
     * @param save        the run's ending step that must happen however it ends (flush keys, write the state)
     * @param closeLoader closes the loader, should the run not end by itself
     * @return the stop
     */
    static SignalStop install(Runnable save, Runnable closeLoader) {
        SignalStop stop = new SignalStop(save, closeLoader);
        Runtime.getRuntime().addShutdownHook(stop.hook);
        return stop;
    }

    /** {@return whether a signal asked the run to stop} */
    boolean requested() {
        return requested;
    }

    /** Runs the save step unless it already ran. */
    void save() {
        synchronized (this) {
            if (saved) {
                return;
            }
            saved = true;
        }
        save.run();
    }

    private void onShutdown() {
        requested = true;
        try {
            if (finished.await(WAIT_SECONDS, TimeUnit.SECONDS)) {
                return;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try {
            save();
        } finally {
            closeLoader.run();
        }
    }

    /** The run has ended: the hook (if running) returns, else it is removed. */
    @Override
    public void close() {
        finished.countDown();
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException e) {
            // the JVM is shutting down: the hook is running and returns now
        }
    }
}
