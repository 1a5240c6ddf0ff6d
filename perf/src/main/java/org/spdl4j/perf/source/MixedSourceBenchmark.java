package org.spdl4j.perf.source;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.spdl4j.engine.source.RankInfo;
import org.spdl4j.engine.source.SampleAllocator;
import org.spdl4j.loader.SampleEntry;
import org.spdl4j.loader.internal.EntryCursor;
import org.spdl4j.loader.internal.EntrySource;
import org.spdl4j.loader.internal.IndexedEntries;
import org.spdl4j.loader.internal.LoaderItem;
import org.spdl4j.loader.internal.MixedEntries;

/**
 * What a weighted mixture costs the loader's source thread per sample: the next sample of one shuffled list
 * ({@code parts = 1}, no mixture) against the next of a mixture of 2 or 8 shuffled lists (the schedule's pick, then
 * the part's next), and what opening an epoch in its middle costs (resume: the closed-form counts, then every part
 * opened at its own position). Run with {@code -prof gc}: {@code gc.alloc.rate.norm} is B/op, 0 for the per-sample
 * benchmark.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class MixedSourceBenchmark {
    /** Parts in the mixture; 1 = the list alone, no mixture. */
    @Param({"1", "2", "8"})
    public int parts;

    private static final int PER_PART = 1_000_000;
    private EntrySource source;
    private EntryCursor cursor;
    private final LoaderItem item = new LoaderItem();
    private long epoch;

    /** Builds the parts (a million entries each, never read) and the mixture of them, weights 1, 2, 3, .... */
    @Setup(Level.Trial)
    public void build() {
        List<EntrySource> list = new ArrayList<>();
        double[] weights = new double[parts];
        for (int j = 0; j < parts; j++) {
            List<SampleEntry> entries = new ArrayList<>(PER_PART);
            for (int i = 0; i < PER_PART; i++) {
                entries.add(SampleEntry.file(Path.of("/part" + j + "/" + i + ".jpg"), j));
            }
            list.add(new IndexedEntries(entries, "part " + j));
            weights[j] = j + 1;
        }
        source = parts == 1 ? list.get(0) : new MixedEntries(list, weights, EntrySource.UNKNOWN_LENGTH);
        cursor = open(0);
    }

    private EntryCursor open(long from) {
        return source.open(epoch++, from, RankInfo.SINGLE, 42, true, (SampleAllocator) null); // lists read no bytes
    }

    /** Closes the cursor. */
    @TearDown(Level.Trial)
    public void close() {
        cursor.close();
    }

    /** The next sample: the mixture's pick and the part's shuffled next (or the list's alone). */
    @Benchmark
    public Object nextSample() {
        if (!cursor.next(item)) {
            cursor.close();
            cursor = open(0); // once per epoch of at least a million samples
            cursor.next(item);
        }
        return item.path;
    }

    /** Opening an epoch at a position in its middle, as a resumed run does. */
    @Benchmark
    public Object openInTheMiddle() {
        EntryCursor c = open(PER_PART / 2 + epoch % 1000);
        c.close();
        return c;
    }
}
