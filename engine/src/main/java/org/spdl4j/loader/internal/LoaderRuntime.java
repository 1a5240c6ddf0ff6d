package org.spdl4j.loader.internal;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.spdl4j.engine.FailureListener;
import org.spdl4j.engine.OutputOrder;
import org.spdl4j.engine.Pipeline;
import org.spdl4j.engine.PipelineBuilder;
import org.spdl4j.engine.StageOptions;
import org.spdl4j.engine.source.LargeBufferTurns;
import org.spdl4j.engine.source.PooledSampleAllocator;
import org.spdl4j.engine.source.http.HttpFetchSettings;
import org.spdl4j.engine.source.http.HttpObjectFetcher;
import org.spdl4j.engine.source.http.LargeBodies;
import org.spdl4j.engine.stats.StageStats;
import org.spdl4j.engine.tune.ConcurrencyTuner;
import org.spdl4j.engine.tune.TuneKnob;
import org.spdl4j.loader.SampleFailure;
import org.spdl4j.offheap.BufferPool;
import org.spdl4j.offheap.CleanupFailures;
import org.spdl4j.offheap.PoolConfig;
import org.spdl4j.offheap.batch.Batch;
import org.spdl4j.offheap.batch.BatchAssembler;
import org.spdl4j.offheap.tensor.BatchDescriptor;

/**
 * Everything one loader owns, and the pipeline built from its recipe:
 *
 * <pre>
 *  source ──ring──> read ──ring──> assign ──ring──> decode x N ──ring──> [transfer] ──ring──> sink ──> consumer
 *  (epochs, rank,   (files: virtual  (each item its   (decoder writes the      (async, K in     (records; the
 *   seed; settled    threads; URLs:   slot, in order;  sample into its slot;    flight)          consumer's receipt
 *   positions        async; tar:      item parked in   the last slot's task                      settles their
 *   passed over)     none)            the slot table)  returns the batch)                        samples)
 * </pre>
 *
 * <p><b>Ownership:</b> the pools (encoded bytes, batches, labels), the assembler, slot table, decoder, fetcher (or
 * object reads in flight) and transfer, freed by {@link #close()} once every stage thread has stopped. <b>Threading:</b> built on one thread;
 * the stages run on the engine's; {@link #progress()} is thread-safe.
 */
public final class LoaderRuntime implements AutoCloseable {
    /** The read stage's name (files and URLs; tar shards are read by the source). */
    public static final String READ_STAGE = "read";
    /** The assign stage's name. */
    public static final String ASSIGN_STAGE = "assign";
    /** The decode stage's name. */
    public static final String DECODE_STAGE = "decode";
    /** The transfer stage's name. */
    public static final String TRANSFER_STAGE = "transfer";

    private static final Logger LOG = LoggerFactory.getLogger(LoaderRuntime.class);
    private static final int RING = 16;
    /** The largest file whose size classes hold a slab for every item in flight; larger ones are few. */
    private static final int PLENTIFUL_BYTES = 1024 * 1024;
    private static final int LARGEST_BYTES = 32 * 1024 * 1024;
    private static final Duration ACQUIRE_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration BATCH_TIMEOUT = Duration.ofSeconds(600);
    private static final long REAPER_POLL_MILLIS = 100;
    /** How often an epoch's end, waiting for its items to reach the assign stage, says it still waits. */
    private static final Duration EPOCH_END_WARNING = Duration.ofSeconds(60);

    private final LoaderRecipe recipe;
    private final LoaderControl control;
    private final Progress progress;
    private final LoaderItemPool items;
    private final CloseList owned = new CloseList();
    private final AtomicBoolean closed = new AtomicBoolean();
    /** The consumer keeps delivered batches past the close ({@link #consumerHolds}). */
    private volatile boolean consumerHolds;
    /** Delivered records closed so far (by the consumer; at close, by the sweep). */
    private final AtomicLong recordsClosed = new AtomicLong();
    /**
     * The most batches the consumer can hold before the loader has no batch memory left to fill: the host batches
     * without a transfer; with one, the transfer's own bound (unknown here), so no limit is checked.
     */
    private final int consumerCapacity;
    private final SlotTable table;
    private final DecodeStage decode;
    private final Pipeline<BatchRecord> pipeline;
    /** The live tuner of read and decode concurrency, or {@code null}. */
    private final ConcurrencyTuner tuner;

    /**
     * Opens the pools, decoder state and stages, and builds (does not start) the pipeline.
     *
     * @param r the recipe
     */
    public LoaderRuntime(LoaderRecipe r) {
        this.recipe = r;
        this.control = new LoaderControl(r.epochAligned());
        // Items live from the source until decoded: three rings (source -> read -> assign -> decode; items in the
        // last wait in the slot table), the tasks in flight in read and decode, one in the source's and one in the
        // assigner's hand, and slack.
        int itemsInFlight = r.readMax() + r.decodeMax() + 3 * RING + 4; // the tuner's ceilings when it runs
        this.items = new LoaderItemPool(2 * itemsInFlight);
        owned.add(r.decoder());
        boolean transferOwned = false;
        try {
            Map<Long, Long> shares = new TreeMap<>();
            r.from().carried().forEach((e, carry) -> shares.put(e, r.source().epochLength(r.rank(), carry)));
            this.progress = new Progress(r.from(), r.source().epochLength(r.rank()), shares); // may refuse the state
            // Up to 1 MB every item in flight can hold a slab (with INPUT order finished reads wait for the oldest,
            // and a smaller class could be held entirely by reads waiting behind one that waits for a slab); larger
            // samples are few: a read finding its class empty takes a larger slab, and with INPUT order large reads
            // take theirs in input order (LargeBufferTurns). Small members (tar labels) get small slabs. Pages are
            // touched only as used.
            BufferPool bytes = owned.add(BufferPool.open(PoolConfig.builder(r.name() + "-encoded")
                .sizeClass(4 * 1024, 2 * itemsInFlight)
                .sizeClass(128 * 1024, itemsInFlight)
                .sizeClass(PLENTIFUL_BYTES, itemsInFlight)
                .sizeClass(4 * 1024 * 1024, 4)
                .sizeClass(LARGEST_BYTES, 2)
                .acquireTimeout(ACQUIRE_TIMEOUT)
                .build()));
            BatchDescriptor layout = BatchDescriptor.of(r.batchSize(), r.decoder().dtype(),
                r.decoder().sampleShape());
            BufferPool batches = BufferPool.open(PoolConfig.builder(r.name() + "-batches")
                .allocator(r.batchMemory()).dmaAligned().sizeClass(layout.batchBytes(), r.batchesInFlight())
                .acquireTimeout(BATCH_TIMEOUT).build());
            owned.add(() -> closeConsumersPool(batches));
            BatchAssembler assembler = owned.add(BatchAssembler.builder(batches, layout).dropLast(r.dropLast())
                .batchesInFlight(r.batchesInFlight()).acquireTimeout(BATCH_TIMEOUT).onDropped(this::settleDropped)
                .build());
            // Labels of delivered batches: a record holds one slab from completion until the consumer closes it.
            // Records alive are bounded by the host batches plus the transfer's and the sink's room; the rest is
            // room for a consumer that keeps some.
            int transferRoom = r.transfer() == null ? 0 : r.transfer().maxInFlight();
            BufferPool labels = BufferPool.open(PoolConfig.builder(r.name() + "-labels")
                .sizeClass(Math.max(64, r.batchSize() * Integer.BYTES),
                    2 * (r.batchesInFlight() + transferRoom + r.bufferSize()) + 32)
                .acquireTimeout(BATCH_TIMEOUT).build());
            owned.add(() -> closeConsumersPool(labels));
            if (r.transfer() != null) {
                owned.add(r.transfer()); // closed before the assembler: it drains copies, closing their host batches
            }
            transferOwned = true;
            this.table = new SlotTable(assembler.batchesInFlight(), r.batchSize(), r.textFields());
            owned.add(() -> table.drain(items::release)); // before the pools: parked items give their bytes back
            this.decode = new DecodeStage(r.name() + ":" + DECODE_STAGE, table, r.decoder(), items, labels, control,
                r.taskTimeout(), recordsClosed);
            this.consumerCapacity = r.transfer() == null ? assembler.batchesInFlight() : Integer.MAX_VALUE;
            owned.add(decode::closeWatch); // its watcher thread ends with the loader
            ReadKind kind = r.source().readKind();
            // Tar shards are read on the source thread: their opens and reads get the file reads' deadline.
            EntrySource entries = r.source().withReadDeadline(r.readTimeout());
            LargeBufferTurns turns = kind == ReadKind.FILES && r.order() == OutputOrder.INPUT
                && !r.decoder().readsFiles() ? new LargeBufferTurns(ACQUIRE_TIMEOUT) : null;
            PooledSampleAllocator sampleBytes = new PooledSampleAllocator(bytes);
            StageOptions base = StageOptions.defaults().withWaitPolicy(r.waitPolicy()).withRingCapacity(RING)
                .withOrder(r.order()).withFailureBudget(r.failureBudget());
            AssignStage assign = new AssignStage(r.name() + ":" + ASSIGN_STAGE, assembler, table, items, control,
                progress);
            PipelineBuilder<LoaderItem> head = PipelineBuilder.<LoaderItem>fromSource(() -> new ItemSource(
                    entries, r.from(), r.epochs(), r.seed(), r.shuffle(), sampleBytes, items, progress, turns,
                    r.textFields(), control, r.epochAligned() ? EPOCH_END_WARNING : null))
                .named(r.name()).sourceWaitPolicy(r.waitPolicy()).onDiscard(new Undelivered(items, control, progress))
                .onFailure((stage, item, cause) -> {
                    control.failed(stage, item); // before the user's listener, whatever it does
                    if (r.onFailure() != null) {
                        r.onFailure().accept(item instanceof LoaderItem i
                            ? new SampleFailure(stage, i.key, i.epoch, i.position, cause)
                            : new SampleFailure(stage, String.valueOf(item), -1, -1, cause));
                    }
                });
            head = switch (kind) {
                case FILES -> head.pipeVirtual(READ_STAGE, new FileReadStage(bytes, items, turns, PLENTIFUL_BYTES,
                    r.decoder().readsFiles(), progress, control), adjustable(base.withConcurrency(r.readConcurrency()),
                    r.readMax(), r)
                    .withTaskTimeout(r.readTimeout())); // a hung mount or a FIFO costs one sample, not the run
                case HTTP -> head.pipeAsync(READ_STAGE, new HttpReadStage(fetcher(r, sampleBytes), items, progress,
                    control), adjustable(base.withConcurrency(r.readConcurrency()), r.readMax(), r));
                case OBJECTS -> head.pipeAsync(READ_STAGE, owned.add(new ObjectReadStage(r.source().objectStore(),
                    sampleBytes, items, progress, control)), adjustable(base.withConcurrency(r.readConcurrency()),
                    r.readMax(), r));
                case INLINE -> head;
            };
            // No engine task timeout on decode (DecodeStage measures it): the engine discards what a timed-out task
            // returns, and the task that completes a batch returns the whole batch.
            StageOptions decodeOptions = adjustable(base.withConcurrency(r.decodeConcurrency()), r.decodeMax(), r);
            PipelineBuilder<BatchRecord> tail = head
                .aggregate(ASSIGN_STAGE, () -> assign, base.withConcurrency(1))
                .pipe(DECODE_STAGE, decode, decodeOptions);
            if (r.transfer() != null) {
                tail = tail.pipeAsync(TRANSFER_STAGE, new TransferStage(r.transfer()),
                    base.withConcurrency(r.transfer().maxInFlight()));
            }
            this.pipeline = tail.sink(r.bufferSize(), r.waitPolicy()).build();
            this.tuner = r.autotune() == null ? null : tuner(r, kind);
        } catch (RuntimeException | Error e) {
            // Nothing has started: free what was built so far (pools are off-heap memory, the fetcher a thread).
            if (!transferOwned && r.transfer() != null) {
                owned.add(r.transfer());
            }
            owned.closeQuietly(e);
            throw e;
        }
    }

    /**
     * A batch dropped, not returned (every sample failed, or {@code dropLast} dropped a partial one): its samples are
     * settled here, or the epoch's watermark would stay at them and the run could not say it is done (decode workers,
     * or the assign stage's flush; not while closing, when a failure is the close's and the sample runs again on
     * resume).
     */
    private void settleDropped(Batch batch) {
        if (!control.isClosing()) {
            table.settleDropped(batch, progress);
        }
    }

    private HttpObjectFetcher fetcher(LoaderRecipe r, PooledSampleAllocator bytes) {
        HttpFetchSettings s = r.http();
        HttpFetchSettings capped = new HttpFetchSettings(r.readMax(), s.maxAttempts(), s.attemptTimeout(),
            s.connectTimeout(), s.initialBackoff(), s.maxBackoff(), Math.min(s.maxBodyBytes(), LARGEST_BYTES),
            s.circuitBreaker());
        // Bodies over 1 MB share the largest slabs; with INPUT order they take them in list order, so none waits
        // for a slab a younger body holds while it waits, held, behind the older one.
        return owned.add(new HttpObjectFetcher(capped, bytes,
            new LargeBodies(PLENTIFUL_BYTES, r.order() == OutputOrder.INPUT)));
    }

    /** With the tuner on, a stage starts its ceiling of workers or task slots and lets the first ones work. */
    private static StageOptions adjustable(StageOptions o, int max, LoaderRecipe r) {
        return r.autotune() == null ? o : o.withMaxConcurrency(max);
    }

    /** The tuner over read (files, URLs: its reads in flight) and decode (its threads); images decoded are its yield. */
    private ConcurrencyTuner tuner(LoaderRecipe r, ReadKind kind) {
        List<TuneKnob> knobs = new ArrayList<>();
        if (kind != ReadKind.INLINE) {
            knobs.add(new TuneKnob(READ_STAGE, LoaderRecipe.READ_BYTES));
        }
        knobs.add(new TuneKnob(DECODE_STAGE, 0));
        ConcurrencyTuner t = new ConcurrencyTuner(pipeline, knobs, DECODE_STAGE, r.autotune(), r.tuneListener());
        t.start(); // measures from the first image on
        return t;
    }

    /** {@return the live tuner, or {@code null} when the loader runs fixed concurrencies} */
    public ConcurrencyTuner tuner() {
        return tuner;
    }

    /** {@return the pipeline (stats, next with a timeout)} */
    public Pipeline<BatchRecord> pipeline() {
        return pipeline;
    }

    /** {@return what the loader has settled} */
    public Progress progress() {
        return progress;
    }

    /** {@return the recipe} */
    public LoaderRecipe recipe() {
        return recipe;
    }

    /**
     * Closes a pool whose leases delivered batches hold: quietly when the consumer keeps batches past the loader's
     * close (the loader said so; their memory stays valid until each is closed), else reporting held leases as leaks.
     */
    private void closeConsumersPool(BufferPool pool) {
        if (consumerHolds) {
            pool.closeWhileHeld();
        } else {
            pool.close();
        }
    }

    /**
     * Tells the close that follows that the consumer keeps delivered batches, which it will close itself.
     *
     * @param holds whether it does
     */
    public void consumerHolds(boolean holds) {
        this.consumerHolds = holds;
    }

    /**
     * {@return how many of the delivered batches the consumer still holds}
     *
     * @param delivered batches delivered so far
     */
    public long batchesHeld(long delivered) {
        return delivered - recordsClosed.get();
    }

    /** {@return the most delivered batches the consumer may hold and still get another, or Integer.MAX_VALUE} */
    public int consumerCapacity() {
        return consumerCapacity;
    }

    /**
     * {@return failures so far: samples unreadable (read stage) or undecodable (decode stage), and tar shards that
     * failed part-way (the source's; each shard once, whatever it held after the fault)}
     */
    public long failures() {
        long n = 0;
        List<StageStats> stats = pipeline.stats();
        for (int i = 0; i < stats.size(); i++) {
            StageStats s = stats.get(i);
            if (i == 0 || s.stage().equals(READ_STAGE) || s.stage().equals(DECODE_STAGE)) { // 0: the source
                n += s.failures();
            }
        }
        return n;
    }

    /** {@return the first failure of the earliest stage that had one (it names the sample), or {@code null}} */
    public Throwable firstFailure() {
        List<StageStats> stats = pipeline.stats();
        for (StageStats s : stats) {
            if (s.firstFailure() != null && !s.stage().equals(ASSIGN_STAGE)) {
                return s.firstFailure();
            }
        }
        return decode.firstFailure();
    }

    /**
     * Stops the pipeline (what it never delivered goes back to its pools through the discard hook), then frees
     * everything the loader owns, each even when an earlier one fails. When a stage function outlives the pipeline's
     * close (it ignores interrupts), nothing is freed under it: a daemon thread frees it all once it has ended.
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return; // one close frees (or hands freeing to one reaper); a second would race it
        }
        if (tuner != null) {
            tuner.close(); // first: it reads the stages' counters and moves their limits
        }
        control.closing();
        pipeline.close();
        if (!pipeline.finishClose()) { // not isTerminated: a stage that ends just now still needs its sweep
            // A task ignores interrupts (a read hung in the kernel, a decoder stuck in native code): nothing it may
            // still touch is freed under it. A daemon thread frees it all once the last stage thread has ended.
            LOG.warn("loader '{}': a stage is still running after close (it ignores interrupts); its pools, decoder "
                + "and transfer are freed when it ends", recipe.name());
            Thread.ofPlatform().daemon().name("spdl4j-" + recipe.name() + "-reaper").start(this::closeOnceStopped);
            return;
        }
        owned.close();
    }

    /**
     * Waits (polling, a daemon thread) until every stage thread has ended, lets the pipeline sweep what its rings
     * still hold back to the pools (its close could not, under a running thread), then frees what the loader owns.
     */
    private void closeOnceStopped() {
        try {
            while (!pipeline.finishClose()) {
                Thread.sleep(REAPER_POLL_MILLIS);
            }
            owned.close();
        } catch (InterruptedException e) {
            LOG.error("loader '{}': interrupted while waiting for a stuck stage; its pools stay allocated",
                recipe.name());
        } catch (RuntimeException | Error e) {
            LOG.error("loader '{}': freeing its pools after a stuck stage ended failed", recipe.name(), e);
        }
    }

    /**
     * What the runtime owns, closed in reverse order of adding: the fetcher (requests in flight end, their bodies go
     * back), the slot table's parked items, the transfer (copies drain, host batches close), labels, assembler,
     * batch and bytes pools, and the decoder last.
     */
    private static final class CloseList {
        private final java.util.ArrayDeque<AutoCloseable> stack = new java.util.ArrayDeque<>();

        synchronized <C extends AutoCloseable> C add(C c) {
            stack.push(c);
            return c;
        }

        synchronized void close() { // the loader's close, or its reaper: one of them, but never both at once
            CleanupFailures failures = new CleanupFailures();
            while (!stack.isEmpty()) {
                AutoCloseable c = stack.pop();
                failures.run(() -> {
                    try {
                        c.close();
                    } catch (RuntimeException | Error e) {
                        throw e;
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                });
            }
            failures.rethrow();
        }

        void closeQuietly(Throwable cause) {
            try {
                close();
            } catch (RuntimeException | Error e) {
                cause.addSuppressed(e);
            }
        }
    }
}
