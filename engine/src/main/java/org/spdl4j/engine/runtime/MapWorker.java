package org.spdl4j.engine.runtime;

import com.lmax.disruptor.AlertException;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import org.agrona.concurrent.IdleStrategy;
import org.spdl4j.engine.ring.BoundedPublisher;
import org.spdl4j.engine.ring.ItemSlot;
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
 * <p>Task times are sampled for short tasks ({@link SampledTaskTimer}); the worker settles the counts whenever its
 * input run is used up (before it may wait) and when it leaves.
 *
 * <p><b>Allocation:</b> none per item on this path (the function may allocate; a failure allocates its log message).
 */
final class MapWorker extends StageWorker {
    private final WorkSharingReader in;
    private final BoundedPublisher out;
    private final Function<Object, ?> fn;
    private final ReorderWindow window;
    private final IdleStrategy idle;
    private final StageFailures failures;
    private final TaskTimeoutGuard guard;
    private final EndOfStream end;
    private final Discarder discarder;
    private final SampledTaskTimer timer;

    MapWorker(PipelineControl control, String stage, int index, WorkerStats stats, WorkSharingReader in,
              BoundedPublisher out, Function<Object, ?> fn, ReorderWindow window, IdleStrategy idle,
              StageFailures failures, TaskTimeoutGuard guard, EndOfStream end, Discarder discarder) {
        super(control, stage, index, stats);
        this.in = in;
        this.out = out;
        this.fn = fn;
        this.window = window;
        this.idle = idle;
        this.failures = failures;
        this.guard = guard;
        this.end = end;
        this.discarder = discarder;
        // A timeout guard needs every task's start time, so such stages time every task.
        this.timer = guard == null ? new SampledTaskTimer(stats) : SampledTaskTimer.everyTask(stats);
    }

    @Override
    void work() throws AlertException, InterruptedException {
        if (guard != null) {
            guard.bind(Thread.currentThread());
        }
        RunFlag running = control.running();
        try {
            loop(running);
        } finally {
            timer.settle(); // closed or failed mid-run: still count every task that ran
        }
    }

    private void loop(RunFlag running) throws AlertException, InterruptedException {
        for (;;) {
            if (!in.hasRunLeft()) {
                timer.settle(); // the next claim may wait: make the counts exact first
            }
            ItemSlot slot = in.next();
            recordStarved(in.lastWaitNanos());
            long seq = in.sequence();
            if (slot.isEnd()) {
                in.releaseAndRetire();
                timer.settle();
                finish(seq, running);
                return;
            }
            long epoch = slot.epoch();
            Object item = slot.take();
            in.release();
            stats.onItemIn();
            Object result = apply(item);
            if (window == null) {
                if (result != null) {
                    if (!out.publish(result, epoch)) {
                        discarder.discard(result);
                        return;
                    }
                    stats.onItemOut();
                }
            } else {
                int published = window.put(seq, result, epoch, out, idle, running);
                if (published < 0) {
                    if (published == ReorderWindow.STOPPED_NOT_STORED) {
                        discarder.discard(result);
                    }
                    return;
                }
                for (int i = 0; i < published; i++) {
                    stats.onItemOut();
                }
            }
            recordBackPressure(out.takeWaitNanos());
        }
    }

    private Object apply(Object item) {
        long start = timer.start(); // 0 when this task is not timed (never with a guard)
        if (guard != null) {
            guard.begin(start);
        }
        Object result;
        Exception error = null;
        try {
            result = fn.apply(item);
        } catch (Exception e) {
            result = null;
            error = e;
        }
        boolean inTime = guard == null || guard.end();
        timer.stop(start);
        if (!inTime) {
            discarder.discard(result); // returned (not thrown) after the deadline: nobody will take it
            failures.onFailure(stats, item, new TimeoutException("task ran longer than its timeout of "
                    + guard.timeoutNanos() / 1_000_000 + " ms and was interrupted"));
            return null;
        }
        if (error != null) {
            failures.onFailure(stats, item, error);
            return null;
        }
        return result;
    }

    private void finish(long endSequence, RunFlag running) {
        if (window != null && window.put(endSequence, null, 0, out, idle, running) < 0) {
            return;
        }
        if (end.workerFinished()) {
            if (window != null) {
                int published = window.drain(out, running);
                for (int i = 0; i < published; i++) {
                    stats.onItemOut();
                }
            }
            end.propagate(out);
        }
    }
}
