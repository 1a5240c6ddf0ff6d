package org.spdl4j.engine.runtime;

import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import org.agrona.concurrent.IdleStrategy;
import org.spdl4j.engine.OutputOrder;
import org.spdl4j.engine.ring.ActiveWorkers;
import org.spdl4j.engine.ring.BoundedPublisher;
import org.spdl4j.engine.ring.SingleConsumerPoller;
import org.spdl4j.engine.stats.SampledTaskTimer;
import org.spdl4j.engine.stats.StatsConfiguration;
import org.spdl4j.engine.stats.WaitKind;
import org.spdl4j.engine.stats.WorkerStats;

/**
 * The single thread of an async or virtual-thread pipe: keeps up to {@code concurrency} tasks in flight, starting a
 * task whenever an entry is free and input is ready, and publishing finished tasks in completion or input order.
 * Completions wake it (unpark); between them it idles by the stage's wait policy.
 *
 * <p>Async pipes call the function here and attach a completion callback to the returned {@link CompletionStage}.
 * Virtual-thread pipes run the blocking function on a new virtual thread per task. <b>Allocation:</b> both allocate
 * per item by nature (the callback or the virtual thread and its runnable); the links and entries do not.
 * Task time in the stats is from start to completion as seen by the dispatcher. The time an async pipe's function
 * runs on this thread (before it returns its stage) is also busy time of every slot left idle meanwhile.
 *
 * <p><b>Stop:</b> a result that cannot be published because the pipeline stopped goes to the {@link Discarder};
 * after the thread ends, {@link #abandonInFlight()} hands over finished results and makes still-running tasks discard
 * theirs when they complete.
 */
final class AsyncDispatcher extends StageWorker {
    /**
     * The pipeline whose virtual-thread task the current thread runs, bound for the whole task (its function, and the
     * discard of its result or item): a {@code close()} of that pipeline from there must not wait for its own thread.
     */
    private static final ScopedValue<PipelineControl> TASK_OF = ScopedValue.newInstance();
    private final SingleConsumerPoller in;
    private final BoundedPublisher out;
    private final Function<Object, ?> fn;
    private final ExecutorService virtualThreads; // null for CompletionStage pipes
    private final boolean inputOrder;
    private final IdleStrategy idle;
    private final StageFailures failures;
    private final long timeoutNanos;
    private final EndOfStream end;
    private final int concurrency;
    /** The adjustable limit of tasks in flight (at most {@link #concurrency}), or {@code null} when fixed. */
    private final ActiveWorkers active;
    private final Discarder discarder;
    private AsyncTaskEntry[] entries;
    private int[] freeStack;
    private int freeCount;
    private long started;
    private long published;
    private int inFlight;
    /** The last measured synchronous part of the function (see {@link #chargeSynchronousPart}), ns. */
    private long lastSyncNanos = Long.MAX_VALUE;
    /** Tasks started since the synchronous part was last measured. */
    private int syncUnmeasured;

    AsyncDispatcher(PipelineControl control, String stage, WorkerStats stats, SingleConsumerPoller in,
                    BoundedPublisher out, Function<Object, ?> fn, ExecutorService virtualThreads, OutputOrder order,
                    int concurrency, IdleStrategy idle, StageFailures failures, long timeoutNanos, EndOfStream end,
                    Discarder discarder, ActiveWorkers active) {
        super(control, stage, 0, stats);
        this.active = active;
        this.in = in;
        this.out = out;
        out.reportWaitsTo(stats); // weighed by the idle slots (finishTask), reported while they last
        this.fn = fn;
        this.virtualThreads = virtualThreads;
        this.inputOrder = order == OutputOrder.INPUT;
        this.concurrency = concurrency;
        this.idle = idle;
        this.failures = failures;
        this.timeoutNanos = timeoutNanos;
        this.end = end;
        this.discarder = discarder;
    }

    @Override
    void work() {
        entries = new AsyncTaskEntry[concurrency]; // once per run, on this thread (completions unpark it)
        freeStack = new int[concurrency];
        for (int i = 0; i < concurrency; i++) {
            entries[i] = new AsyncTaskEntry(Thread.currentThread(), discarder);
            freeStack[i] = concurrency - 1 - i;
        }
        freeCount = concurrency;
        boolean inputEnded = false;
        while (control.running().isRunning()) {
            boolean progress = publishDone();
            if (timeoutNanos > 0) {
                expireOverdue(System.nanoTime());
            }
            boolean waitingForInput = false; // a task slot is free and the input is empty
            if (!inputEnded && hasFreeEntry()) {
                if (in.poll()) {
                    progress = true;
                    if (in.isEnd()) {
                        in.release();
                        inputEnded = true;
                    } else {
                        long epoch = in.epoch();
                        Object item = in.take();
                        in.release();
                        stats.onItemIn();
                        startTask(item, epoch);
                    }
                } else {
                    waitingForInput = true;
                }
            }
            if (inputEnded && inFlight == 0) {
                if (end.workerFinished()) {
                    end.propagate(out);
                }
                return;
            }
            // The stage's shares are per task slot (PipelineStats divides by the concurrency), and this one thread
            // waits for all of them: a wait counts once for every slot it leaves idle (back-pressure: in finishTask,
            // at each publish). Reported while it lasts, so a long idle turn shows in the intervals it spans.
            if (progress) {
                idle.reset();
            } else if (waitingForInput) {
                stats.waitStarted(WaitKind.STARVED, System.nanoTime(), Math.max(0, slots() - inFlight));
                try {
                    idle.idle();
                } finally {
                    stats.waitEnded(System.nanoTime());
                }
            } else {
                idle.idle();
            }
        }
    }

    /**
     * {@return the task slots that count now: the adjustable limit (an opaque load, per wait or start, never per
     * item of a run), or the fixed concurrency} Slots past the limit are idle by choice, not starved.
     */
    private int slots() {
        return active == null ? concurrency : active.limit();
    }

    private boolean hasFreeEntry() {
        if (active != null && inFlight >= active.limit()) { // one opaque load per start: the adjustable limit
            return false;
        }
        return inputOrder ? inFlight < concurrency && entries[(int) (started % concurrency)].phase()
                == AsyncTaskEntry.FREE : freeCount > 0;
    }

    private void startTask(Object item, long epoch) {
        AsyncTaskEntry e = inputOrder ? entries[(int) (started % concurrency)] : entries[freeStack[--freeCount]];
        long startNanos = System.nanoTime();
        int gen = e.start(item, epoch, started++, startNanos);
        inFlight++;
        if (virtualThreads != null) {
            try {
                // a virtual thread per task, by nature; it knows whose task it runs (see isVirtualTaskOf)
                virtualThreads.execute(() -> ScopedValue.where(TASK_OF, control).run(() -> runBlocking(e, gen, item)));
            } catch (RejectedExecutionException closing) { // close() shut the executor after our running check
                e.complete(gen, null, closing);
                discarder.discard(item); // the function never saw it: the engine still owns it
            }
            return;
        }
        try {
            CompletionStage<?> stage = (CompletionStage<?>) fn.apply(item);
            if (stage == null) {
                e.complete(gen, null, null);
            } else {
                stage.whenComplete((value, failure) -> e.complete(gen, value, failure));
            }
        } catch (Exception ex) {
            e.complete(gen, null, ex);
        }
        clearTaskInterrupt(); // the function started its task on this (the dispatcher's) thread
        int idleSlots = Math.max(0, slots() - inFlight);
        if (idleSlots > 0) {
            chargeSynchronousPart(startNanos, idleSlots);
        }
    }

    /**
     * The function's synchronous part ran on this thread: meanwhile no idle slot could start a task. Its own slot
     * has it in its task time; the idle ones are busy with it too, so a stage bound by that part (a request built,
     * or a {@code completedFuture(decode(x))} computed here) shows busy, not idle at 1/concurrency. Measured like
     * {@link SampledTaskTimer}'s tasks, with its settings: every time while the last measured part took
     * {@link StatsConfiguration#TIMING_SAMPLE_BELOW_NANOS} or more, else one task in
     * {@link StatsConfiguration#TIMING_SAMPLE_PERIOD}, charged for the tasks it stands for, so a stage of cheap async calls pays no second clock read per item.
     */
    private void chargeSynchronousPart(long startNanos, int idleSlots) {
        syncUnmeasured++;
        if (lastSyncNanos < StatsConfiguration.TIMING_SAMPLE_BELOW_NANOS
                && syncUnmeasured < StatsConfiguration.TIMING_SAMPLE_PERIOD) {
            return;
        }
        lastSyncNanos = System.nanoTime() - startNanos;
        stats.onBusy(lastSyncNanos * idleSlots * syncUnmeasured);
        syncUnmeasured = 0;
    }

    /**
     * {@return whether the calling thread runs a virtual-thread task of the pipeline {@code control} controls} Set
     * for the task's whole run, whatever the thread's name; not for threads the task starts.
     *
     * @param control the pipeline's control
     */
    static boolean isVirtualTaskOf(PipelineControl control) {
        return TASK_OF.isBound() && TASK_OF.get() == control;
    }

    private void runBlocking(AsyncTaskEntry e, int gen, Object item) {
        if (!e.bindRunner(gen, Thread.currentThread())) {
            discarder.discard(item); // timed out or abandoned before this thread started: the function never saw it
            return;
        }
        try {
            e.complete(gen, fn.apply(item), null);
        } catch (Exception ex) {
            e.complete(gen, null, ex);
        } catch (Throwable t) {
            // An Error (an assertion, a stack overflow, out of memory in a decoder) fails the pipeline, as it does in
            // a sync stage's worker. The pipeline fails first: completed first, the entry could be counted as an
            // ordinary failure within the budget and the stream end before the failure is set. The entry is
            // completed all the same: left running, it would hold the dispatcher (and with INPUT order every later
            // result) forever.
            if (control.running().isRunning()) {
                control.fail(stage, "a task of stage '" + stage + "' died on a virtual thread: " + t
                        + ". This is an error in a stage function (an Error)", t);
            }
            e.complete(gen, null, t);
        }
    }

    private boolean publishDone() {
        boolean progress = false;
        if (inputOrder) {
            while (inFlight > 0) {
                AsyncTaskEntry e = entries[(int) (published % concurrency)];
                if (e.phase() != AsyncTaskEntry.DONE) {
                    break;
                }
                finishTask(e);
                published++;
                progress = true;
            }
            return progress;
        }
        for (int i = 0; i < concurrency && inFlight > 0; i++) {
            AsyncTaskEntry e = entries[i];
            if (e.phase() == AsyncTaskEntry.DONE) {
                finishTask(e);
                freeStack[freeCount++] = i;
                progress = true;
            }
        }
        return progress;
    }

    private void finishTask(AsyncTaskEntry e) {
        // The task's own time: with INPUT order a fast task may be published long after it completed, behind a slow
        // one, and the dispatcher may be parked or back-pressured when it publishes; neither is the task's.
        stats.onTask(e.completedNanos - e.startedNanos);
        inFlight--;
        Object result = e.result;
        Throwable error = e.error;
        Object item = e.item;
        long epoch = e.epoch;
        e.free();
        if (error != null) {
            failures.onFailure(stats, item, error);
        } else if (result != null) {
            // While this publish waits for room, no free slot can take a task, and the slot of the result being
            // published is held: the publisher reports the wait, while it lasts, weighted by the slots idle during
            // it (tasks still running are busy).
            out.weighWaits(Math.max(0, slots() - inFlight));
            boolean published = out.publish(result, epoch);
            long blocked = out.takeWaitNanos();
            if (blocked > 0) {
                // Slots whose task finished before or during the wait hold a result that waits for this one to get
                // out: back-pressured too, from when they finished (known only now, so added after the fact).
                long now = System.nanoTime();
                recordBackPressure(heldDuring(now - blocked, now));
            }
            if (published) {
                stats.onItemOut();
            } else {
                discarder.discard(result);
            }
        }
    }

    /**
     * The slot time, between {@code from} and {@code to}, of the entries now holding a finished task's result that
     * is not published yet. Scans every entry: only after a publish that waited for room (the stage then keeps
     * pace with its consumer, not with this loop), never per item otherwise.
     */
    private long heldDuring(long from, long to) {
        long held = 0;
        // Only entries in flight can hold a result, and there are exactly inFlight of them: stop once all were seen
        // (with few tasks in flight, as behind a fast consumer, that is a few reads, not the whole table).
        int left = inFlight;
        for (int i = 0; i < entries.length && left > 0; i++) {
            int phase = entries[i].phase(); // acquire: completedNanos is visible once DONE
            if (phase == AsyncTaskEntry.FREE) {
                continue;
            }
            left--;
            if (phase == AsyncTaskEntry.DONE) {
                held += to - Math.max(from, Math.min(entries[i].completedNanos, to));
            }
        }
        return held;
    }

    /**
     * Called by the closing thread after this dispatcher's thread has ended (the join orders its writes before):
     * abandons every task entry, so no result is lost.
     */
    void abandonInFlight() {
        AsyncTaskEntry[] all = entries;
        if (all == null) {
            return; // never ran
        }
        for (AsyncTaskEntry e : all) {
            e.abandon();
        }
    }

    private void expireOverdue(long now) {
        for (AsyncTaskEntry e : entries) {
            if (e.phase() == AsyncTaskEntry.RUNNING && now - e.startedNanos > timeoutNanos) {
                e.complete(e.generation, null, new TimeoutException("stage '" + stage + "': the task on "
                        + StageFailures.describe(e.item) + " ran longer than its timeout of " + timeoutNanos / 1_000_000
                        + " ms and was abandoned"));
                Thread runner = e.runner(); // after completing: see AsyncTaskEntry.bindRunner
                if (runner != null) {
                    runner.interrupt();
                }
            }
        }
    }
}
