package org.spdl4j.perf.source;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.spdl4j.engine.source.FileSampleReader;
import org.spdl4j.engine.source.FolderDataset;
import org.spdl4j.engine.source.Sample;
import org.spdl4j.engine.source.SampleAllocator;
import org.spdl4j.engine.source.tar.TarStreamReader;
import org.spdl4j.engine.source.tar.WebDatasetSampleIterator;

/**
 * Tar-shard read throughput against the same samples as separate files, in the same run. One operation = one sample,
 * so the score is samples/s; the {@code bytes} counter (aux, per second) gives bytes/s (divide by 1e6 for MB/s).
 * Both read from the page cache after the first pass: this compares per-sample overhead (open/stat/close per file
 * against one stream), not disk bandwidth.
 *
 * <pre>bin/spdl4j-java -jar perf/target/benchmarks.jar TarVsFilesBenchmark -f 1 -wi 1 -i 3 -w 1s -r 2s</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(1)
public class TarVsFilesBenchmark {
    static final int SAMPLES = 2000;

    @Param({"16384", "131072"})
    public int sampleBytes;

    Path dir;
    Path shard;
    FolderDataset folder;
    FileSampleReader reader;

    /** Bytes read, reported by JMH as a rate. */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.OPERATIONS)
    public static class Bytes {
        public long bytes;
    }

    @Setup(Level.Trial)
    public void write() throws IOException {
        dir = Files.createTempDirectory("spdl4j-tar-vs-files");
        shard = dir.resolve("shard.tar");
        SplittableRandom random = new SplittableRandom(1);
        try (TarShardWriter tar = new TarShardWriter(new BufferedOutputStream(Files.newOutputStream(shard), 1 << 20))) {
            for (int i = 0; i < SAMPLES; i++) {
                byte[] data = new byte[sampleBytes];
                random.nextBytes(data);
                String cls = "class" + (i % 10);
                String name = cls + "/%05d.jpg".formatted(i);
                Path file = dir.resolve("files").resolve(name);
                Files.createDirectories(file.getParent());
                Files.write(file, data);
                tar.add(name, data);
            }
        }
        folder = FolderDataset.scan(dir.resolve("files"), Set.of("jpg"));
        reader = new FileSampleReader(SampleAllocator.HEAP);
    }

    @TearDown(Level.Trial)
    public void delete() throws IOException {
        try (Stream<Path> walk = Files.walk(dir)) {
            walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    @Benchmark
    @OperationsPerInvocation(SAMPLES)
    public long tarShard(Bytes counter) throws IOException {
        long n = 0;
        try (WebDatasetSampleIterator it = new WebDatasetSampleIterator(new TarStreamReader(shard.toString(),
                FileChannel.open(shard)), SampleAllocator.HEAP)) {
            while (it.hasNext()) {
                try (Sample s = it.next()) {
                    n += s.totalBytes();
                }
            }
        }
        counter.bytes += n;
        return n;
    }

    @Benchmark
    @OperationsPerInvocation(SAMPLES)
    public long separateFiles(Bytes counter) {
        long n = 0;
        for (long i = 0; i < folder.size(); i++) {
            try (Sample s = reader.apply(folder.get(i))) {
                n += s.totalBytes();
            }
        }
        counter.bytes += n;
        return n;
    }
}
