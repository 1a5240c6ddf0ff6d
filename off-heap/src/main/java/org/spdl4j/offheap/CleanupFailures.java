package org.spdl4j.offheap;

/**
 * The failures of a cleanup that must try every step whatever one of them throws (free every chunk, close every
 * event, release every field): the first failure is kept, later ones are suppressed on it, and {@link #rethrow()}
 * throws it once every step was tried, so one bad step never leaks the resources of the steps after it.
 *
 * <p><b>Threading:</b> one instance per cleanup, used by the thread doing it. Cleanup paths only (an instance, and a
 * lambda per {@link #run} step, are allocated there).
 */
public final class CleanupFailures {
    private Throwable first;

    /** Starts with no failure. */
    public CleanupFailures() {
    }

    /**
     * Runs one step; what it throws is kept for {@link #rethrow()}, and the cleanup goes on.
     *
     * @param step the step
     */
    public void run(Runnable step) {
        try {
            step.run();
        } catch (RuntimeException | Error e) {
            add(e);
        }
    }

    /**
     * Keeps a failure: the first one, or suppressed on it.
     *
     * @param failure what a step threw
     */
    public void add(Throwable failure) {
        if (first == null) {
            first = failure;
        } else if (first != failure) {
            first.addSuppressed(failure);
        }
    }

    /** Throws the first failure kept, if any (a {@link RuntimeException} or {@link Error}, as the step threw it). */
    public void rethrow() {
        if (first instanceof RuntimeException e) {
            throw e;
        }
        if (first instanceof Error e) {
            throw e;
        }
        if (first != null) {
            throw new IllegalStateException("cleanup failed", first);
        }
    }
}
