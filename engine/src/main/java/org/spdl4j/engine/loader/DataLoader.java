package org.spdl4j.engine.loader;

import java.time.Duration;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import org.spdl4j.engine.Pipeline;
import org.spdl4j.engine.PipelineFailedException;
import org.spdl4j.engine.EngineConfiguration;
import org.spdl4j.engine.stats.StageStats;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Batches from a source, preprocessed on many threads, for a training loop: {@code for (B batch : loader)}.
 * Built by {@link DataLoaderBuilder}; wraps one {@link Pipeline}.
 *
 * <p><b>Timeout:</b> the iterator waits at most the configured timeout for each batch, then throws a
 * {@link DataLoaderTimeoutException} that names the busiest stage per task slot and every stage's counts (a stage
 * holding items it has not passed on shows there), so a stalled loader never hangs a training job silently.
 * <b>Threading:</b> iterate from one thread; {@link #close()} from any. <b>Ownership:</b> batches belong to the
 * consumer once returned. {@link #iterator()} returns the loader's one iterator (as a {@link Pipeline} does), so a
 * batch {@code hasNext()} took is not lost to a second iterator; a batch it took that {@code next()} has not returned
 * when the loader closes goes to the discard hook, like the batches still inside the pipeline.
 *
 * @param <B> the batch type
 */
public final class DataLoader<B> implements Iterable<B>, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(DataLoader.class);
    private final Pipeline<B> pipeline;
    private final Duration timeout;
    private final Consumer<Object> onDiscard;
    /** The batch hasNext() took and next() has not returned; taken by next() or, after close, by the hook. */
    private final AtomicReference<B> pending = new AtomicReference<>();
    private final Iterator<B> iterator = new BatchIterator();
    /** Iterating calls between asking the pipeline for a batch and parking it in {@link #pending}: close waits. */
    private final AtomicInteger taking = new AtomicInteger();

    DataLoader(Pipeline<B> pipeline, Duration timeout, Consumer<Object> onDiscard) {
        this.pipeline = pipeline;
        this.timeout = timeout;
        this.onDiscard = onDiscard;
    }

    /**
     * Starts describing a loader over {@code source}.
     *
     * @param source the samples, iterated once (use a repeating source for several epochs)
     * @param <S>    the sample type
     * @return a builder
     */
    public static <S> DataLoaderBuilder<S> from(Iterable<? extends S> source) {
        return DataLoaderBuilder.from(source);
    }

    /**
     * Takes the next batch, waiting at most {@code wait}.
     *
     * @param wait how long to wait
     * @return the batch, or {@code null} at the end
     * @throws TimeoutException        when none came in time (the loader goes on)
     * @throws InterruptedException    when interrupted
     * @throws PipelineFailedException when a stage failed past its budget or the source failed
     */
    public B next(Duration wait) throws TimeoutException, InterruptedException {
        return pipeline.next(wait);
    }

    /** {@return the underlying pipeline} */
    public Pipeline<B> pipeline() {
        return pipeline;
    }

    /** {@return per-stage statistics, source first, sink last} */
    public List<StageStats> stats() {
        return pipeline.stats();
    }

    /** {@return the loader's iterator (one per loader, whoever asks); each wait is bounded by the loader's timeout} */
    @Override
    public Iterator<B> iterator() {
        return iterator;
    }

    /** The loader's one iterator: state shared by every caller of {@link #iterator()}. */
    private final class BatchIterator implements Iterator<B> {
        @Override
        public boolean hasNext() {
            if (pending.get() != null) {
                return true;
            }
            B b;
            taking.incrementAndGet(); // close() waits until the batch taken here is parked where it can find it
            try {
                try {
                    b = pipeline.next(timeout);
                } catch (TimeoutException e) {
                    throw new DataLoaderTimeoutException(timeout, pipeline.stats());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted while waiting for the next batch", e);
                }
                if (b == null) {
                    return false;
                }
                pending.set(b); // close(), if it runs now, discards it once this call is out
            } finally {
                taking.decrementAndGet();
            }
            return true;
        }

        @Override
        public B next() {
            if (!hasNext()) {
                throw new NoSuchElementException("data loader '" + pipeline.spec().name() + "' has ended");
            }
            B b = pending.getAndSet(null);
            if (b == null) { // close took it between hasNext() and here
                throw new NoSuchElementException("data loader '" + pipeline.spec().name() + "' was closed");
            }
            return b;
        }
    }

    private void discardPending() {
        B b = pending.getAndSet(null);
        if (b == null) {
            return;
        }
        try {
            onDiscard.accept(b);
        } catch (RuntimeException e) { // as the engine treats its discard hook: logged, the close goes on
            LOG.warn("data loader '{}': the discard hook threw on the batch taken before close; what it holds may "
                    + "be lost", pipeline.spec().name(), e);
        }
    }

    /**
     * Stops every stage and joins its threads (bounded); what the pipeline will not deliver, and a batch
     * {@code hasNext()} took that was not returned, go to the discard hook. Idempotent.
     */
    @Override
    public void close() {
        pipeline.close();
        // An iterating call that took a batch just before the close parks it in `pending` right after; the closed
        // pipeline makes any later call fail, so this wait is short (bounded all the same).
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(EngineConfiguration.CLOSE_TIMEOUT_MILLIS);
        while (taking.get() != 0 && System.nanoTime() < deadline) {
            LockSupport.parkNanos(100_000);
        }
        discardPending();
    }
}
