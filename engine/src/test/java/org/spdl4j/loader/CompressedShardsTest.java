package org.spdl4j.loader;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.spdl4j.engine.OutputOrder;
import org.spdl4j.engine.source.tar.HttpShardOpener;
import org.spdl4j.engine.source.tar.ShardCompression;
import org.spdl4j.engine.source.tar.TestShardCompression;
import org.spdl4j.engine.source.tar.TestTarWriter;
import org.spdl4j.offheap.batch.Batch;

/**
 * Compressed tar shards ({@code .tar.gz}, {@code .tgz}, {@code .tar.zst}) from files: read as the plain shards are,
 * resumed inside a shard exactly (the skipped members decompressed and passed over), and a shard whose bytes are not
 * what its name says skipped without stopping the run.
 */
class CompressedShardsTest {
    private static final int SHARDS = 3;
    private static final int PER_SHARD = 7;

    @TempDir
    static Path dir;

    @BeforeAll
    static void shards() throws IOException {
        for (String suffix : List.of(".tar", ".tar.gz", ".tgz", ".tar.zst")) {
            Path folder = Files.createDirectories(dir.resolve(suffix.substring(1)));
            for (int s = 0; s < SHARDS; s++) {
                Files.write(folder.resolve("shard-" + s + suffix), TestShardCompression.compress(shard(s), suffix));
            }
        }
    }

    private static byte[] shard(int s) {
        TestTarWriter tar = new TestTarWriter();
        for (int m = 0; m < PER_SHARD; m++) {
            String name = String.format("m%d%02d", s, m);
            byte[] media = new byte[3000]; // zero padding: compresses, and takes the reader past buffer edges
            byte[] text = ("id:" + name).getBytes(StandardCharsets.UTF_8);
            System.arraycopy(text, 0, media, 0, text.length);
            tar.add(name + ".jpg", media);
            tar.add(name + ".cls", String.valueOf(m % 2).getBytes(StandardCharsets.UTF_8));
        }
        return tar.finish();
    }


    private static LoaderBuilder<Batch> recipe(Path shards) {
        return Loader.builder().name("compressed").source(SampleSource.tarShards(shards))
            .decoder(new BytesDecoder()).batchSize(4).epochs(2).seed(9).shuffle(true).order(OutputOrder.INPUT)
            .decodeConcurrency(2);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"tar.gz", "tgz", "tar.zst"})
    void shouldReadCompressedShardsAsThePlainOnes(String kind) {
        LoaderRun plain = LoaderRun.of(recipe(dir.resolve("tar")), Integer.MAX_VALUE);
        LoaderRun compressed = LoaderRun.of(recipe(dir.resolve(kind)), Integer.MAX_VALUE);
        assertThat(memberTexts(plain)).hasSize(2 * SHARDS * PER_SHARD).contains("m102=id:m102/0", "m203=id:m203/1");
        assertThat(memberTexts(compressed)).containsExactlyElementsOf(memberTexts(plain));
        assertThat(compressed.keys.get(0)).contains("." + kind + "@");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"tar.gz", "tar.zst"})
    void shouldResumeInsideACompressedShardExactly(String kind) {
        List<String> whole = LoaderRun.of(recipe(dir.resolve(kind)), Integer.MAX_VALUE).keys;
        for (int k : new int[] {3, 7}) { // inside a shard of the first epoch (12 samples), and in the second epoch
            LoaderRun first = LoaderRun.of(recipe(dir.resolve(kind)), k);
            LoaderRun rest = LoaderRun.of(recipe(dir.resolve(kind)).resume(LoaderState.parse(first.state.encode())),
                Integer.MAX_VALUE);
            List<String> resumed = new ArrayList<>(first.keys);
            resumed.addAll(rest.keys);
            assertThat(resumed).as("stopped after %d batches, state %s", k, first.state)
                .containsExactlyElementsOf(whole);
        }
    }

    @Test
    void shouldSkipAShardWhoseBytesAreNotTheCompressionItsNameSays() throws IOException {
        Path folder = Files.createDirectories(dir.resolve("mislabelled"));
        Files.write(folder.resolve("a.tar.gz"), shard(0)); // a plain tar named .tar.gz
        Files.write(folder.resolve("b.tar.gz"), TestShardCompression.compress(shard(1), ".tar.gz"));
        LoaderRun r = LoaderRun.of(recipe(folder).epochs(1), Integer.MAX_VALUE);
        assertThat(r.keys).hasSize(PER_SHARD).allSatisfy(k -> assertThat(k).contains("b.tar.gz@"));
    }

    @Test
    void shouldTellCompressionByName() {
        assertThat(ShardCompression.of("s3://b/x/shard-1.TAR.GZ")).isEqualTo(ShardCompression.GZIP);
        assertThat(ShardCompression.of("a.tgz")).isEqualTo(ShardCompression.GZIP);
        assertThat(ShardCompression.of("a.tar.zst")).isEqualTo(ShardCompression.ZSTD);
        assertThat(ShardCompression.of("a.tar")).isEqualTo(ShardCompression.NONE);
        assertThat(ShardCompression.of("a.jpg")).isNull();
        assertThat(SampleSource.shardFiles(dir.resolve("tar.zst"))).hasSize(SHARDS);
    }

    @Test
    void shouldStreamPlainAndCompressedShardsOverHttpAndNameAMissingOne() throws Exception {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", exchange -> {
            Path file = dir.resolve(exchange.getRequestURI().getPath().substring(1));
            if (!Files.isRegularFile(file)) {
                exchange.sendResponseHeaders(404, -1);
                exchange.close();
                return;
            }
            byte[] body = Files.readAllBytes(file);
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        server.start();
        try {
            String base = "http://127.0.0.1:" + server.getAddress().getPort() + "/";
            List<String> urls = List.of(base + "tar/shard-0.tar", base + "tar.gz/shard-1.tar.gz",
                base + "tar.zst/shard-2.tar.zst", base + "tar.gz/missing.tar.gz");
            List<String> keys = new ArrayList<>();
            List<SampleFailure> failures = new CopyOnWriteArrayList<>();
            try (Loader<Batch> loader = Loader.builder().source(SampleSource.tarShards(urls,
                    HttpShardOpener.defaults())).decoder(new BytesDecoder()).batchSize(4).shuffle(false)
                    .onFailure(failures::add).build()) {
                for (LoadedBatch<Batch> batch : loader) {
                    try (batch) {
                        for (int i = 0; i < batch.size(); i++) {
                            keys.add(batch.key(i));
                        }
                    }
                }
            }
            assertThat(keys).hasSize(3 * PER_SHARD).doesNotHaveDuplicates();
            assertThat(keys).anyMatch(k -> k.startsWith(urls.get(1) + "@")).anyMatch(k -> k.startsWith(urls.get(2) + "@"));
            assertThat(failures).hasSize(1);
            assertThat(failures.get(0).cause()).hasMessageContaining("missing.tar.gz")
                .hasMessageContaining("HTTP 404");
        } finally {
            server.stop(0);
        }
    }

    /** Slot texts by the member part of the key, with the label, in delivery order. */
    private static List<String> memberTexts(LoaderRun r) {
        return r.delivered.stream().map(d -> d.key().substring(d.key().lastIndexOf('@') + 1) + "=" + d.text() + "/"
            + d.label()).toList();
    }
}
