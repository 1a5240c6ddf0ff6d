package org.spdl4j.engine.source.http;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiConsumer;
import java.util.function.Supplier;

/**
 * A bound on asynchronous tasks in flight that never blocks a thread: a task submitted while all permits are taken
 * waits in a queue and is started by the completion that frees a permit.
 *
 * <p><b>Threading:</b> lock-free, any thread may submit; tasks start on the submitting thread or on the thread that
 * completes an earlier task. <b>Correctness:</b> a submitter enqueues then looks for a permit; a completer returns its
 * permit then looks for a task. Both are sequentially consistent (CAS on an {@link AtomicInteger}, a
 * {@link ConcurrentLinkedQueue}), so at least one of them sees the other and no task is stranded. A task whose stage
 * is already complete when it returns (a closed fetcher, a refused URI) gives its permit back to the loop that started
 * it, which starts the next waiting task: however many such tasks wait, the stack does not deepen (a completion that
 * started the next task itself overflowed it after some thousands, leaving later tasks' stages never completed).
 * <b>Allocation:</b> one queue node, one entry and one future per task.
 */
public final class AsyncPermits {
    private final int limit;
    private final AtomicInteger available;
    private final AtomicInteger peak = new AtomicInteger();
    private final ConcurrentLinkedQueue<Runnable> waiting = new ConcurrentLinkedQueue<>();

    /**
     * Creates the bound.
     *
     * @param limit the most tasks in flight, at least 1
     */
    public AsyncPermits(int limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be >= 1: " + limit);
        }
        this.limit = limit;
        this.available = new AtomicInteger(limit);
    }

    /**
     * Runs a task when a permit is free; the permit is held until the task's stage completes.
     *
     * @param task starts the work and returns its stage; must not throw (a throw fails the returned stage)
     * @param <T>  the result type
     * @return the task's outcome
     */
    public <T> CompletionStage<T> submit(Supplier<? extends CompletionStage<T>> task) {
        Entry<T> entry = new Entry<>(task);
        waiting.add(entry);
        drain();
        return entry.result;
    }

    private void drain() {
        while (!waiting.isEmpty()) {
            int a = available.get();
            if (a == 0) {
                return; // a completion will drain
            }
            if (available.compareAndSet(a, a - 1)) {
                Runnable r = waiting.poll();
                if (r == null) {
                    available.incrementAndGet(); // someone else took it; give the permit back and look again
                } else {
                    r.run();
                }
            }
        }
    }

    /**
     * One task: started by {@link #drain()}, which alone runs entries, and completed by its stage. Also the stage's
     * completion action (one object per task).
     */
    private final class Entry<T> implements Runnable, BiConsumer<T, Throwable> {
        private final Supplier<? extends CompletionStage<T>> task;
        private final CompletableFuture<T> result = new CompletableFuture<>();
        /**
         * True while {@link #run()} starts the task. A completion that sees it true (volatile: it read the flag after
         * returning the permit, so a drain loop that reads the permits after {@code run()} returns sees that permit)
         * leaves the next waiting task to the loop running this one, instead of draining on a deeper stack.
         */
        private volatile boolean starting = true;

        Entry(Supplier<? extends CompletionStage<T>> task) {
            this.task = task;
        }

        @Override
        public void run() {
            int now = limit - available.get();
            peak.accumulateAndGet(now, Math::max);
            CompletionStage<T> stage;
            try {
                stage = task.get();
            } catch (RuntimeException | Error e) {
                stage = CompletableFuture.failedFuture(e);
            }
            stage.whenComplete(this);
            starting = false;
        }

        @Override
        public void accept(T value, Throwable error) {
            available.incrementAndGet(); // return the permit before looking for waiting work (see class doc)
            if (!starting) {
                drain(); // else: the drain loop that started this task goes on with the next one
            }
            if (error != null) {
                result.completeExceptionally(error);
            } else {
                result.complete(value);
            }
        }
    }

    /** {@return the tasks in flight now (a racy snapshot)} */
    public int inFlight() {
        return limit - available.get();
    }

    /** {@return the most tasks seen in flight at once} */
    public int peakInFlight() {
        return peak.get();
    }

    /** {@return the bound} */
    public int limit() {
        return limit;
    }
}
