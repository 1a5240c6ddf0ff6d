package org.spdl4j.engine;

import java.time.Duration;

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
 */
public record StageOptions(int concurrency, OutputOrder order, WaitPolicy waitPolicy, int ringCapacity,
                           FailureBudget failureBudget, Duration taskTimeout, int reorderWindow,
                           PublishBatching publishBatching) {

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
     * failures}
     */
    public static StageOptions defaults() {
        return new StageOptions(1, OutputOrder.COMPLETION, EngineConfiguration.DEFAULT_WAIT_POLICY,
                EngineConfiguration.DEFAULT_RING_CAPACITY, FailureBudget.UNLIMITED, null, 0,
                EngineConfiguration.DEFAULT_PUBLISH_BATCHING);
    }

    /**
     * {@return a copy with another concurrency}
     *
     * @param n worker threads or tasks in flight, at least 1
     */
    public StageOptions withConcurrency(int n) {
        return new StageOptions(n, order, waitPolicy, ringCapacity, failureBudget, taskTimeout, reorderWindow,
                publishBatching);
    }

    /**
     * {@return a copy with another output order}
     *
     * @param o the order
     */
    public StageOptions withOrder(OutputOrder o) {
        return new StageOptions(concurrency, o, waitPolicy, ringCapacity, failureBudget, taskTimeout, reorderWindow,
                publishBatching);
    }

    /**
     * {@return a copy with another wait policy}
     *
     * @param p the policy
     */
    public StageOptions withWaitPolicy(WaitPolicy p) {
        return new StageOptions(concurrency, order, p, ringCapacity, failureBudget, taskTimeout, reorderWindow,
                publishBatching);
    }

    /**
     * {@return a copy with another input ring capacity}
     *
     * @param slots a power of two
     */
    public StageOptions withRingCapacity(int slots) {
        return new StageOptions(concurrency, order, waitPolicy, slots, failureBudget, taskTimeout, reorderWindow,
                publishBatching);
    }

    /**
     * {@return a copy with another failure budget}
     *
     * @param budget the budget
     */
    public StageOptions withFailureBudget(FailureBudget budget) {
        return new StageOptions(concurrency, order, waitPolicy, ringCapacity, budget, taskTimeout, reorderWindow,
                publishBatching);
    }

    /**
     * {@return a copy with a per-task timeout} A sync task past it is interrupted; its item fails.
     *
     * @param timeout the limit, positive, or {@code null} for none
     */
    public StageOptions withTaskTimeout(Duration timeout) {
        return new StageOptions(concurrency, order, waitPolicy, ringCapacity, failureBudget, timeout, reorderWindow,
                publishBatching);
    }

    /**
     * {@return a copy with another reorder window}
     *
     * @param entries a power of two, or 0 for the ring capacity
     */
    public StageOptions withReorderWindow(int entries) {
        return new StageOptions(concurrency, order, waitPolicy, ringCapacity, failureBudget, taskTimeout, entries,
                publishBatching);
    }

    /**
     * {@return a copy with another publish batching} {@link PublishBatching#PER_ITEM} for a stage whose every result
     * must be visible downstream as soon as its task returns, or whose function waits for the consumer.
     *
     * @param batching the batching
     */
    public StageOptions withPublishBatching(PublishBatching batching) {
        return new StageOptions(concurrency, order, waitPolicy, ringCapacity, failureBudget, taskTimeout,
                reorderWindow, batching);
    }

    /** {@return the reorder window actually used} */
    public int effectiveReorderWindow() {
        return reorderWindow == 0 ? ringCapacity : reorderWindow;
    }
}
