package org.spdl4j.engine.ring;

/**
 * Whether a pipeline still runs; polled by every wait loop so that {@code close()} and failures stop them.
 *
 * <p><b>Threading:</b> a volatile boolean; any thread may stop it, once stopped it stays stopped.
 */
public final class RunFlag {
    private volatile boolean running = true;

    /** Creates a flag in the running state. */
    public RunFlag() {
        // starts running
    }

    /** {@return whether the pipeline still runs} */
    public boolean isRunning() {
        return running;
    }

    /** Stops the pipeline; waits that poll this flag give up. */
    public void stop() {
        // Volatile store: wait loops on other threads see it on their next poll.
        running = false;
    }
}
