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
 * other iterables allocate their iterator. An item that is not an {@link Iterable} counts as a failed task, and so does
 * an iterable whose own code throws part-way (the stage goes on). When the pipeline stops part-way through an item, or
 * the item throws part-way, its unpublished elements go to the {@link Discarder}: a random-access list's one by one
 * (skipping an index whose {@code get} throws), a collection's one by one, a lazy iterable's iterator as one object.
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
        in.reportWaitsTo(stats); // the reader and publisher report their waits while they last
        out.reportWaitsTo(stats);
        this.failures = failures;
        this.end = end;
        this.discarder = discarder;
    }

    @Override
    void work() throws AlertException, InterruptedException {
        for (;;) {
            in.next();
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
            long blocked = out.takeWaitNanos(); // reported as back-pressure by the publisher already
            stats.onTask(System.nanoTime() - start - blocked); // the wait for room is back-pressure, not work
            if (!ok) {
                return;
            }
        }
        if (end.workerFinished()) {
            end.propagate(out);
        }
    }

    private boolean emitAll(Iterable<?> elements, long epoch) {
        if (elements instanceof List<?> list && elements instanceof RandomAccess) {
            return emitByIndex(list, epoch);
        }
        Iterator<?> it = null;
        try {
            it = elements.iterator();
            return emitByIterator(elements, it, epoch);
        } catch (RuntimeException e) {
            // The iterable's own code threw (a lazy shard that turns out bad part way): a task failure, counted
            // against the budget like a map's, and the stage goes on. What was emitted stays emitted; the unread rest
            // goes to the discard hook as one object (closed if AutoCloseable): the iterator, or the iterable itself
            // when iterator() threw (nothing of it was read, and no stage function took it).
            failures.onFailure(stats, elements, e);
            discarder.discard(it != null ? it : elements);
            return true;
        }
    }

    /** A random-access list, walked by index: no iterator allocated. */
    private boolean emitByIndex(List<?> list, long epoch) {
        int n = 0;
        int i = 0;
        try {
            n = list.size();
            for (; i < n; i++) {
                Object e = list.get(i);
                if (!emit(e, epoch)) {
                    discarder.discard(e);
                    discardFrom(list, i + 1, n);
                    return false;
                }
            }
            return true;
        } catch (RuntimeException e) {
            // get(i) threw (a view over a partly bad buffer): a task failure, and the stage goes on. What was emitted
            // stays emitted; each later element that can still be read goes to the discard hook.
            failures.onFailure(stats, list, e);
            discardFrom(list, i + 1, n);
            return true;
        }
    }

    /**
     * Gives {@code list[from, n)} to the discard hook. An index whose {@code get} throws is skipped (its element
     * cannot be reached) and the rest is still given: each element may own pooled memory.
     */
    private void discardFrom(List<?> list, int from, int n) {
        for (int k = from; k < n; k++) {
            Object e;
            try {
                e = list.get(k);
            } catch (RuntimeException unreadable) {
                continue;
            }
            discarder.discard(e);
        }
    }

    private boolean emitByIterator(Iterable<?> elements, Iterator<?> it, long epoch) {
        while (it.hasNext()) {
            Object e = it.next();
            if (!emit(e, epoch)) {
                discarder.discard(e);
                discardRest(elements, it);
                return false;
            }
        }
        return true;
    }

    /** After a stop: gives what {@code it} has not yet returned to the discard hook. */
    private void discardRest(Iterable<?> elements, Iterator<?> it) {
        if (elements instanceof java.util.Collection<?>) {
            try {
                while (it.hasNext()) { // materialized and finite: each element may own something
                    discarder.discard(it.next());
                }
                return;
            } catch (RuntimeException e) {
                // the collection's iterator threw part way: the rest goes as one object, below (the stage stops
                // anyway, so this is no task failure)
            }
        }
        // A lazy iterable may stream, or never end, and iterating on would keep this thread past close: hand its
        // unread rest to the hook as one object (closed if it is AutoCloseable).
        discarder.discard(it);
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
