package org.spdl4j.engine.source.http;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * A bound on asynchronous tasks in flight that never blocks a thread: a task submitted while all permits are taken
 * waits in a queue and is started by the completion that frees a permit.
 *
 * <p><b>Threading:</b> lock-free, any thread may submit; tasks start on the submitting thread or on the thread that
 * completes an earlier task. <b>Correctness:</b> a submitter enqueues then looks for a permit; a completer returns its
 * permit then looks for a task. Both are sequentially consistent (CAS on an {@link AtomicInteger}, a
 * {@link ConcurrentLinkedQueue}), so at least one of them sees the other and no task is stranded. <b>Allocation:</b>
 * one queue node and one future per task. Tasks should complete asynchronously (a task that completes synchronously
 * starts the next one on the same stack).
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
        CompletableFuture<T> result = new CompletableFuture<>();
        waiting.add(() -> {
            int now = limit - available.get();
            peak.accumulateAndGet(now, Math::max);
            CompletionStage<T> stage;
            try {
                stage = task.get();
            } catch (RuntimeException | Error e) {
                stage = CompletableFuture.failedFuture(e);
            }
            stage.whenComplete((v, e) -> {
                available.incrementAndGet(); // return the permit before looking for waiting work (see class doc)
                drain();
                if (e != null) {
                    result.completeExceptionally(e);
                } else {
                    result.complete(v);
                }
            });
        });
        drain();
        return result;
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
