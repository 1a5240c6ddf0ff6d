package org.spdl4j.engine;

import java.time.Duration;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.concurrent.CancellationException;
import java.util.concurrent.TimeoutException;
import org.spdl4j.engine.ring.ActiveWorkers;
import org.spdl4j.engine.runtime.PipelineRuntime;
import org.spdl4j.engine.stats.StageStats;
import org.spdl4j.offheap.Timeouts;

/**
 * A running (or ready to run) pipeline: read its items with {@link #next(Duration)} or by iterating, close it when
 * done. Built by {@link PipelineBuilder#build()}; runs once.
 *
 * <p><b>Threading:</b> one consumer thread at a time reads items; {@link #close()} may be called from any thread and
 * returns within {@link EngineConfiguration#CLOSE_TIMEOUT_MILLIS} (plus scheduling) even when a stage function blocks
 * or sleeps, interrupting it. <b>Allocation:</b> none per item on the consumer's path.
 *
 * @param <T> the item type
 */
public final class Pipeline<T> implements Iterable<T>, AutoCloseable {
    private final PipelineSpec spec;
    private final PipelineRuntime runtime;
    private final ItemIterator iterator = new ItemIterator();

    Pipeline(PipelineSpec spec) {
        this.spec = spec;
        this.runtime = new PipelineRuntime(spec);
    }

    /** {@return the validated description this pipeline runs} */
    public PipelineSpec spec() {
        return spec;
    }

    /**
     * Starts the pipeline's threads; does nothing if already started. Reading starts it too.
     *
     * @return this pipeline
     * @throws IllegalStateException if it was closed
     */
    public Pipeline<T> start() {
        runtime.start();
        return this;
    }

    /**
     * Takes the next item, waiting up to {@code timeout}.
     *
     * @param timeout how long to wait
     * @return the next item, or {@code null} once the stream has ended (every later call returns {@code null} too)
     * @throws TimeoutException        if no item came within the timeout (the pipeline goes on; call again)
     * @throws InterruptedException    if the calling thread was interrupted while waiting
     * @throws PipelineFailedException if a stage exceeded its failure budget, or the source failed (after its
     *                                 items were delivered)
     * @throws IllegalStateException   if the pipeline was closed
     */
    @SuppressWarnings("unchecked") // the builder's types prove the last stage produces T
    public T next(Duration timeout) throws TimeoutException, InterruptedException {
        return (T) runtime.next(Timeouts.nanos(timeout)); // a timeout too long for a long of ns: no timeout
    }

    /** {@return the epoch of the item last returned (0 for a finite source)} */
    public long lastEpoch() {
        return runtime.lastEpoch();
    }

    /** {@return whether the consumer has reached the end of the stream} */
    public boolean isEnded() {
        return runtime.isEnded();
    }

    /**
     * {@return the live concurrency of a stage built with {@link StageOptions#withMaxConcurrency(int)}}
     *
     * @param stage the stage's name
     * @throws IllegalArgumentException if no such stage exists or its concurrency is fixed
     */
    public StageConcurrency concurrency(String stage) {
        ActiveWorkers active = runtime.limit(stage);
        if (active == null) {
            throw new IllegalArgumentException("pipeline '" + spec.name() + "': no stage '" + stage
                    + "' with an adjustable concurrency (StageOptions.withMaxConcurrency)");
        }
        boolean threads = spec.stages().stream().anyMatch(s -> s.name().equals(stage)
                && s instanceof StageSpec.MapStage);
        return new StageConcurrency(stage, threads, active);
    }

    /** {@return the stats of every stage, source first and the consumer ("sink") last} */
    public List<StageStats> stats() {
        return runtime.stats();
    }

    /**
     * {@return the iterator over the items, starting the pipeline} There is one iterator per pipeline: items taken
     * through it are gone. Its {@code hasNext()} waits without a time limit; a failure throws
     * {@link PipelineFailedException}, an interrupt throws {@link CancellationException} with the interrupt flag set.
     * An item {@code hasNext()} has taken off the pipeline is the caller's from then on, even before {@code next()}
     * returns it: a loop that stops between the two ({@code while (it.hasNext() && n < k)}) must take and release it
     * itself, since close's sweep no longer sees it.
     */
    @Override
    public Iterator<T> iterator() {
        return iterator;
    }

    /**
     * Stops the pipeline and joins its threads; idempotent. Waits for them at most
     * {@link EngineConfiguration#CLOSE_TIMEOUT_MILLIS} after interrupting them: a stage function that ignores
     * interrupts may still be running when this returns (logged with its stack). Check {@link #isTerminated()} before
     * freeing anything stage functions use.
     */
    @Override
    public void close() {
        runtime.close();
    }

    /**
     * Whether the pipeline is closed and every one of its threads has ended: its stage threads and the virtual
     * threads of its virtual-thread stages. After {@link #close()} this is normally {@code true}; {@code false} means
     * a stage function ignored interrupts past the close timeout and still runs, so what stage functions use
     * (decoders, native contexts, pools) must not be freed yet (leak it rather than free it under the running
     * thread). It becomes {@code true} once those threads end; a close that found them running skipped its discard
     * sweep (it would have raced them). Non-blocking; any thread.
     *
     * @return {@code true} once closed with no thread of the pipeline left running; {@code false} before
     *         {@link #close()}
     */
    public boolean isTerminated() {
        return runtime.isTerminated();
    }

    /**
     * Finishes a {@link #close()} that found a stage function still running (it ignores interrupts): once every thread
     * of the pipeline has ended, hands what was left in its rings to the discard hook (the sweep close skipped) and
     * closes the source, once; then the caller may free what stage functions used. Call it until it returns true
     * (poll; it does not block). Idempotent; any thread; after a close that swept, it returns true at once.
     *
     * @return true when the pipeline is terminated and nothing is left to sweep; false while one of its threads still
     *         runs, or before {@link #close()}
     */
    public boolean finishClose() {
        return runtime.finishClose();
    }

    @Override
    public String toString() {
        return spec.toString();
    }

    private final class ItemIterator implements Iterator<T> {
        private T pending;

        @Override
        @SuppressWarnings("unchecked") // the builder's types prove the last stage produces T
        public boolean hasNext() {
            if (pending != null) {
                return true;
            }
            try {
                pending = (T) runtime.next(Long.MAX_VALUE); // no Duration per item: iteration allocates nothing
            } catch (TimeoutException e) {
                throw new IllegalStateException("unbounded wait timed out", e); // cannot happen: ~292 years
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                CancellationException c = new CancellationException("interrupted while waiting for the next item");
                c.initCause(e);
                throw c;
            }
            return pending != null;
        }

        @Override
        public T next() {
            if (!hasNext()) {
                throw new NoSuchElementException("pipeline '" + spec.name() + "' has ended");
            }
            T item = pending;
            pending = null;
            return item;
        }
    }
}
