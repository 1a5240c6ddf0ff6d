package org.spdl4j.engine.runtime;

import com.lmax.disruptor.AlertException;
import java.util.Iterator;
import java.util.List;
import java.util.RandomAccess;
import org.spdl4j.engine.ring.BoundedPublisher;
import org.spdl4j.engine.ring.WorkSharingReader;
import org.spdl4j.engine.stats.WorkerStats;

/**
 * The single worker of a disaggregate stage: publishes each element of an {@link Iterable} item, in order, with the
 * item's epoch; {@code null} elements are skipped. Random-access lists are walked by index (no iterator allocated);
 * other iterables allocate their iterator. An item that is not an {@link Iterable} counts as a failed task. When the
 * pipeline stops part-way through an item, its unpublished elements go to the {@link Discarder}.
 */
final class DisaggregateWorker extends StageWorker {
    private final WorkSharingReader in;
    private final BoundedPublisher out;
    private final StageFailures failures;
    private final EndOfStream end;
    private final Discarder discarder;

    DisaggregateWorker(PipelineControl control, String stage, WorkerStats stats, WorkSharingReader in,
                       BoundedPublisher out, StageFailures failures, EndOfStream end, Discarder discarder) {
        super(control, stage, 0, stats);
        this.in = in;
        this.out = out;
        this.failures = failures;
        this.end = end;
        this.discarder = discarder;
    }

    @Override
    void work() throws AlertException, InterruptedException {
        for (;;) {
            in.next();
            recordStarved(in.lastWaitNanos());
            if (in.isEnd()) {
                in.releaseAndRetire();
                break;
            }
            long epoch = in.epoch();
            Object item = in.take();
            in.release();
            stats.onItemIn();
            long start = System.nanoTime();
            boolean ok = item instanceof Iterable<?> ? emitAll((Iterable<?>) item, epoch) : reject(item);
            clearTaskInterrupt(); // a lazy iterable runs the user's code on this thread
            long blocked = out.takeWaitNanos();
            stats.onTask(System.nanoTime() - start - blocked); // the wait for room is back-pressure, not work
            recordBackPressure(blocked);
            if (!ok) {
                return;
            }
        }
        if (end.workerFinished()) {
            end.propagate(out);
        }
    }

    private boolean emitAll(Iterable<?> elements, long epoch) {
        Iterator<?> it = null;
        try {
            if (!(elements instanceof List<?> && elements instanceof RandomAccess)) {
                it = elements.iterator();
            }
            return emitEach(elements, epoch, it);
        } catch (RuntimeException e) {
            // The iterable's own code threw (a lazy shard that turns out bad part way, a list whose get fails): a task
            // failure, counted against the budget like a map's, and the stage goes on. What was emitted stays
            // emitted; the unread rest goes to the discard hook as one object (closed if AutoCloseable).
            failures.onFailure(stats, elements, e);
            discarder.discard(it);
            return true;
        }
    }

    /** Emits by index when {@code it} is {@code null} (a random-access list), else by {@code it}. */
    private boolean emitEach(Iterable<?> elements, long epoch, Iterator<?> it) {
        if (it == null) {
            List<?> list = (List<?>) elements;
            for (int i = 0, n = list.size(); i < n; i++) {
                if (!emit(list.get(i), epoch)) {
                    for (int k = i; k < n; k++) {
                        discarder.discard(list.get(k));
                    }
                    return false;
                }
            }
            return true;
        }
        while (it.hasNext()) {
            Object e = it.next();
            if (!emit(e, epoch)) {
                discarder.discard(e);
                if (elements instanceof java.util.Collection<?>) {
                    while (it.hasNext()) { // materialized and finite: each element may own something
                        discarder.discard(it.next());
                    }
                } else {
                    // A lazy iterable may stream, or never end, and iterating on would keep this thread past close:
                    // hand its unread rest to the hook as one object (closed if it is AutoCloseable).
                    discarder.discard(it);
                }
                return false;
            }
        }
        return true;
    }

    private boolean emit(Object element, long epoch) {
        if (element == null) {
            return true;
        }
        if (!out.publish(element, epoch)) {
            return false;
        }
        stats.onItemOut();
        return true;
    }

    private boolean reject(Object item) {
        failures.onFailure(stats, item, new ClassCastException("disaggregate needs Iterable items, got "
                + item.getClass().getName()));
        discarder.discard(item); // no stage function took it: the engine still owns it
        return true;
    }
}
