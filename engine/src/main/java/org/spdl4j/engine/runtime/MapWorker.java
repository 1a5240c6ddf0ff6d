package org.spdl4j.engine.runtime;

import com.lmax.disruptor.AlertException;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import java.util.function.IntConsumer;
import org.agrona.concurrent.IdleStrategy;
import org.spdl4j.engine.EngineConfiguration;
import org.spdl4j.engine.PublishBatching;
import org.spdl4j.engine.ring.ActiveWorkers;
import org.spdl4j.engine.ring.BatchingPublisher;
import org.spdl4j.engine.ring.BoundedPublisher;
import org.spdl4j.engine.ring.ItemSlots;
import org.spdl4j.engine.ring.ReorderWindow;
import org.spdl4j.engine.ring.RunFlag;
import org.spdl4j.engine.ring.WorkSharingReader;
import org.spdl4j.engine.stats.SampledTaskTimer;
import org.spdl4j.engine.stats.WorkerStats;

/**
 * A worker of a sync pipe: takes an item, runs the stage function on this thread, publishes the result (completion
 * order) or hands it to the stage's {@link ReorderWindow} (input order). A {@code null} result drops the item; a
 * throwing or timed-out task is counted against the stage's budget and drops the item. A result that cannot be
 * published because the pipeline stopped, or that a task returned after its timeout, goes to the {@link Discarder}.
 *
 * <p><b>Publish batching</b> ({@link PublishBatching#SHORT_TASKS}, without a reorder window): the worker decides at
 * the start of each input run (the items {@link WorkSharingReader} hands it from one claim) whether to batch it.
 * It batches when its last timed task was shorter than {@link EngineConfiguration#PUBLISH_BATCH_BELOW_NANOS}:
 * then it writes the run's results straight into the next slots of its output ring when the stage is the ring's only
 * producer ({@link #inPlaceRun}: the worker claims those slots itself), or stages them in a {@link BatchingPublisher}
 * when several workers produce into it, and publishes them as one range when the run is used up, before it may
 * wait for more input, and only then gives the run's input slots back to the producer (so a batch holds no more
 * items in flight than the run held in the ring). Why only for short tasks: a result waits for the rest
 * of its run, which costs a few microseconds when tasks are short and would cost whole task times when they are not
 * (a decode stage taking milliseconds would hold finished images back for the whole run). Slower runs publish each
 * result as soon as it is ready, and give the run's slots back before the last task, as before. The end marker
 * follows every result batched before it. A stop (close, failure, alert) leaves staged results to the discarder
 * and results in claimed, unpublished slots to the close-time sweep of the ring: once each.
 *
 * <p>Task times are sampled for short tasks ({@link SampledTaskTimer}); the worker settles the counts whenever its
 * input run is used up (before it may wait) and when it leaves.
 *
 * <p><b>Allocation:</b> none per item on this path (the function may allocate; a failure allocates its log message).
 */
final class MapWorker extends StageWorker {
    private final WorkSharingReader in;
    private final BoundedPublisher out;
    private final boolean batching; // publish batching for short tasks (never with a reorder window)
    private final boolean inPlace; // batching into a ring this worker alone produces into: inPlaceRun
    private final BatchingPublisher batch; // batching into a ring of several producers: staged; null otherwise
    private final Function<Object, ?> fn;
    private final ReorderWindow window;
    private final IdleStrategy idle;
    private final StageFailures failures;
    private final TaskTimeoutGuard guard;
    private final EndOfStream end;
    private final Discarder discarder;
    /** The stage's adjustable limit when this worker may park (index 1 and up), else {@code null}. */
    private final ActiveWorkers active;
    /** The stage's adjustable limit (every worker, for the end-of-stream handshake), or {@code null} when fixed. */
    private final ActiveWorkers stageLimit;
    private final SampledTaskTimer timer;
    private final IntConsumer itemsOut; // told of each result a reorder-window drain of this worker publishes
    /** Why the task that last returned {@link #FAILED} failed; taken by {@link #failed}. */
    private Exception failure;

    MapWorker(PipelineControl control, String stage, int index, WorkerStats stats, WorkSharingReader in,
              BoundedPublisher out, int batchMax, Function<Object, ?> fn, ReorderWindow window,
              IdleStrategy idle, StageFailures failures, TaskTimeoutGuard guard, EndOfStream end,
              Discarder discarder, ActiveWorkers active) {
        super(control, stage, index, stats);
        this.active = index > 0 ? active : null;
        this.stageLimit = active; // worker 0 never parks: it gates the ring while others are parked
        if (batchMax > 0 && window != null) {
            throw new IllegalArgumentException("a reorder window publishes per item; no publish batch with it");
        }
        this.in = in;
        this.out = out;
        in.reportWaitsTo(stats); // waits for input and for room are reported by the reader and publisher themselves,
        out.reportWaitsTo(stats); // while they last (so none is recorded here after the fact)
        this.batching = batchMax > 0;
        this.inPlace = batching && out.ownsClaims();
        // Several producers claim by CAS: results are staged and claimed as one range (counted out as they go).
        this.batch = batching && !inPlace ? new BatchingPublisher(out, batchMax, stats::onItemsOut) : null;
        this.fn = fn;
        this.window = window;
        this.idle = idle;
        this.failures = failures;
        this.guard = guard;
        this.end = end;
        this.discarder = discarder;
        // A timeout guard needs every task's start time, so such stages time every task.
        this.timer = guard == null ? new SampledTaskTimer(stats) : SampledTaskTimer.everyTask(stats);
        // Allocated once, here, not per drain. A drain may go on for long in front of a slow consumer: each result
        // counts as output as it goes out (the publisher reports its waits for room itself).
        this.itemsOut = stats::onItemsOut;
    }

    @Override
    void work() throws AlertException, InterruptedException {
        if (guard != null) {
            guard.bind(Thread.currentThread());
        }
        RunFlag running = control.running();
        ReportedFailures.bind(failures, stats); // once per worker thread: failures a task reports without throwing
        try {
            loop(running);
        } finally {
            ReportedFailures.unbind();
            timer.settle(); // closed or failed mid-run: still count every task that ran
            if (batch != null) {
                batch.discardStaged(discarder::discard); // stopped mid-run: results nobody will publish
            }
        }
    }

    private void loop(RunFlag running) throws AlertException, InterruptedException {
        for (;;) {
            if (!in.hasRunLeft()) {
                timer.settle(); // the next claim may wait: make the counts exact first
                // Between claims only (no item held): one opaque load of the limit per claim.
                if (active != null && index >= active.limit() && !in.parkWhileInactive(active, index, running)) {
                    return;
                }
                if (batching && timer.lastTimedNanos() < EngineConfiguration.PUBLISH_BATCH_BELOW_NANOS) {
                    long end = inPlace ? inPlaceRun(running) : batchedRun(running);
                    if (end == STOPPED) {
                        return;
                    }
                    if (end >= 0) {
                        endReached(end, running);
                        return;
                    }
                    continue;
                }
            }
            long seq = in.next();
            if (in.isEnd()) {
                endReached(seq, running);
                return;
            }
            long epoch = in.epoch();
            Object item = in.take();
            in.release(); // the run's slots go back once its last item was taken, before that item's task
            stats.onItemIn();
            Object result = apply(item);
            if (result == FAILED) {
                result = failed(item);
            }
            if (window == null) {
                if (result != null) {
                    if (!out.publish(result, epoch)) {
                        discarder.discard(result);
                        return;
                    }
                    stats.onItemOut();
                }
            } else {
                int stored = window.put(seq, result, epoch, out, idle, running, itemsOut, stats);
                if (stored != ReorderWindow.STORED) {
                    if (stored == ReorderWindow.STOPPED_NOT_STORED) {
                        discarder.discard(result);
                    }
                    return;
                }
            }
        }
    }

    /** {@link #batchedRun} stopped: the pipeline stopped (what is left goes to the discarder and the sweep). */
    private static final long STOPPED = -2L;
    /** {@link #batchedRun} used up its run. */
    private static final long RUN_DONE = -1L;
    /** What {@link #apply} and {@link #callUntimed} give for a failed task: never a result. */
    private static final Object FAILED = new Object();

    /**
     * One input run with publish batching, walked as a whole: each item is taken, its task run and its result
     * written into a claimed output slot; the results are published as one range when the run is used up, and only
     * then the run's input slots go back. What is kept per item is what a task needs (its slot, its epoch, the
     * sampled timer, the interrupt check); the items-in count, the starved and back-pressure clocks, the input
     * release and the publication are per run.
     *
     * @return {@link #RUN_DONE}, {@link #STOPPED}, or the sequence of the end marker met (the results before it
     *         published already)
     */
    private long batchedRun(RunFlag running) throws AlertException, InterruptedException {
        long first = in.claimRun();
        long last = in.runEnd();
        int taken = 0;
        try {
            for (long s = first; s <= last; s++) {
                Object item = in.takeInRun(s);
                if (item == null) { // the end marker: what was batched before it goes first
                    in.moveTo(s);
                    stats.onItemsIn(taken); // counted in before they count out
                    taken = 0;
                    return flush() ? s : STOPPED;
                }
                taken++;
                long epoch = in.epochInRun(s);
                Object result = apply(item);
                if (result == FAILED) {
                    stats.onItemsIn(taken); // a fractional failure budget is judged by every item taken
                    taken = 0;
                    result = failed(item);
                }
                if (result != null && !batch.add(result, epoch)) {
                    discarder.discard(result);
                    return STOPPED; // the run's untaken items stay in the ring for close's sweep
                }
                if (!running.isRunning()) { // a volatile read: a close need not wait for the rest of the run
                    return STOPPED;
                }
            }
        } finally {
            stats.onItemsIn(taken);
        }
        if (!flush()) {
            return STOPPED;
        }
        in.finishRun(); // the run's slots go back once its results are published
        return RUN_DONE;
    }

    /**
     * {@link #batchedRun} for a worker that is its output ring's only producer, with the loop's state in locals: the
     * input and output slots, the output claim counter and its cached limit ({@link BoundedPublisher#ownsClaims}),
     * and the sampled timer's untimed budget. Most of a run is a call-free stretch: while tasks are untimed, items
     * are of epoch 0 and claimed room is left, per item only the load of the item, the call, the interrupt and
     * run-flag checks and the store of the result, the counts once per stretch (in a {@code finally}, so an
     * {@code Error} escaping the function still counts what was taken). A timed task, an epoch, the end marker or a
     * full claim takes one step of the general loop. The results are published as one range at the end of the run
     * (or before waiting for room, or at the end marker); the run's input slots then go back at once.
     */
    private long inPlaceRun(RunFlag running) throws AlertException, InterruptedException {
        long first = in.claimRun();
        long last = in.runEnd();
        ItemSlots src = in.runSlots();
        ItemSlots dst = out.slots();
        // The loop's state in locals: its volatile loads (run flag, interrupt flag) would otherwise make it reload
        // every field on the way to an array (this.in, slots, array, mask) once per item.
        Object[] srcRefs = src.refs();
        int srcMask = src.mask();
        Object[] dstRefs = dst.refs();
        int dstMask = dst.mask();
        Function<Object, ?> fn = this.fn;
        PipelineControl control = this.control;
        long o = out.claimedTo(); // the last output sequence written
        long published = o;       // the last one published
        long limit = out.claimLimit();
        boolean epochs = src.epochsWritten(); // false: every item of the run is of epoch 0 (a finite source)
        // Epoch 0 in, and no epoch ever written out (this worker is the output's only producer): references only.
        boolean refsOnly = !epochs && !dst.epochsWritten();
        int budget = timer.untimedBudget();
        int untimed = 0;
        int taken = 0;
        long s = first;
        try {
            while (s <= last) {
                if (refsOnly && budget > 0 && o < limit) {
                    // The common stretch: untimed tasks of epoch 0 into slots claimed already. Per item only the
                    // load, the call, the interrupt and run-flag checks and the store; the counts once per stretch.
                    long stop = Math.min(last, s + Math.min(budget, limit - o) - 1);
                    long from = s;   // the stretch's first item not counted yet
                    long upTo = s;   // past the last item taken: an Error escaping the call still counts it
                    boolean stopped = false;
                    try {
                        for (; s <= stop; s++) {
                            int si = ItemSlots.refIndex(s, srcMask);
                            Object item = srcRefs[si];
                            if (ItemSlots.isEndMarker(item)) {
                                break; // the general step below takes it
                            }
                            srcRefs[si] = null; // taken: the collector may reclaim it while the slot waits for reuse
                            upTo = s + 1;
                            Object result = callUntimed(fn, item);
                            control.clearTaskInterrupt();
                            if (result == FAILED) {
                                int n = (int) (upTo - from); // a fractional budget is judged by every item taken
                                from = upTo;
                                budget -= n;
                                untimed += n;
                                stats.onItemsIn(taken + n);
                                taken = 0;
                                result = failed(item);
                            }
                            if (result != null) {
                                dstRefs[ItemSlots.refIndex(++o, dstMask)] = result;
                            }
                            if (!running.isRunning()) { // a close need not wait for the rest of the run
                                stopped = true;
                                s++;
                                break;
                            }
                        }
                    } finally {
                        int n = (int) (upTo - from);
                        budget -= n;
                        untimed += n;
                        taken += n;
                    }
                    if (stopped) {
                        return STOPPED; // written, unpublished results and untaken items stay for close's sweep
                    }
                    if (s > stop) {
                        continue;
                    }
                }
                // One item the general way: an end marker, a timed task, epochs, or the claimed room used up.
                Object item = src.takeUnlessEnd(s);
                if (item == null) { // the end marker: what was written before it goes first
                    in.moveTo(s);
                    stats.onItemsIn(taken); // counted in before they count out
                    taken = 0;
                    publishWritten(out, published, o);
                    published = o;
                    return s;
                }
                taken++;
                long epoch = epochs ? src.epoch(s) : 0L;
                Object result;
                if (budget > 0) {
                    budget--;
                    untimed++;
                    result = callUntimed(fn, item);
                    control.clearTaskInterrupt();
                } else {
                    timer.addUntimed(untimed);
                    untimed = 0;
                    result = apply(item);
                    budget = timer.untimedBudget();
                }
                if (result == FAILED) {
                    stats.onItemsIn(taken); // a fractional failure budget is judged by every item taken
                    taken = 0;
                    result = failed(item);
                }
                if (result != null) {
                    if (o == limit && o == (limit = out.refreshClaimLimit())) {
                        stats.onItemsIn(taken); // counted in before they count out
                        taken = 0;
                        long seq = publishAndAwaitRoom(out, published, o); // full: publish, then wait for room
                        published = o;
                        if (seq < 0) {
                            discarder.discard(result);
                            return STOPPED;
                        }
                        limit = out.claimLimit();
                        o = seq - 1;
                    }
                    dst.set(++o, result, epoch);
                }
                s++;
                if (!running.isRunning()) { // a close need not wait for the rest of the run
                    return STOPPED; // written, unpublished results and untaken items stay for close's sweep
                }
            }
        } finally {
            out.claimedThrough(o);
            stats.onItemsIn(taken);
            timer.addUntimed(untimed);
        }
        publishWritten(out, published, o);
        in.finishRun();
        return RUN_DONE;
    }

    /**
     * A task the sampled timer leaves untimed (never with a timeout guard: such stages time every task). The function
     * comes in as the caller's local, so a run loop's call reads no field.
     *
     * @return the result, or {@link #FAILED} with the cause in {@link #failure}
     */
    private Object callUntimed(Function<Object, ?> fn, Object item) {
        try {
            return fn.apply(item);
        } catch (Exception e) {
            failure = e;
            return FAILED;
        }
    }

    /**
     * Counts the failure of the task that returned {@link #FAILED} against the stage's budget. The caller first
     * counts every item it took (a run loop counts its items in once per run): a fractional budget is judged by
     * the failures among the items taken, so an item left out would make the fraction too high.
     *
     * @return {@code null}: a failed task's item is dropped
     */
    private Object failed(Object item) {
        Exception cause = failure;
        failure = null;
        failures.onFailure(stats, item, cause);
        return null;
    }

    /** The end marker at {@code seq} was taken: publish what is staged, let the slot go, end the stage's part. */
    private void endReached(long seq, RunFlag running) {
        if (!flush()) { // the results staged before the end marker go first
            return;
        }
        if (stageLimit != null) {
            stageLimit.openForEnd(running); // parked workers rejoin before this one stops gating the end markers
        }
        in.releaseAndRetire();
        timer.settle();
        finish(seq, running);
    }

    /** Publishes the staged results; {@code false} if the pipeline stopped (work() discards what is left). */
    private boolean flush() {
        if (batch == null) {
            return true;
        }
        batch.flush(); // counted in items out range by range as it publishes (the constructor's callback)
        return batch.isEmpty();
    }

    /**
     * A task, timed by the sampled timer (every task with a timeout guard).
     *
     * @return the result, or {@link #FAILED} when it threw or ran past its timeout (the cause is left for
     *         {@link #failed})
     */
    private Object apply(Object item) {
        long start = timer.start(); // 0 when this task is not timed (never with a guard)
        if (guard != null) {
            guard.begin(start, item);
        }
        if (start != 0) {
            stats.taskStarted(item, start); // what a consumer's timeout names as running now
        }
        Object result;
        Exception error = null;
        try {
            result = fn.apply(item);
        } catch (Exception e) {
            result = null;
            error = e;
        }
        if (start != 0) {
            stats.taskEnded();
        }
        boolean inTime = guard == null || guard.end();
        timer.stop(start);
        clearTaskInterrupt();
        if (!inTime) {
            discarder.discard(result); // returned (not thrown) after the deadline: nobody will take it
            failure = new TimeoutException("stage '" + stage + "': the task on " + StageFailures.describe(item)
                    + " ran longer than its timeout of " + guard.timeoutNanos() / 1_000_000 + " ms and was interrupted");
            return FAILED;
        }
        if (error != null) {
            failure = error;
            return FAILED;
        }
        return result;
    }

    private void finish(long endSequence, RunFlag running) {
        if (window != null
                && window.put(endSequence, null, 0, out, idle, running, itemsOut, stats) != ReorderWindow.STORED) {
            return;
        }
        if (end.workerFinished()) {
            if (window != null && !window.drain(out, running, itemsOut)) {
                return; // stopped while publishing: what is left stays in the window for close's sweep
            }
            end.propagate(out);
        }
    }
}
