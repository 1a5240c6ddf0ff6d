package org.spdl4j.engine;

/**
 * Told of every failure a pipeline counts: a task that threw or timed out, a failure a task reported without throwing
 * ({@link StageFailureReport}), a source that skipped what it could not read (a damaged tar shard). Each failure is
 * told once, after it was counted against its stage's budget and logged; not for tasks interrupted because the
 * pipeline stopped.
 *
 * <p><b>Threading:</b> called on the failing worker's or source's thread, from several at once: implementations must
 * be thread-safe and quick (they run on the pipeline's threads). What one throws is logged and ignored.
 */
@FunctionalInterface
public interface FailureListener {
    /** Tells nobody. */
    FailureListener NONE = (stage, item, cause) -> { };

    /**
     * One failure.
     *
     * @param stage the stage's name (the source's for the source thread)
     * @param item  the item whose task failed, or what the source names (such as {@code "tar shard a.tar"})
     * @param cause what went wrong
     */
    void failed(String stage, Object item, Throwable cause);
}
