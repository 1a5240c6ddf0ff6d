package org.spdl4j.engine;

import org.spdl4j.engine.ring.ActiveWorkers;

/**
 * The live concurrency of one stage built with {@link StageOptions#withMaxConcurrency(int)}: how many of its started
 * worker threads (a sync pipe) or task slots (an async or virtual-thread pipe) may work now. A tuner reads the stage's
 * stats and moves it between 1 and {@link #max()}.
 *
 * <p>A sync pipe's workers past the limit park between claims, holding no item, and wake when the limit rises, at end
 * of stream and on close; an async pipe starts no task while its tasks in flight reach the limit (tasks already
 * running finish). A change takes effect at each worker's next claim (sync) or next task start (async).
 *
 * <p><b>Threading:</b> any thread. <b>Allocation:</b> none. {@link #set} wakes the workers it lets in
 * ({@code LockSupport.unpark}).
 */
public final class StageConcurrency {
    private final String stage;
    private final boolean threads;
    private final ActiveWorkers active;

    StageConcurrency(String stage, boolean threads, ActiveWorkers active) {
        this.stage = stage;
        this.threads = threads;
        this.active = active;
    }

    /** {@return the stage's name} */
    public String stage() {
        return stage;
    }

    /** {@return {@code true} for a sync pipe (the limit counts threads), {@code false} for tasks in flight} */
    public boolean isThreads() {
        return threads;
    }

    /** {@return the limit now} */
    public int get() {
        return active.limit();
    }

    /** {@return the highest limit: the workers or task slots the stage started} */
    public int max() {
        return active.max();
    }

    /**
     * Sets the limit.
     *
     * @param n the new limit, clamped to {@code 1..max()}
     * @return the limit set
     */
    public int set(int n) {
        return active.set(n);
    }

    @Override
    public String toString() {
        return stage + " " + get() + "/" + max() + (threads ? " threads" : " in flight");
    }
}
