package org.spdl4j.engine;

import java.time.Duration;
import org.spdl4j.engine.affinity.CpuSet;

/**
 * How one stage runs. Immutable; the {@code with*} methods return a changed copy.
 *
 * @param concurrency    sync pipes: worker threads; async and virtual-thread pipes: tasks in flight
 * @param order          the order the stage publishes results in
 * @param waitPolicy     how the stage's threads wait for input and for room
 * @param ringCapacity   slots of the stage's input ring, a power of two
 * @param failureBudget  failures tolerated before the pipeline fails
 * @param taskTimeout    the longest a task may run before it counts as failed, or {@code null} for no limit
 * @param reorderWindow  entries of the reorder window for {@link OutputOrder#INPUT} with concurrency above 1, a power
 *                       of two; 0 picks {@code ringCapacity}
 * @param publishBatching whether a sync stage's workers publish the results of short tasks once per input run or
 *                       each as soon as it is ready (see {@link PublishBatching})
 * @param cpus           the CPUs the stage's threads are pinned to, or {@code null} to leave them where the scheduler
 *                       puts them (see {@link #withCpus(CpuSet)})
 * @param maxConcurrency 0 for a fixed concurrency; otherwise the most the stage's concurrency may be raised to while
 *                       it runs ({@link Pipeline#concurrency(String)}): the stage starts this many workers (or task
 *                       slots) and lets {@code concurrency} of them work (see {@link #withMaxConcurrency(int)})
 */
public record StageOptions(int concurrency, OutputOrder order, WaitPolicy waitPolicy, int ringCapacity,
                           FailureBudget failureBudget, Duration taskTimeout, int reorderWindow,
                           PublishBatching publishBatching, CpuSet cpus, int maxConcurrency) {

    /**
     * Checks that the references are present; ranges are checked by {@link PipelineBuilder#build()}, which names the
     * stage.
     *
     * @param concurrency   tasks or workers
     * @param order         output order
     * @param waitPolicy    wait policy
     * @param ringCapacity  input ring capacity
     * @param failureBudget failure budget
     * @param taskTimeout   task timeout or {@code null}
     * @param reorderWindow reorder window or 0
     * @param publishBatching publish batching
     * @param cpus          CPUs to pin to, or {@code null}
     * @param maxConcurrency the adjustable concurrency's maximum, or 0
     * @throws NullPointerException if order, waitPolicy, failureBudget or publishBatching is null
     */
    public StageOptions {
        java.util.Objects.requireNonNull(order, "order");
        java.util.Objects.requireNonNull(waitPolicy, "waitPolicy");
        java.util.Objects.requireNonNull(failureBudget, "failureBudget");
        java.util.Objects.requireNonNull(publishBatching, "publishBatching");
    }

    /**
     * {@return one worker, completion order, the default wait policy, ring capacity and publish batching, unlimited
     * failures, unpinned}
     */
    public static StageOptions defaults() {
        return new StageOptions(1, OutputOrder.COMPLETION, EngineConfiguration.DEFAULT_WAIT_POLICY,
                EngineConfiguration.DEFAULT_RING_CAPACITY, FailureBudget.UNLIMITED, null, 0,
                EngineConfiguration.DEFAULT_PUBLISH_BATCHING, null, 0);
    }

    /**
     * {@return a copy with another concurrency}
     *
     * @param n worker threads or tasks in flight, at least 1
     */
    public StageOptions withConcurrency(int n) {
        return new StageOptions(n, order, waitPolicy, ringCapacity, failureBudget, taskTimeout, reorderWindow,
                publishBatching, cpus, maxConcurrency);
    }

    /**
     * {@return a copy with another output order}
     *
     * @param o the order
     */
    public StageOptions withOrder(OutputOrder o) {
        return new StageOptions(concurrency, o, waitPolicy, ringCapacity, failureBudget, taskTimeout, reorderWindow,
                publishBatching, cpus, maxConcurrency);
    }

    /**
     * {@return a copy with another wait policy}
     *
     * @param p the policy
     */
    public StageOptions withWaitPolicy(WaitPolicy p) {
        return new StageOptions(concurrency, order, p, ringCapacity, failureBudget, taskTimeout, reorderWindow,
                publishBatching, cpus, maxConcurrency);
    }

    /**
     * {@return a copy with another input ring capacity}
     *
     * @param slots a power of two
     */
    public StageOptions withRingCapacity(int slots) {
        return new StageOptions(concurrency, order, waitPolicy, slots, failureBudget, taskTimeout, reorderWindow,
                publishBatching, cpus, maxConcurrency);
    }

    /**
     * {@return a copy with another failure budget}
     *
     * @param budget the budget
     */
    public StageOptions withFailureBudget(FailureBudget budget) {
        return new StageOptions(concurrency, order, waitPolicy, ringCapacity, budget, taskTimeout, reorderWindow,
                publishBatching, cpus, maxConcurrency);
    }

    /**
     * {@return a copy with a per-task timeout} A sync task past it is interrupted; its item fails.
     *
     * @param timeout the limit, positive, or {@code null} for none
     */
    public StageOptions withTaskTimeout(Duration timeout) {
        return new StageOptions(concurrency, order, waitPolicy, ringCapacity, failureBudget, timeout, reorderWindow,
                publishBatching, cpus, maxConcurrency);
    }

    /**
     * {@return a copy with another reorder window}
     *
     * @param entries a power of two, or 0 for the ring capacity
     */
    public StageOptions withReorderWindow(int entries) {
        return new StageOptions(concurrency, order, waitPolicy, ringCapacity, failureBudget, taskTimeout, entries,
                publishBatching, cpus, maxConcurrency);
    }

    /**
     * {@return a copy with another publish batching} {@link PublishBatching#PER_ITEM} for a stage whose every result
     * must be visible downstream as soon as its task returns, or whose function waits for the consumer.
     *
     * @param batching the batching
     */
    public StageOptions withPublishBatching(PublishBatching batching) {
        return new StageOptions(concurrency, order, waitPolicy, ringCapacity, failureBudget, taskTimeout,
                reorderWindow, batching, cpus, maxConcurrency);
    }

    /**
     * {@return a copy whose threads pin themselves to these CPUs when they start} For a stage that busy-spins
     * ({@link WaitPolicy#BUSY_SPIN}) on cores reserved for it: pinned, it is not migrated and keeps its caches.
     * Pinning more threads than the set has cores, or onto cores other work uses, is usually slower than leaving the
     * scheduler free. What is pinned: a sync pipe's {@code concurrency} workers (all to the whole set), an async or
     * virtual-thread pipe's dispatcher thread (tasks run on their own threads), aggregate and disaggregate threads.
     * {@link PipelineBuilder#build()} rejects an empty set and CPUs outside this process's affinity mask
     * ({@link org.spdl4j.engine.affinity.ThreadAffinity#problemWith(CpuSet) problemWith}); if the kernel refuses the
     * set when a thread starts (a CPU went offline, or the cpuset shrank), or the platform is not Linux, the threads
     * run unpinned and one warning per stage says why. Unpinned threads inherit the affinity of the thread that
     * started the pipeline.
     *
     * @param set the CPUs, or {@code null} for unpinned
     */
    public StageOptions withCpus(CpuSet set) {
        return new StageOptions(concurrency, order, waitPolicy, ringCapacity, failureBudget, taskTimeout,
                reorderWindow, publishBatching, set, maxConcurrency);
    }

    /**
     * {@return a copy whose concurrency can be changed while the pipeline runs, up to {@code max}} A sync pipe starts
     * {@code max} worker threads and lets {@link #concurrency()} of them claim work; the others park between claims
     * (no claimed item is held while parked) until {@link StageConcurrency#set} raises the limit, the stream ends or
     * the pipeline closes. An async or virtual-thread pipe keeps at most the limit of tasks in flight. Each claim
     * reads the limit once (an opaque load); nothing else on the stage's path changes.
     *
     * @param max the highest concurrency, at least {@code concurrency()} (checked by {@link PipelineBuilder#build()});
     *            0 for a fixed concurrency
     */
    public StageOptions withMaxConcurrency(int max) {
        return new StageOptions(concurrency, order, waitPolicy, ringCapacity, failureBudget, taskTimeout,
                reorderWindow, publishBatching, cpus, max);
    }

    /** {@return the workers (sync pipes) or task slots (async pipes) the stage starts: the maximum if adjustable} */
    public int startedConcurrency() {
        return Math.max(concurrency, maxConcurrency);
    }

    /** {@return whether the stage's concurrency can be changed while it runs} */
    public boolean isAdjustable() {
        return maxConcurrency > 0;
    }

    /** {@return the reorder window actually used} */
    public int effectiveReorderWindow() {
        return reorderWindow == 0 ? ringCapacity : reorderWindow;
    }
}
