package org.spdl4j.loader;

import java.time.Duration;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.TimeoutException;
import org.spdl4j.engine.Pipeline;
import org.spdl4j.engine.stats.StageStats;
import org.spdl4j.engine.tune.ConcurrencyTuner;
import org.spdl4j.loader.internal.BatchRecord;
import org.spdl4j.loader.internal.LoaderRecipe;
import org.spdl4j.loader.internal.LoaderRuntime;
import org.spdl4j.offheap.batch.Batch;

/**
 * Batches for a training loop from any {@link SampleSource}, decoded straight into their slots of off-heap batches
 * by a {@link org.spdl4j.offheap.batch.SlotDecoder}, optionally transferred, with each sample's key and label, and
 * resumable exactly: {@code for (LoadedBatch<T> batch : loader)}. Built by {@link #builder()}.
 *
 * <pre>
 *  source ──> read ──> assign ──> decode x N ──> [transfer] ──> consumer
 *  (epochs,   (files,  (each sample  (into the slot;   (device copy)   LoadedBatch: data, keys,
 *   rank,      URLs)    its slot)     the last slot                    labels; its receipt settles
 *   shuffle)                          publishes)                       its samples in state())
 * </pre>
 *
 * <p><b>Checkpoints:</b> {@link #state()} describes exactly the batches the consumer has received (and the samples
 * that failed); {@link LoaderBuilder#resume} in a new JVM delivers what this run would have delivered after it.
 * <b>Bad input:</b> a sample that cannot be read or decoded is counted on its stage, logged naming it and skipped;
 * the run goes on ({@link #failures()}). <b>Ownership:</b> delivered batches belong to the consumer, which closes
 * each; {@link #close()} stops every stage, returns what was never delivered to its pools and frees the loader's
 * pools, decoder and transfer. <b>Threading:</b> iterate from one thread; {@link #state()} and {@link #stats()} from
 * any.
 *
 * @param <T> the type of a delivered batch's data: {@link Batch}, or the transfer's result
 */
public final class Loader<T> implements Iterable<LoadedBatch<T>>, AutoCloseable {
    /** The read stage's name in the stats (files and URLs; a tar source reads in its own thread). */
    public static final String READ_STAGE = LoaderRuntime.READ_STAGE;
    /** The assign stage's name in the stats. */
    public static final String ASSIGN_STAGE = LoaderRuntime.ASSIGN_STAGE;
    /** The decode stage's name in the stats. */
    public static final String DECODE_STAGE = LoaderRuntime.DECODE_STAGE;
    /** The transfer stage's name in the stats. */
    public static final String TRANSFER_STAGE = LoaderRuntime.TRANSFER_STAGE;

    private final LoaderRuntime runtime;
    private final Iterator<LoadedBatch<T>> iterator;
    // The consumer's thread only (iterate from one thread).
    private long batchesDelivered;
    private long samplesDelivered;
    private boolean ended;
    /**
     * The batch {@code hasNext()} took off the pipeline and {@code next()} has not returned yet: the loader's until
     * then, so {@link #close()} gives it back (the pipeline's sweep no longer sees it).
     */
    private final java.util.concurrent.atomic.AtomicReference<BatchRecord> pending =
        new java.util.concurrent.atomic.AtomicReference<>();
    /** How long a consumer holding every batch waits before it is told so: the run's end, or another thread's close. */
    private static final Duration HELD_GRACE = Duration.ofSeconds(2);
    private volatile boolean closing;
    /** Who takes delivered batches, for leak reports. */
    private final String consumer;
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(Loader.class);

    Loader(LoaderRecipe recipe) {
        this.runtime = new LoaderRuntime(recipe);
        this.consumer = "the consumer of loader '" + recipe.name() + "'";
        Iterator<BatchRecord> records = runtime.pipeline().iterator();
        this.iterator = new Iterator<>() {
            @Override
            public boolean hasNext() {
                if (pending.get() != null) {
                    return true;
                }
                if (ended) {
                    return false;
                }
                BatchRecord record;
                if (allHeld()) {
                    try {
                        record = heldWait(HELD_GRACE);
                    } catch (TimeoutException e) {
                        throw heldError();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new java.util.concurrent.CancellationException("interrupted while waiting for a batch");
                    }
                    if (record == null) {
                        return false;
                    }
                } else if (records.hasNext()) {
                    record = records.next();
                } else {
                    ended();
                    return false;
                }
                return hold(record);
            }

            @Override
            public LoadedBatch<T> next() {
                if (!hasNext()) {
                    throw new java.util.NoSuchElementException("loader '" + name() + "' has delivered all its epochs");
                }
                return delivered(pending.getAndSet(null));
            }
        };
    }

    /**
     * Keeps a batch taken off the pipeline until {@code next()} hands it out; gives it back at once when the loader
     * closes meanwhile (another thread's close, which takes whatever is kept: exactly one of the two closes it).
     */
    private boolean hold(BatchRecord record) {
        pending.set(record);
        if (closing) {
            BatchRecord taken = pending.getAndSet(null);
            if (taken != null) {
                taken.close();
            }
            return false;
        }
        return true;
    }

    /**
     * The wait of a consumer that holds every batch: none can be filled unless it closes one (another thread may be
     * about to) or the run is at its end; past {@code wait}, a timeout.
     */
    private BatchRecord heldWait(Duration wait) throws TimeoutException, InterruptedException {
        BatchRecord record = runtime.pipeline().next(wait);
        if (record == null) {
            ended();
        }
        return record;
    }

    private String name() {
        return runtime.recipe().name();
    }

    /**
     * {@return the most batches a consumer can keep unclosed (or keep the memory of, as DJL arrays over them do) and
     * still get another: the loader's host batches; {@link Integer#MAX_VALUE} with a transfer, whose own bound
     * applies}
     */
    public int batchCapacity() {
        return runtime.consumerCapacity();
    }

    /** {@return whether the consumer holds every batch the loader has, unclosed, so that none can be filled} */
    private boolean allHeld() {
        return runtime.batchesHeld(batchesDelivered) >= runtime.consumerCapacity();
    }

    /** What a consumer holding every batch is told, instead of waiting until the loader's batch timeout. */
    private IllegalStateException heldError() {
        return new IllegalStateException("loader '" + name() + "': the consumer holds all "
            + runtime.batchesHeld(batchesDelivered) + " of its batches unclosed, so no batch can be filled: close each"
            + " LoadedBatch when done with it (try (batch) { ... }), or give LoaderBuilder.batchesInFlight more to keep"
            + " more of them");
    }

    /**
     * The end of the last epoch: a run that delivered nothing because every sample failed says so, loudly (a broken
     * decoder set-up fails every sample; but a rank whose share of the data is all bad is a run that ended, not one
     * to fail, so it is logged, not thrown).
     */
    private void ended() {
        ended = true;
        long failed = failures();
        if (samplesDelivered == 0 && failed > 0) {
            LOG.error("loader '{}' delivered no sample: all {} failed; the first: {} (a decoder that is closed or"
                + " missing its codec fails every sample)", name(), failed, firstFailure());
        }
    }

    /** {@return a builder of a loader of host {@link Batch}es} */
    public static LoaderBuilder<Batch> builder() {
        return new LoaderBuilder<>();
    }

    @SuppressWarnings("unchecked") // the record's data is a Batch without a transfer, else the transfer's D = T
    private LoadedBatch<T> delivered(BatchRecord record) {
        runtime.progress().settle(record);
        record.handedTo(consumer); // a leak report names the consumer's code (when leak detection tracks it)
        batchesDelivered++;
        samplesDelivered += record.size();
        return (LoadedBatch<T>) record;
    }

    /**
     * Takes the next batch, waiting at most {@code wait}.
     *
     * @param wait how long to wait
     * @return the batch, or {@code null} at the end
     * @throws TimeoutException     when none came in time (the loader goes on)
     * @throws InterruptedException when interrupted
     */
    public LoadedBatch<T> next(Duration wait) throws TimeoutException, InterruptedException {
        if (ended) {
            return null;
        }
        BatchRecord kept = pending.getAndSet(null);
        if (kept != null) {
            return delivered(kept);
        }
        if (allHeld()) {
            boolean grace = wait.compareTo(HELD_GRACE) > 0;
            try {
                BatchRecord record = heldWait(grace ? HELD_GRACE : wait);
                return record == null || !hold(record) ? null : delivered(pending.getAndSet(null));
            } catch (TimeoutException e) {
                if (grace) {
                    throw heldError();
                }
                throw e;
            }
        }
        BatchRecord record = runtime.pipeline().next(wait);
        if (record == null) {
            ended();
            return null;
        }
        return hold(record) ? delivered(pending.getAndSet(null)) : null;
    }

    /**
     * {@return the one iterator of this loader: every call returns it, so a loop left early and begun again goes on
     * where it left} A loader runs its epochs once: once they are all delivered, asking for an iterator again is
     * refused (a second {@code for} over a finished loader would otherwise see nothing).
     *
     * @throws IllegalStateException when the loader has delivered all its epochs: build another (with
     *                               {@code resume(state())} to go on), or give {@link LoaderBuilder#epochs} the epochs
     *                               to run in one loop
     * @throws IllegalStateException from the iterator's {@code hasNext()}: when the consumer holds every batch
     *                               unclosed (none could come)
     */
    @Override
    public Iterator<LoadedBatch<T>> iterator() {
        if (ended) {
            throw new IllegalStateException("loader '" + name() + "' has delivered all its epochs (" + samplesDelivered
                + " samples): a loader runs once; build another (resume(state()) goes on from here), or give"
                + " epochs(n) to run n epochs in one loop");
        }
        return iterator;
    }

    /**
     * {@return where the loader stands, exact to the sample: the batches the consumer has received and the samples
     * that failed; save its {@link LoaderState#encode() text} and {@link LoaderBuilder#resume resume} from it}
     */
    public LoaderState state() {
        LoaderRecipe r = runtime.recipe();
        return runtime.progress().state().withSource(LoaderRecipe.stateFingerprint(r.source(), r.shuffle()));
    }

    /**
     * {@return failures so far: samples skipped because they could not be read or decoded, and tar shards that failed
     * part-way (counted once each)}
     */
    public long failures() {
        return runtime.failures();
    }

    /** {@return the first failure of the earliest stage that had one (it names the sample), or {@code null}} */
    public Throwable firstFailure() {
        return runtime.firstFailure();
    }

    /** {@return per-stage statistics, source first, sink last} */
    public List<StageStats> stats() {
        return runtime.pipeline().stats();
    }

    /** {@return the running pipeline: its spec and stats} */
    public Pipeline<?> pipeline() {
        return runtime.pipeline();
    }

    /** {@return the live tuner ({@link LoaderBuilder#autotune}), or {@code null} when concurrencies are fixed} */
    public ConcurrencyTuner tuner() {
        return runtime.tuner();
    }

    /** Stops every stage, returns what was never delivered and frees the loader's pools, decoder and transfer. */
    @Override
    public void close() {
        long held = runtime.batchesHeld(batchesDelivered);
        if (held > 0 && !closing) {
            // The pools name each held lease as they close; say first that these are the consumer's, not lost.
            LOG.warn("loader '{}' closed while the consumer holds {} of its batches: their memory stays valid and"
                + " goes back as each is closed", name(), held);
            runtime.consumerHolds(true);
        }
        closing = true;
        BatchRecord taken = pending.getAndSet(null);
        try {
            if (taken != null) {
                taken.close(); // taken by hasNext(), never handed out: not the consumer's, not settled
            }
        } finally {
            runtime.close();
        }
    }
}
