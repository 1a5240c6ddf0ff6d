package org.spdl4j.loader;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import org.spdl4j.engine.EngineConfiguration;
import org.spdl4j.engine.FailureBudget;
import org.spdl4j.engine.OutputOrder;
import org.spdl4j.engine.WaitPolicy;
import org.spdl4j.engine.source.RankInfo;
import org.spdl4j.engine.source.http.HttpFetchSettings;
import org.spdl4j.engine.tune.TuneListener;
import org.spdl4j.engine.tune.TunerSettings;
import org.spdl4j.loader.internal.LoaderRecipe;
import org.spdl4j.loader.internal.Reshard;
import org.spdl4j.offheap.DirectMemoryAllocator;
import org.spdl4j.offheap.MemoryAllocator;
import org.spdl4j.offheap.batch.BatchTransfer;
import org.spdl4j.offheap.batch.SlotDecoder;

/**
 * Describes a loader: a {@link SampleSource}, a {@link SlotDecoder} (required both), then how it runs. Every option
 * has a default; {@link #build()} checks the recipe and builds the loader (its threads start at the first batch).
 *
 * <pre>{@code
 * try (Loader<Batch> loader = Loader.builder()
 *         .source(SampleSource.folder(Path.of("train")))
 *         .decoder(ImageSlotDecoder.evaluation(256, 224))     // media-native
 *         .batchSize(32).epochs(3).seed(7)
 *         .build()) {
 *     for (LoadedBatch<Batch> batch : loader) {
 *         try (batch) { step(batch.data().tensor(), batch.labels()); }
 *     }
 * }
 * }</pre>
 *
 * <p><b>Ownership:</b> the decoder and the transfer given here belong to the loader from {@link #build()} on (it
 * closes them, also when the build fails). <b>Threading:</b> not thread-safe; fill it in on one thread.
 *
 * @param <T> the type of a delivered batch's data: {@link org.spdl4j.offheap.batch.Batch}, or the transfer's result
 */
public final class LoaderBuilder<T> {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(LoaderBuilder.class);
    /** What was given to a loader (decoders, transfers), with the loader's name: each belongs to one loader. */
    private static final List<Given> GIVEN = new java.util.ArrayList<>();
    /** Samples per batch unless {@link #batchSize} sets another. */
    public static final int DEFAULT_BATCH_SIZE = 32;
    /** Host batches allocated at once unless {@link #batchesInFlight} sets another. */
    public static final int DEFAULT_BATCHES_IN_FLIGHT = 4;
    /** Batches the sink holds for the consumer unless {@link #bufferSize} sets another. */
    public static final int DEFAULT_BUFFER_SIZE = 4;
    /** The longest a file read may take unless {@link #readTimeout} sets another: then it fails, and the run goes on. */
    public static final Duration DEFAULT_READ_TIMEOUT = Duration.ofSeconds(60);
    /** The seed unless {@link #seed} sets another. */
    public static final long DEFAULT_SEED = 0;

    private String name = "loader";
    private SampleSource source;
    private SlotDecoder decoder;
    private BatchTransfer<?> transfer;
    private int batchSize = DEFAULT_BATCH_SIZE;
    private long epochs = 1;
    private long seed = DEFAULT_SEED;
    private boolean shuffle = true;
    private RankInfo rank = RankInfo.SINGLE;
    private LoaderState resume;
    private Consumer<SampleFailure> onFailure;
    private List<String> textFields = List.of();
    private boolean epochAligned;
    private List<LoaderState> resumeAll;
    private OutputOrder order = OutputOrder.COMPLETION;
    private int readConcurrency = 4 * Runtime.getRuntime().availableProcessors();
    private int decodeConcurrency = Runtime.getRuntime().availableProcessors();
    private TunerSettings autotune;
    private TuneListener tuneListener = TuneListener.NONE;
    private WaitPolicy waitPolicy = EngineConfiguration.DEFAULT_WAIT_POLICY;
    private int batchesInFlight = DEFAULT_BATCHES_IN_FLIGHT + Runtime.getRuntime().availableProcessors() / 4;
    private int bufferSize = DEFAULT_BUFFER_SIZE;
    private boolean dropLast;
    private MemoryAllocator batchMemory = DirectMemoryAllocator.INSTANCE;
    private FailureBudget failureBudget = FailureBudget.UNLIMITED;
    private HttpFetchSettings http = HttpFetchSettings.defaults();
    private Duration decodeTimeout;
    private Duration readTimeout = DEFAULT_READ_TIMEOUT;

    LoaderBuilder() {
    }

    /**
     * Names the loader (threads {@code spdl4j-<name>-<stage>-<n>}, stats, pools); default "loader".
     *
     * @param loaderName the name
     * @return this builder
     */
    public LoaderBuilder<T> name(String loaderName) {
        this.name = Objects.requireNonNull(loaderName, "name");
        return this;
    }

    /**
     * Sets where the samples come from. Required.
     *
     * @param samples the source
     * @return this builder
     */
    public LoaderBuilder<T> source(SampleSource samples) {
        this.source = Objects.requireNonNull(samples, "source");
        return this;
    }

    /**
     * Sets what decodes a sample into its batch slot; the batch layout is {@code [batchSize, ...decoder's sample
     * shape]} of the decoder's type. Required; owned by the loader from {@link #build()} on.
     *
     * @param slotDecoder the decoder (images, video or audio from media-native, or a user's own)
     * @return this builder
     */
    public LoaderBuilder<T> decoder(SlotDecoder slotDecoder) {
        this.decoder = Objects.requireNonNull(slotDecoder, "decoder");
        return this;
    }

    /**
     * Adds a transfer stage: each host batch goes to the transfer (a host-to-device copy), and the delivered batch's
     * data is what it makes of it. Owned by the loader from {@link #build()} on. For a CUDA copy, give
     * {@link #batchMemory} the device's pinned allocator too.
     *
     * @param batchTransfer the transfer
     * @param <D>           what a transferred batch becomes
     * @return this builder, now describing a loader of {@code D}s
     */
    @SuppressWarnings("unchecked") // only the data type changes; the recipe holds the transfer itself
    public <D extends AutoCloseable> LoaderBuilder<D> transfer(BatchTransfer<D> batchTransfer) {
        this.transfer = Objects.requireNonNull(batchTransfer, "transfer");
        return (LoaderBuilder<D>) this;
    }

    /**
     * Sets samples per batch (default {@value #DEFAULT_BATCH_SIZE}).
     *
     * @param n at least 1
     * @return this builder
     */
    public LoaderBuilder<T> batchSize(int n) {
        this.batchSize = positive("batchSize", n);
        return this;
    }

    /**
     * Sets the number of epochs to run (default 1); batches run across epoch ends without a gap.
     *
     * @param n at least 1
     * @return this builder
     */
    public LoaderBuilder<T> epochs(long n) {
        if (n < 1) {
            throw new IllegalArgumentException("epochs must be >= 1, got " + n);
        }
        this.epochs = n;
        return this;
    }

    /**
     * Sets the seed of the per-epoch shuffle and of each sample's transform seed (default 0).
     *
     * @param runSeed the seed
     * @return this builder
     */
    public LoaderBuilder<T> seed(long runSeed) {
        this.seed = runSeed;
        return this;
    }

    /**
     * Shuffles lists per epoch (default true); tar shards shuffle their shard order. A streamed source keeps its order.
     *
     * @param on whether to shuffle
     * @return this builder
     */
    public LoaderBuilder<T> shuffle(boolean on) {
        this.shuffle = on;
        return this;
    }

    /**
     * Sets this process's rank and the world size (default one rank; {@link RankInfo#fromEnvironment()} reads
     * torchrun's RANK and WORLD_SIZE): each rank loads its own share.
     *
     * @param thisRank the rank
     * @return this builder
     */
    public LoaderBuilder<T> rank(RankInfo thisRank) {
        this.rank = Objects.requireNonNull(thisRank, "rank");
        return this;
    }

    /**
     * Resumes from a saved state: the loader delivers exactly what the run that saved it would have delivered after
     * that point. The recipe must be the saved run's (same source, seed, rank, epochs); the seed and rank are checked.
     *
     * @param state what {@link Loader#state()} returned, or {@code null} to start afresh
     * @return this builder
     */
    public LoaderBuilder<T> resume(LoaderState state) {
        this.resume = state;
        this.resumeAll = null;
        return this;
    }

    /**
     * Resumes a run on another number of ranks (elastic resume): give the latest state of every rank of the saved
     * run, the same on every new rank. Of each epoch the saved ranks were in, every sample they had not settled is
     * delivered exactly once across the new ranks (dealt round-robin, so their counts differ by at most one in that
     * epoch); later epochs are exactly those of an uninterrupted run on the new number of ranks. With the same number
     * of ranks it is {@link #resume(LoaderState)} with this rank's state.
     *
     * <p>Needs a source of a known number of samples ({@link SampleSource#size()} not -1: folders, lists, lists of
     * entries); tar shards, streams and mixtures ({@link SampleSource#mix()}) resume only on the number of ranks they
     * were saved with.
     *
     * @param everyRank each saved rank's {@link Loader#state()}, one per rank, in any order
     * @return this builder
     */
    public LoaderBuilder<T> resume(Collection<LoaderState> everyRank) {
        this.resumeAll = List.copyOf(everyRank);
        this.resume = null;
        return this;
    }

    /**
     * Sets the order samples take their batch slots (default {@code COMPLETION}: a slow sample holds nothing back);
     * {@code INPUT} gives exactly the source's order, batch after batch, run after run.
     *
     * @param outputOrder the order
     * @return this builder
     */
    public LoaderBuilder<T> order(OutputOrder outputOrder) {
        this.order = Objects.requireNonNull(outputOrder, "order");
        return this;
    }

    /**
     * Sets reads in flight (default 4 per core): file reads run on virtual threads, URL fetches asynchronously.
     *
     * @param n at least 1
     * @return this builder
     */
    public LoaderBuilder<T> readConcurrency(int n) {
        this.readConcurrency = positive("readConcurrency", n);
        return this;
    }

    /**
     * Sets decode workers (default one per core).
     *
     * @param n at least 1
     * @return this builder
     */
    public LoaderBuilder<T> decodeConcurrency(int n) {
        this.decodeConcurrency = positive("decodeConcurrency", n);
        return this;
    }

    /**
     * Turns live autotuning on (off by default): while the loader runs, a daemon thread moves the read stage's reads
     * in flight and the decode stage's threads from their live stats (busy, starved and back-pressured shares, ring
     * occupancy, task times), starting from {@link #readConcurrency} and {@link #decodeConcurrency}: decode threads
     * within {@link TunerSettings#cpuBudget()}, reads in flight times 1 MB (a pooled read buffer) within
     * {@link TunerSettings#memoryBudget()}. A change is kept only when it pays ({@link TunerSettings#minGain()}); each is
     * one log line and one {@link TuneListener#changed} call, and the configuration it settles on goes to
     * {@link TuneListener#settled}. The decode stage starts {@code cpuBudget} threads and parks those past the limit;
     * the read stage has room for the budget's reads. See {@link org.spdl4j.engine.tune.ConcurrencyTuner}.
     *
     * @param settings the budgets and timing ({@link TunerSettings#defaults()}: the cores, 256 MiB)
     * @param listener told of every change and of the settled configuration
     * @return this builder
     */
    public LoaderBuilder<T> autotune(TunerSettings settings, TuneListener listener) {
        this.autotune = java.util.Objects.requireNonNull(settings, "settings");
        this.tuneListener = java.util.Objects.requireNonNull(listener, "listener");
        return this;
    }

    /**
     * Sets how every stage and the consumer wait (default {@link EngineConfiguration#DEFAULT_WAIT_POLICY}: BACKOFF,
     * idle stages cost nothing, unless {@value EngineConfiguration#WAIT_POLICY_PROP} names another).
     *
     * @param policy the policy
     * @return this builder
     */
    public LoaderBuilder<T> waitPolicy(WaitPolicy policy) {
        this.waitPolicy = Objects.requireNonNull(policy, "waitPolicy");
        return this;
    }

    /**
     * Sets host batches allocated at once (default 4 plus one per 4 cores): the bound on batch memory.
     *
     * @param n at least 2
     * @return this builder
     */
    public LoaderBuilder<T> batchesInFlight(int n) {
        if (n < 2) {
            throw new IllegalArgumentException("batchesInFlight must be >= 2, got " + n);
        }
        this.batchesInFlight = n;
        return this;
    }

    /**
     * Sets batches ready for the consumer at most (default {@value #DEFAULT_BUFFER_SIZE}).
     *
     * @param n a power of two
     * @return this builder
     */
    public LoaderBuilder<T> bufferSize(int n) {
        if (Integer.bitCount(n) != 1) {
            throw new IllegalArgumentException("bufferSize must be a power of two, got " + n);
        }
        this.bufferSize = n;
        return this;
    }

    /**
     * Drops a partial last batch instead of delivering it (default false): the run's last, or with
     * {@link #epochAligned} each epoch's. Its samples count as settled.
     *
     * @param drop whether to drop it
     * @return this builder
     */
    public LoaderBuilder<T> dropLast(boolean drop) {
        this.dropLast = drop;
        return this;
    }

    /**
     * Sets where host batch memory comes from (default direct memory; a device's pinned allocator for fast copies).
     *
     * @param memory the allocator
     * @return this builder
     */
    public LoaderBuilder<T> batchMemory(MemoryAllocator memory) {
        this.batchMemory = Objects.requireNonNull(memory, "batchMemory");
        return this;
    }

    /**
     * Sets the failures each stage tolerates before the run fails (default unlimited: bad samples are counted,
     * logged and skipped).
     *
     * @param budget the budget
     * @return this builder
     */
    public LoaderBuilder<T> failureBudget(FailureBudget budget) {
        this.failureBudget = Objects.requireNonNull(budget, "failureBudget");
        return this;
    }

    /**
     * Sets retries, timeouts and the per-endpoint circuit breaker of URL fetches (requests in flight are
     * {@link #readConcurrency}). While an endpoint's breaker is open ({@link HttpFetchSettings#circuitBreaker()}), its
     * samples fail at once, unsent, each counted on the read stage against the {@link #failureBudget}.
     *
     * @param settings the settings
     * @return this builder
     */
    public LoaderBuilder<T> http(HttpFetchSettings settings) {
        this.http = Objects.requireNonNull(settings, "http");
        return this;
    }

    /**
     * Fails a file read that takes longer than this (default {@link #DEFAULT_READ_TIMEOUT}): a hung mount or a FIFO
     * costs one sample, counted on the read stage, not the run. The read's virtual thread is left to end by itself; a
     * sample that timed out is read again when the run is resumed. URL fetches have their own attempt deadlines
     * ({@link #http}).
     *
     * @param timeout the longest a read may take, positive
     * @return this builder
     */
    public LoaderBuilder<T> readTimeout(Duration timeout) {
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("readTimeout must be positive, got " + timeout);
        }
        this.readTimeout = timeout;
        return this;
    }

    /**
     * Fails a decode that takes longer than this (default none): measured when the decoder returns, the sample fails
     * (counted, logged naming it, settled) and its batch goes out without it. The decoder is not interrupted.
     *
     * @param timeout the longest a decode may take (positive), or {@code null} for none
     * @return this builder
     */
    public LoaderBuilder<T> decodeTimeout(Duration timeout) {
        if (timeout != null && (timeout.isNegative() || timeout.isZero())) {
            throw new IllegalArgumentException("decodeTimeout must be positive (or null for none), got " + timeout);
        }
        this.decodeTimeout = timeout;
        return this;
    }

    /**
     * Aligns batches to epochs (default false): no batch holds samples of two epochs, and each epoch ends with its own
     * last batch, partial unless {@link #dropLast} drops it, as a PyTorch {@code DataLoader} epoch does. At each
     * epoch's end the source waits for the epoch's samples in flight to be assigned their batch (a pause of about one
     * read) before the next epoch starts. Without it batches run across epoch ends and each sample says its epoch
     * ({@link LoadedBatch#epoch}).
     *
     * @param aligned whether to align
     * @return this builder
     */
    public LoaderBuilder<T> epochAligned(boolean aligned) {
        this.epochAligned = aligned;
        return this;
    }

    /**
     * Delivers text members of each tar-shard sample with its batch ({@link LoadedBatch#text}): a caption
     * ({@code txt}), metadata ({@code json}), anything its writer stored as text, read as UTF-8 on the source thread
     * (a string per member, so for captions and metadata, not for large blobs). Samples of other sources, and samples
     * without such a member, have none ({@code null}).
     *
     * @param extensions the members' extensions, as WebDataset names them ({@code "txt"}, {@code "json"}); none by
     *                   default
     * @return this builder
     * @throws IllegalArgumentException when an extension is empty or given twice
     */
    public LoaderBuilder<T> textFields(String... extensions) {
        List<String> list = List.of(extensions);
        if (list.stream().anyMatch(String::isEmpty) || list.stream().distinct().count() != list.size()) {
            throw new IllegalArgumentException("text fields must be distinct, non-empty extensions; got " + list);
        }
        this.textFields = list;
        return this;
    }

    /**
     * Sets who is told of each sample (or tar shard) the loader could not deliver, once each, as it fails: to keep a
     * list of bad samples, count them by cause, or stop early on a policy of one's own. Failures are also counted on
     * their stage ({@link Loader#stats()}), logged naming the sample, and judged by the {@link #failureBudget}.
     *
     * <p>Called on the failing stage's thread, from several at once: it must be thread-safe and quick. What it throws
     * is logged and ignored.
     *
     * @param listener told of each failure, or {@code null} for none
     * @return this builder
     */
    public LoaderBuilder<T> onFailure(Consumer<SampleFailure> listener) {
        this.onFailure = listener;
        return this;
    }

    /**
     * Builds the loader: opens its pools and checks the recipe. Its threads start at the first batch asked for.
     *
     * @return the loader
     * @throws IllegalStateException    when the source or the decoder is missing (the message names them)
     * @throws IllegalArgumentException when a resumed state is another run's (seed or rank differ)
     */
    public Loader<T> build() {
        String missing = (source == null ? " source(SampleSource)" : "") + (decoder == null ? " decoder(SlotDecoder)"
            : "");
        if (!missing.isEmpty()) {
            closeOwned();
            throw new IllegalStateException("loader '" + name + "' is missing:" + missing);
        }
        claimOwned();
        LoaderState from;
        try {
            from = resumeAll != null ? elastic() : resume != null ? resume
                : LoaderState.start(seed, rank.rank(), rank.worldSize());
        } catch (RuntimeException e) {
            closeOwned();
            throw e;
        }
        if (resumeAll != null ? resumeAll.stream().anyMatch(this::otherSource) : resume != null && otherSource(resume)) {
            closeOwned();
            throw new IllegalArgumentException("loader '" + name + "': the state to resume was saved over other"
                + " samples than " + source.describe() + " (files added, removed or renamed, or another source) or with"
                + " the other shuffle setting (this loader's is " + (shuffle ? "on" : "off") + "): its positions would"
                + " name other samples. Resume over the data and order it was saved with, or start afresh");
        }
        if (from.seed() != seed || from.rank() != rank.rank() || from.worldSize() != rank.worldSize()) {
            closeOwned();
            throw new IllegalArgumentException("loader '" + name + "': the state to resume (" + from.encode()
                + ") was saved with seed " + from.seed() + ", rank " + from.rank() + "/" + from.worldSize()
                + " but this loader has seed " + seed + ", rank " + rank.rank() + "/" + rank.worldSize()
                + "; build it with the saved run's seed and rank");
        }
        if (source.size() > 0 && source.samplesPerEpoch(rank) == 0) {
            LOG.warn("loader '{}': rank {} of {} gets no sample of {} per epoch (fewer samples than ranks); it"
                + " delivers nothing", name, rank.rank(), rank.worldSize(), source.describe());
        }
        if (from.epoch() >= epochs && (resume != null || resumeAll != null)) {
            LOG.warn("loader '{}': the state to resume has done {} epoch(s) and this loader runs {}: it has nothing to"
                + " load (give epochs(n) the epochs the run should reach)", name, from.epoch(), epochs);
        }
        return new Loader<>(new LoaderRecipe(name, source.entries(), decoder, transfer, batchSize, epochs, seed,
            shuffle, rank, from, order, readConcurrency, decodeConcurrency, waitPolicy, batchesInFlight, bufferSize,
            dropLast, batchMemory, failureBudget, http, decodeTimeout, readTimeout, onFailure, autotune, tuneListener,
            textFields, epochAligned));
    }

    /** Whether a saved state records a fingerprint of other samples than this source's. */
    private boolean otherSource(LoaderState saved) {
        return saved.source() != 0 && saved.source() != LoaderRecipe.stateFingerprint(source.entries(), shuffle);
    }

    /** The state of this rank from every saved rank's: that rank's own when the number of ranks is the same. */
    private LoaderState elastic() {
        if (!resumeAll.isEmpty() && resumeAll.get(0).worldSize() == rank.worldSize()) {
            for (LoaderState s : resumeAll) {
                if (s.rank() == rank.rank()) {
                    return s;
                }
            }
        }
        long size = source.size();
        if (size >= 0 && !source.entries().reshardable()) {
            throw new IllegalArgumentException("loader '" + name + "': " + source.entries().describe()
                + " cannot resume on another number of ranks (" + rank.worldSize() + ") than it was saved with ("
                + (resumeAll.isEmpty() ? "?" : resumeAll.get(0).worldSize()) + "): a mixture interleaves each rank's"
                + " own share of its parts; resume it on the saved number of ranks");
        }
        if (size < 0) {
            throw new IllegalArgumentException("loader '" + name + "': " + source.entries().describe()
                + " cannot resume on another number of ranks (" + rank.worldSize() + ") than it was saved with ("
                + (resumeAll.isEmpty() ? "?" : resumeAll.get(0).worldSize()) + "): its size is known only once read;"
                + " resume it on the saved number of ranks, or list its samples (a folder or a list)");
        }
        for (LoaderState s : resumeAll) {
            if (s.seed() != seed) {
                throw new IllegalArgumentException("loader '" + name + "': the states to resume were saved with"
                    + " seed " + s.seed() + " but this loader has seed " + seed + "; build it with the saved seed");
            }
        }
        return Reshard.of(resumeAll, size, rank.rank(), rank.worldSize());
    }

    /** One decoder or transfer given to a loader: compared by identity, held weakly. */
    private record Given(java.lang.ref.WeakReference<Object> owned, String loader) {
    }

    /**
     * Marks the decoder and the transfer as given to this loader, which will close them: one given to another loader
     * before is refused (closed with that loader, it would fail every sample here; a decoder's thread state is not to
     * be shared) and left to that loader, while what is this loader's own is closed. By identity, not equals (two
     * equal decoders are two decoders); weakly held (what nothing else refers to is forgotten).
     */
    private void claimOwned() {
        synchronized (GIVEN) {
            GIVEN.removeIf(g -> g.owned().get() == null);
            String decoderOwner = ownerOf(decoder);
            String transferOwner = transfer == null ? null : ownerOf(transfer);
            if (decoderOwner == null && transferOwner == null) {
                GIVEN.add(new Given(new java.lang.ref.WeakReference<>(decoder), name));
                if (transfer != null) {
                    GIVEN.add(new Given(new java.lang.ref.WeakReference<>(transfer), name));
                }
                return;
            }
            if (decoderOwner == null) {
                decoder.close();
            }
            if (transfer != null && transferOwner == null) {
                transfer.close();
            }
            boolean decoderTaken = decoderOwner != null;
            throw new IllegalStateException("loader '" + name + "': this " + (decoderTaken ? "decoder" : "transfer")
                + " (" + (decoderTaken ? decoder : transfer) + ") was given to loader '"
                + (decoderTaken ? decoderOwner : transferOwner) + "' already, which owns it and closes it with itself;"
                + " give each loader its own (make it where you build the loader, e.g. in the per-epoch factory)");
        }
    }

    /** {@return the loader {@code o} was given to, or null} Holding {@link #GIVEN}'s lock. */
    private static String ownerOf(Object o) {
        for (Given g : GIVEN) {
            if (g.owned().get() == o) {
                return g.loader();
            }
        }
        return null;
    }

    private void closeOwned() {
        if (decoder != null) {
            decoder.close();
        }
        if (transfer != null) {
            transfer.close();
        }
    }

    private static int positive(String what, int n) {
        if (n < 1) {
            throw new IllegalArgumentException(what + " must be >= 1, got " + n);
        }
        return n;
    }
}
