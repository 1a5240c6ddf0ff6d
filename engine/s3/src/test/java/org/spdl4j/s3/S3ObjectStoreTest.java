package org.spdl4j.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.spdl4j.engine.OutputOrder;
import org.spdl4j.engine.source.http.CircuitBreakerSettings;
import org.spdl4j.engine.source.tar.TestShardCompression;
import org.spdl4j.engine.source.tar.TestTarWriter;
import org.spdl4j.loader.BytesDecoder;
import org.spdl4j.loader.LoadedBatch;
import org.spdl4j.loader.LoaderRun;
import org.spdl4j.loader.Loader;
import org.spdl4j.loader.LoaderBuilder;
import org.spdl4j.loader.LoaderState;
import org.spdl4j.loader.SampleEntry;
import org.spdl4j.loader.SampleFailure;
import org.spdl4j.loader.SampleSource;
import org.spdl4j.offheap.batch.Batch;

/**
 * Loader sources on a real S3-compatible server (S3Proxy in this JVM, signatures checked): a prefix listed into
 * labelled objects, plain and compressed tar shards streamed in small ranged parts, resume exact to the sample for
 * both, and failures that name the bucket, the endpoint and what to do.
 */
class S3ObjectStoreTest {
    private static final String BUCKET = "train-data";
    private static final int IMAGES = 22;
    private static final int SHARDS = 3;
    private static final int PER_SHARD = 5;
    /** Each shard member is padded to this size, so a shard spans several 64 KiB parts. */
    private static final int MEMBER_BYTES = 30_000;

    private static S3ProxyServer server;
    /** Expected slot text by key, per prefix. */
    private static final Map<String, Map<String, String>> EXPECTED = new LinkedHashMap<>();
    private static final Map<String, Integer> LABELS = new LinkedHashMap<>();

    @BeforeAll
    static void start() throws Exception {
        server = new S3ProxyServer();
        server.createBucket(BUCKET);
        Map<String, String> images = new LinkedHashMap<>();
        for (int i = 0; i < IMAGES; i++) {
            String key = String.format("images/c%d/s%03d.jpg", i % 2, i);
            String text = "id:s" + i;
            server.put(BUCKET, key, text.getBytes(StandardCharsets.UTF_8));
            String uri = "s3://" + BUCKET + "/" + key;
            images.put(uri, text);
            LABELS.put(uri, i % 2);
        }
        server.put(BUCKET, "images/README.txt", "not an image".getBytes(StandardCharsets.UTF_8));
        EXPECTED.put("images/", images);
        for (String[] kind : new String[][] {{"shards/", ".tar"}, {"shards-gz/", ".tar.gz"}, {"shards-zst/", ".tar.zst"}}) {
            Map<String, String> expected = new LinkedHashMap<>();
            for (int s = 0; s < SHARDS; s++) {
                TestTarWriter tar = new TestTarWriter();
                String shardKey = kind[0] + "shard-" + s + kind[1];
                for (int m = 0; m < PER_SHARD; m++) {
                    String name = String.format("m%d%02d", s, m);
                    String text = "id:" + name;
                    byte[] media = new byte[MEMBER_BYTES];
                    byte[] t = text.getBytes(StandardCharsets.UTF_8);
                    System.arraycopy(t, 0, media, 0, t.length);
                    tar.add(name + ".jpg", media);
                    tar.add(name + ".cls", String.valueOf(m % 3).getBytes(StandardCharsets.UTF_8));
                    expected.put("s3://" + BUCKET + "/" + shardKey + "@" + name, text);
                }
                server.put(BUCKET, shardKey, TestShardCompression.compress(tar.finish(), kind[1]));
            }
            EXPECTED.put(kind[0], expected);
        }
        byte[] big = new byte[5000];
        big[0] = 'x';
        server.put(BUCKET, "mixed/big.jpg", big);
        server.put(BUCKET, "mixed/small.jpg", "id:small".getBytes(StandardCharsets.UTF_8));
    }

    @AfterAll
    static void stop() {
        server.close();
    }


    private static LoaderBuilder<Batch> recipe(SampleSource source) {
        return Loader.builder().name("s3-test").source(source).decoder(new BytesDecoder()).batchSize(4).epochs(2)
            .seed(5).shuffle(true).order(OutputOrder.INPUT).readConcurrency(8).decodeConcurrency(2);
    }

    @Test
    void shouldListAPrefixIntoLabelledImagesAndReadEachIntoItsSlot() {
        try (S3ObjectStore store = server.store().build()) {
            LoaderRun all = LoaderRun.of(recipe(store.source("s3://" + BUCKET + "/images/")), Integer.MAX_VALUE);
            assertThat(all.keys).hasSize(2 * IMAGES);
            assertThat(all.texts).isEqualTo(EXPECTED.get("images/"));
            assertThat(all.labels).isEqualTo(LABELS);
            assertThat(all.failures).isZero();
        }
    }

    @Test
    void shouldResumeObjectsExactlyWhereTheyStopped() {
        try (S3ObjectStore store = server.store().build()) {
            SampleSource source = store.objects("s3://" + BUCKET + "/images/");
            List<String> whole = LoaderRun.of(recipe(source), Integer.MAX_VALUE).keys;
            LoaderRun first = LoaderRun.of(recipe(source), 7); // into the second epoch: 5 batches and a half per epoch
            LoaderRun rest = LoaderRun.of(recipe(source).resume(LoaderState.parse(first.state.encode())),
                Integer.MAX_VALUE);
            List<String> resumed = new ArrayList<>(first.keys);
            resumed.addAll(rest.keys);
            assertThat(resumed).as("state %s", first.state).containsExactlyElementsOf(whole);
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"shards/", "shards-gz/", "shards-zst/"})
    void shouldStreamShardsInRangedPartsAndResumeInsideAShard(String prefix) {
        // 64 KiB parts, 2 ahead: each shard (about 300 KB) takes several ranged GETs, and the resume skips into one
        try (S3ObjectStore store = server.store().partSize(64 * 1024).readAhead(2).build()) {
            SampleSource source = store.source("s3://" + BUCKET + "/" + prefix);
            assertThat(source.describe()).contains("tar shards (3");
            LoaderRun all = LoaderRun.of(recipe(source), Integer.MAX_VALUE);
            assertThat(all.keys).hasSize(2 * SHARDS * PER_SHARD);
            assertThat(all.texts).isEqualTo(EXPECTED.get(prefix));
            assertThat(all.labels.get("s3://" + BUCKET + "/" + prefix + "shard-1" + suffixOf(prefix) + "@m102"))
                .isEqualTo(2);
            LoaderRun first = LoaderRun.of(recipe(source), 2); // 8 samples: inside the second shard of the first epoch
            LoaderRun rest = LoaderRun.of(recipe(source).resume(first.state), Integer.MAX_VALUE);
            List<String> resumed = new ArrayList<>(first.keys);
            resumed.addAll(rest.keys);
            assertThat(resumed).as("state %s", first.state).containsExactlyElementsOf(all.keys);
        }
    }

    private static String suffixOf(String prefix) {
        return switch (prefix) {
            case "shards-gz/" -> ".tar.gz";
            case "shards-zst/" -> ".tar.zst";
            default -> ".tar";
        };
    }

    @Test
    void shouldGiveEveryBufferBackWhenClosedWithReadsInFlight() {
        // every object in flight at once, the loader closed after its first batch: the reads still running are
        // cancelled and their slabs given back before the pools close (NoLeftoversExtension checks every pool is
        // full and no spdl4j thread is left once this class ends)
        try (S3ObjectStore store = server.store().build()) {
            SampleSource source = store.objects("s3://" + BUCKET + "/images/");
            for (int i = 0; i < 5; i++) {
                LoaderRun r = LoaderRun.of(recipe(source).readConcurrency(64).batchSize(2), 1);
                assertThat(r.keys).hasSize(2);
            }
        }
    }

    @Test
    void shouldTakeALocationNamingOneShardAsThatShardOnly() {
        // shard-1.tar is also the prefix of nothing else here; the listing's exact match is the one shard
        try (S3ObjectStore store = server.store().build()) {
            SampleSource one = store.tarShards("s3://" + BUCKET + "/shards/shard-1.tar");
            assertThat(one.describe()).contains("tar shards (1, first s3://" + BUCKET + "/shards/shard-1.tar)");
            LoaderRun r = LoaderRun.of(recipe(one).epochs(1), Integer.MAX_VALUE);
            assertThat(r.keys).hasSize(PER_SHARD).allSatisfy(k -> assertThat(k).contains("/shard-1.tar@m1"));
        }
    }

    @Test
    void shouldFailWithWrongCredentialsNamingBucketEndpointAndWhatToDo() {
        try (S3ObjectStore store = S3ObjectStore.builder().endpoint(server.endpoint())
                .credentials(S3ProxyServer.KEY_ID, "not-the-secret").maxAttempts(1).build()) {
            assertThatThrownBy(() -> store.source("s3://" + BUCKET + "/images/"))
                .isInstanceOf(S3StoreException.class)
                .hasMessageContaining("s3://" + BUCKET + "/images/")
                .hasMessageContaining(server.endpoint().toString())
                .hasMessageContaining("check the credentials")
                .satisfies(e -> assertThat(((S3StoreException) e).statusCode()).isEqualTo(403));
        }
    }

    @Test
    void shouldSayWhenTheBucketDoesNotExist() {
        try (S3ObjectStore store = server.store().build()) {
            assertThatThrownBy(() -> store.source("s3://no-such-bucket/train/"))
                .isInstanceOf(S3StoreException.class)
                .hasMessageContaining("no-such-bucket")
                .hasMessageContaining("does not exist")
                .hasMessageContaining(server.endpoint().toString());
        }
    }

    @Test
    void shouldSayWhenTheEndpointCannotBeReached() {
        URI nowhere = URI.create("http://127.0.0.1:1");
        try (S3ObjectStore store = S3ObjectStore.builder().endpoint(nowhere).credentials("a", "b").maxAttempts(1)
                .attemptTimeout(Duration.ofSeconds(5)).build()) {
            assertThatThrownBy(() -> store.source("s3://" + BUCKET + "/images/"))
                .isInstanceOf(S3StoreException.class)
                .hasMessageContaining("cannot reach the endpoint")
                .hasMessageContaining(nowhere.toString());
        }
    }

    @Test
    void shouldFailFastNamingTheEndpointOnceItsCircuitBreakerOpens() {
        URI dead = URI.create("http://127.0.0.1:1");
        List<SampleEntry> entries = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            entries.add(SampleEntry.url(URI.create("s3://" + BUCKET + "/gone/o" + i + ".jpg"), 0));
        }
        List<SampleFailure> failures = new java.util.concurrent.CopyOnWriteArrayList<>();
        long start = System.nanoTime();
        try (S3ObjectStore store = S3ObjectStore.builder().endpoint(dead).credentials("a", "b").maxAttempts(1)
                .attemptTimeout(Duration.ofSeconds(5))
                .circuitBreaker(new CircuitBreakerSettings(3, Duration.ofMinutes(1))).build();
             Loader<Batch> loader = Loader.builder().source(SampleSource.objects(store, entries, "gone"))
                 .decoder(new BytesDecoder()).batchSize(4).readConcurrency(1).onFailure(failures::add).build()) {
            for (LoadedBatch<Batch> batch : loader) {
                batch.close();
            }
        }
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(30));
        assertThat(failures).hasSize(40);
        long unsent = failures.stream().filter(f -> messages(f.cause()).contains("not sent")).count();
        assertThat(unsent).as("requests refused once 3 in a row failed").isGreaterThanOrEqualTo(36);
        assertThat(failures).allSatisfy(f -> assertThat(messages(f.cause())).contains("127.0.0.1:1"));
    }

    private static String messages(Throwable t) {
        StringBuilder b = new StringBuilder();
        for (Throwable c = t; c != null; c = c.getCause()) {
            b.append(c.getMessage()).append(" | ");
        }
        return b.toString();
    }

    @Test
    void shouldFailOnlyTheObjectLargerThanTheLimitNamingIt() {
        try (S3ObjectStore store = server.store().maxObjectBytes(1000).build()) {
            SampleSource source = store.objects("s3://" + BUCKET + "/mixed/", Set.of("jpg"));
            LoaderRun r = LoaderRun.of(recipe(source).epochs(1).batchSize(1), Integer.MAX_VALUE);
            assertThat(r.keys).containsExactly("s3://" + BUCKET + "/mixed/small.jpg");
            assertThat(r.failures).isEqualTo(1);
        }
    }

    @Test
    void shouldRefuseAPrefixWithNothingToLoad() {
        try (S3ObjectStore store = server.store().build()) {
            assertThatThrownBy(() -> store.source("s3://" + BUCKET + "/nothing-here/"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("s3://" + BUCKET + "/nothing-here/")
                .hasMessageContaining("none with extension bmp, jpeg, jpg, png, webp");
            assertThatThrownBy(() -> S3Location.parse("http://bucket/x")).hasMessageContaining("s3://bucket/prefix/");
        }
    }
}
