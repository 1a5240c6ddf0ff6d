package org.spdl4j.loader.internal;

import java.util.List;
import java.time.Duration;
import java.util.function.Consumer;
import org.spdl4j.engine.EngineConfiguration;
import org.spdl4j.engine.FailureBudget;
import org.spdl4j.engine.OutputOrder;
import org.spdl4j.engine.WaitPolicy;
import org.spdl4j.engine.source.RankInfo;
import org.spdl4j.engine.source.http.HttpFetchSettings;
import org.spdl4j.engine.tune.TuneListener;
import org.spdl4j.engine.tune.TunerSettings;
import org.spdl4j.loader.LoaderState;
import org.spdl4j.loader.SampleFailure;
import org.spdl4j.offheap.MemoryAllocator;
import org.spdl4j.offheap.batch.BatchTransfer;
import org.spdl4j.offheap.batch.SlotDecoder;

/**
 * A loader's recipe as the builder validated it: what {@link LoaderRuntime} is built from. A value.
 *
 * @param name              pipeline name (threads, stats, pools)
 * @param source            the samples
 * @param decoder           decodes into slots (owned by the loader from build on)
 * @param transfer          the optional transfer (owned by the loader), or {@code null}
 * @param batchSize         samples per batch
 * @param epochs            the first epoch not to run
 * @param seed              shuffle and transform seed
 * @param shuffle           whether to shuffle per epoch
 * @param rank              this rank
 * @param from              where to start
 * @param order             output order of the read and decode stages
 * @param readConcurrency   reads in flight
 * @param decodeConcurrency decode workers
 * @param waitPolicy        every stage's wait policy
 * @param batchesInFlight   host batches allocated at once
 * @param bufferSize        batches the sink holds (power of two)
 * @param dropLast          drop a partial last batch
 * @param batchMemory       where host batch memory comes from
 * @param failureBudget     failures tolerated per stage
 * @param http              fetch settings for URL sources
 * @param taskTimeout       the decode stage's task timeout, or {@code null}
 * @param readTimeout       the file read stage's task timeout
 * @param onFailure         told of each failed sample or shard
 * @param autotune          the live tuner's settings, or {@code null} for fixed concurrencies
 * @param tuneListener      told of the tuner's changes and settled configuration
 * @param textFields        extensions of tar members delivered as text with each batch (none: empty)
 * @param epochAligned      whether no batch holds two epochs (each epoch ends with its own last batch)
 */
public record LoaderRecipe(String name, EntrySource source, SlotDecoder decoder, BatchTransfer<?> transfer,
                           int batchSize, long epochs, long seed, boolean shuffle, RankInfo rank, LoaderState from,
                           OutputOrder order, int readConcurrency, int decodeConcurrency, WaitPolicy waitPolicy,
                           int batchesInFlight, int bufferSize, boolean dropLast, MemoryAllocator batchMemory,
                           FailureBudget failureBudget, HttpFetchSettings http, Duration taskTimeout,
                           Duration readTimeout, Consumer<SampleFailure> onFailure, TunerSettings autotune,
                           TuneListener tuneListener, List<String> textFields, boolean epochAligned) {
    /** Bytes one read in flight is counted as holding against the autotuner's memory budget: a pooled 1 MB slab. */
    public static final long READ_BYTES = 1024 * 1024;

    /** {@return reads in flight the read stage starts with room for: the tuner's ceiling, or the fixed concurrency} */
    public int readMax() {
        if (autotune == null) {
            return readConcurrency;
        }
        long byMemory = autotune.memoryBudget() / READ_BYTES;
        return (int) Math.max(readConcurrency, Math.min(EngineConfiguration.MAX_CONCURRENCY / 64, byMemory));
    }

    /** {@return decode threads the decode stage starts: the tuner's CPU budget, or the fixed concurrency} */
    public int decodeMax() {
        return autotune == null ? decodeConcurrency : Math.max(decodeConcurrency, autotune.cpuBudget());
    }

    /**
     * {@return what a saved state records of the samples and their order: the source's fingerprint, changed when the
     * per-epoch shuffle is off (the same positions name other samples then); 0 when the source has none}
     *
     * @param source  the source
     * @param shuffle whether the run shuffles per epoch
     */
    public static long stateFingerprint(EntrySource source, boolean shuffle) {
        long f = source.fingerprint();
        return f == 0 || shuffle ? f : org.spdl4j.offheap.batch.SampleSeeds.mix64(f + 0x6E6F2D73687566L);
    }
}
