package org.spdl4j.djl;

import ai.djl.ndarray.NDManager;
import ai.djl.training.dataset.Dataset;
import ai.djl.translate.Batchifier;
import ai.djl.util.Progress;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongFunction;
import org.spdl4j.loader.LoadedBatch;
import org.spdl4j.loader.Loader;
import org.spdl4j.offheap.batch.Batch;

/**
 * A DJL {@link Dataset} whose batches come from spdl4j loaders, one loader per pass: {@code Trainer.iterateDataset}
 * and {@code EasyTrain.fit} use it unchanged. Each {@link #getData(NDManager)} iteration builds the loader of the
 * next epoch (the function given gets the epoch, 0 first: give it a seed of its own) and hands out its batches as DJL
 * {@link ai.djl.training.dataset.Batch}es whose arrays lie over the loader's batch memory ({@link NdBatchAdapter}):
 * data {@code [N, ...sample]} (normalized float {@code [N, C, H, W]} with a {@link NormalizingSlotDecoder}), labels
 * {@code [N]}.
 *
 * <pre>{@code
 * LoaderDataset train = LoaderDataset.builder(epoch -> Loader.builder()
 *         .source(SampleSource.folder(root))
 *         .decoder(NormalizingSlotDecoder.builder(ImageSlotDecoder.evaluation(72, 64)).build())
 *         .batchSize(32).seed(epoch).build())
 *     .build();
 * EasyTrain.fit(trainer, 3, train, null);
 * }</pre>
 *
 * <p><b>Ownership:</b> the loader's batch is closed as soon as its arrays exist (the loader moves on); the arrays
 * hold the memory until the DJL batch is closed, as {@code EasyTrain} does after each step, also past the end of
 * its pass and its loader. A pass read to its end closes its loader; starting the next pass, or {@link #close()},
 * closes one left open (its iterator then has no more batches). <b>Threading:</b> one pass at a time, iterated from
 * one thread; {@link #dataWaitNanos()} from any.
 */
public final class LoaderDataset implements Dataset, AutoCloseable {
    private final LongFunction<Loader<Batch>> loaderOfEpoch;
    private final NdBatchAdapter adapter;
    private final long batchesPerEpoch;
    private final AtomicLong waitNanos = new AtomicLong();
    private long nextEpoch;
    private Loader<Batch> open;

    private LoaderDataset(Builder b) {
        this.loaderOfEpoch = b.loaderOfEpoch;
        this.adapter = b.adapter;
        this.batchesPerEpoch = b.batchesPerEpoch;
    }

    /**
     * A builder of a dataset over loaders.
     *
     * @param loaderOfEpoch builds the loader of one pass from the pass's epoch (0, 1, ...); each loader is closed by
     *                      the dataset
     * @return the builder
     */
    public static Builder builder(LongFunction<Loader<Batch>> loaderOfEpoch) {
        return new Builder(loaderOfEpoch);
    }

    /**
     * The batches of the next pass: its loader is built when the iteration starts.
     *
     * @param manager the manager under which each batch gets its own sub-manager
     * @return an iterable of one pass (iterate it once)
     */
    @Override
    public Iterable<ai.djl.training.dataset.Batch> getData(NDManager manager) {
        Objects.requireNonNull(manager, "manager");
        return () -> new Pass(manager, startPass());
    }

    /** Nothing to prepare: the loaders read their sources themselves. */
    @Override
    public void prepare(Progress progress) {
    }

    /** {@return the passes started so far} */
    public synchronized long epochsStarted() {
        return nextEpoch;
    }

    /** {@return the time the training thread spent waiting for batches, over all passes, in nanoseconds} */
    public long dataWaitNanos() {
        return waitNanos.get();
    }

    /** Closes the loader of a pass left open (its undelivered batches go back to its pools). */
    @Override
    public synchronized void close() {
        if (open != null) {
            Loader<Batch> l = open;
            open = null;
            l.close();
        }
    }

    private synchronized Loader<Batch> startPass() {
        close();
        open = Objects.requireNonNull(loaderOfEpoch.apply(nextEpoch), "the loader of an epoch");
        nextEpoch++;
        return open;
    }

    private synchronized boolean isOpen(Loader<Batch> loader) {
        return open == loader;
    }

    private synchronized void passEnded(Loader<Batch> loader) {
        if (open == loader) {
            open = null;
        }
        loader.close();
    }

    /** How long a pass waits for a kept batch to be closed before it says the loop keeps them all. */
    private static final long KEPT_GRACE_NANOS = java.util.concurrent.TimeUnit.SECONDS.toNanos(2);

    /** One pass over one loader. */
    private final class Pass implements Iterator<ai.djl.training.dataset.Batch> {
        private final NDManager manager;
        private Loader<Batch> loader;
        private final Iterator<LoadedBatch<Batch>> batches;
        private long delivered;
        /** The DJL batches handed out and maybe still open: their arrays keep the loader's batch memory. */
        private final java.util.ArrayDeque<NdBatch> handedOut = new java.util.ArrayDeque<>();

        Pass(NDManager manager, Loader<Batch> loader) {
            this.manager = manager;
            this.loader = loader;
            this.batches = loader.iterator();
        }

        @Override
        public boolean hasNext() {
            if (loader == null) {
                return false;
            }
            if (!isOpen(loader)) { // the next pass began, or the dataset closed: this pass has ended
                loader = null;
                return false;
            }
            checkNotAllKept();
            long start = System.nanoTime();
            boolean more = batches.hasNext(); // waits for the next batch
            waitNanos.addAndGet(System.nanoTime() - start);
            if (!more) {
                Loader<Batch> l = loader;
                loader = null;
                passEnded(l);
            }
            return more;
        }

        @Override
        public ai.djl.training.dataset.Batch next() {
            if (!hasNext()) {
                throw new NoSuchElementException("the pass has ended");
            }
            long start = System.nanoTime();
            LoadedBatch<Batch> batch = batches.next();
            waitNanos.addAndGet(System.nanoTime() - start);
            NdBatch nd;
            try (batch) { // the loader moves on; the arrays hold the memory until the DJL batch closes
                nd = adapter.adapt(batch, manager);
            }
            delivered++;
            handedOut.add(nd);
            return new ai.djl.training.dataset.Batch(nd.manager(), nd.dataList(), nd.labelList(), nd.size(),
                Batchifier.STACK, Batchifier.STACK, delivered, batchesPerEpoch);
        }

        /**
         * Refuses to wait for a batch that cannot come: the DJL batches handed out and not closed keep every batch
         * the loader has (their arrays are over its memory), so none can be filled. After a short grace: another
         * thread may be about to close one.
         */
        private void checkNotAllKept() {
            int capacity = loader.batchCapacity();
            long deadline = System.nanoTime() + KEPT_GRACE_NANOS;
            for (;;) {
                handedOut.removeIf(NdBatch::isReleased);
                if (handedOut.size() < capacity) {
                    return;
                }
                if (System.nanoTime() - deadline > 0) {
                    throw new IllegalStateException("the training loop keeps all " + handedOut.size() + " of the"
                        + " loader's batches open (DJL batches not closed): their arrays hold the loader's batch"
                        + " memory, so no batch can be filled. Close each Batch after its step (EasyTrain does), or"
                        + " give the loader more batchesInFlight");
                }
                java.util.concurrent.locks.LockSupport.parkNanos(1_000_000);
            }
        }
    }

    /** Options of a {@link LoaderDataset}. Not thread-safe. */
    public static final class Builder {
        private final LongFunction<Loader<Batch>> loaderOfEpoch;
        private NdBatchAdapter adapter = NdBatchAdapter.builder().build();
        private long batchesPerEpoch;

        private Builder(LongFunction<Loader<Batch>> loaderOfEpoch) {
            this.loaderOfEpoch = Objects.requireNonNull(loaderOfEpoch, "loaderOfEpoch");
        }

        /**
         * Sets how batches become arrays (default {@code NdBatchAdapter.builder().build()}: int32 labels).
         *
         * @param batchAdapter the adapter
         * @return this builder
         */
        public Builder adapter(NdBatchAdapter batchAdapter) {
            this.adapter = Objects.requireNonNull(batchAdapter, "adapter");
            return this;
        }

        /**
         * Sets the batches of one pass as DJL batches report it ({@code Batch.getProgressTotal()}, for progress bars;
         * default 0, unknown).
         *
         * @param n zero or more
         * @return this builder
         */
        public Builder batchesPerEpoch(long n) {
            if (n < 0) {
                throw new IllegalArgumentException("batchesPerEpoch must be >= 0, got " + n);
            }
            this.batchesPerEpoch = n;
            return this;
        }

        /** {@return the dataset} */
        public LoaderDataset build() {
            return new LoaderDataset(this);
        }
    }
}
