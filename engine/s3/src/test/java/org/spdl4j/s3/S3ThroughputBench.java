package org.spdl4j.s3;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.spdl4j.engine.source.tar.TestTarWriter;
import org.spdl4j.loader.LoadedBatch;
import org.spdl4j.loader.Loader;
import org.spdl4j.loader.SampleSource;
import org.spdl4j.offheap.batch.Batch;

/**
 * Samples per second through a loader whose decoder only copies 48 bytes (so the read path is what is measured):
 * 512 objects of 100 KB from S3Proxy in this JVM at 1, 8 and 64 GETs in flight, the same files from a local folder,
 * and the same samples as 8 tar shards from S3Proxy and from local files. Prints one line per case. Opt-in (tag
 * {@code long}): {@code mvn -pl engine/s3 -am test -Dtest=S3ThroughputBench -Dspdl4j.test.excludedGroups=
 * -Dsurefire.failIfNoSpecifiedTests=false}; the lines are in the test's output file.
 */
@Tag("long")
class S3ThroughputBench {
    private static final int OBJECTS = 512;
    private static final int BYTES = 100_000;
    private static final int SHARDS = 8;

    @TempDir
    Path dir;

    @Test
    void measure() throws Exception {
        SplittableRandom random = new SplittableRandom(1);
        Path folder = Files.createDirectories(dir.resolve("img"));
        Path shards = Files.createDirectories(dir.resolve("shards"));
        try (S3ProxyServer server = new S3ProxyServer()) {
            server.createBucket("bench");
            TestTarWriter[] tars = new TestTarWriter[SHARDS];
            for (int s = 0; s < SHARDS; s++) {
                tars[s] = new TestTarWriter();
            }
            for (int i = 0; i < OBJECTS; i++) {
                byte[] b = new byte[BYTES];
                random.nextBytes(b);
                String name = String.format(Locale.ROOT, "%05d.jpg", i);
                Files.write(folder.resolve(name), b);
                server.put("bench", "img/" + name, b);
                tars[i % SHARDS].add(String.format(Locale.ROOT, "%05d.jpg", i), b);
            }
            for (int s = 0; s < SHARDS; s++) {
                byte[] tar = tars[s].finish();
                String name = String.format(Locale.ROOT, "shard-%02d.tar", s);
                Files.write(shards.resolve(name), tar);
                server.put("bench", "shards/" + name, tar);
            }
            try (S3ObjectStore store = server.store().build()) {
                SampleSource s3Objects = store.objects("s3://bench/img/");
                SampleSource s3Shards = store.tarShards("s3://bench/shards/");
                SampleSource local = SampleSource.folder(folder, Set.of("jpg"));
                SampleSource localShards = SampleSource.tarShards(shards);
                rate("warm-up", s3Objects, 8);
                rate("warm-up", local, 8);
                for (int inFlight : new int[] {1, 8, 64}) {
                    report("s3 objects, " + inFlight + " GETs in flight", rate("s3", s3Objects, inFlight));
                    report("local files, " + inFlight + " reads in flight", rate("local", local, inFlight));
                }
                report("s3 tar shards (8 MiB parts, 4 ahead)", rate("s3-shards", s3Shards, 1));
                report("local tar shards", rate("local-shards", localShards, 1));
            }
        }
    }

    private static void report(String what, double rate) {
        System.out.printf(Locale.ROOT, "BENCH %-40s %8.0f samples/s%n", what, rate);
    }

    /** Best of three epochs over the source, samples per second. */
    private static double rate(String name, SampleSource source, int inFlight) {
        double best = 0;
        for (int round = 0; round < 3; round++) {
            long start = System.nanoTime();
            long n = 0;
            try (Loader<Batch> loader = Loader.builder().name(name).source(source).decoder(new TestDecoder())
                    .batchSize(32).readConcurrency(inFlight).decodeConcurrency(2).build()) {
                for (LoadedBatch<Batch> batch : loader) {
                    try (batch) {
                        n += batch.size();
                    }
                }
            }
            best = Math.max(best, n / ((System.nanoTime() - start) / 1e9));
        }
        return best;
    }
}
