package org.spdl4j.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.luben.zstd.ZstdOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.spdl4j.engine.source.FolderDataset;
import org.spdl4j.examples.classify.TarShardWriter;
import org.spdl4j.examples.sample.SampleImages;
import org.spdl4j.loader.SampleSource;
import org.spdl4j.s3.S3ProxyServer;

/**
 * {@code spdl4j run --data s3://bucket/prefix/ --endpoint URL} against a real S3-compatible server (S3Proxy in this
 * JVM): JPEG objects, and gzip and Zstandard tar shards, decoded by FFmpeg; wrong credentials are a bad argument
 * naming the bucket and the endpoint. Credentials reach the default chain as the {@code aws.*} system properties.
 */
@Timeout(120)
class S3RunTest {
    private static final String BUCKET = "cli-data";
    private static final int IMAGES = 12;

    @TempDir
    static Path dir;
    private static S3ProxyServer server;

    @BeforeAll
    static void start() throws Exception {
        server = new S3ProxyServer();
        server.createBucket(BUCKET);
        Path images = dir.resolve("img");
        SampleImages.generate(images, IMAGES, 5);
        try (var walk = Files.walk(images)) {
            for (Path f : walk.filter(Files::isRegularFile).toList()) {
                server.put(BUCKET, "img/" + images.relativize(f), Files.readAllBytes(f));
            }
        }
        FolderDataset dataset = FolderDataset.scan(images, SampleSource.IMAGE_EXTENSIONS);
        List<Path> shards = TarShardWriter.write(dataset, dir.resolve("shards"), 5);
        for (Path shard : shards) {
            byte[] tar = Files.readAllBytes(shard);
            String name = shard.getFileName().toString();
            server.put(BUCKET, "gz/" + name + ".gz", compress(tar, new ByteArrayOutputStream(), true));
            server.put(BUCKET, "zst/" + name.replace(".tar", ".tar.zst"), compress(tar, new ByteArrayOutputStream(),
                false));
        }
        System.setProperty("aws.accessKeyId", S3ProxyServer.KEY_ID);
        System.setProperty("aws.secretAccessKey", S3ProxyServer.SECRET);
    }

    @AfterAll
    static void stop() {
        System.clearProperty("aws.accessKeyId");
        System.clearProperty("aws.secretAccessKey");
        server.close();
    }

    private static byte[] compress(byte[] tar, ByteArrayOutputStream out, boolean gzip) throws IOException {
        try (OutputStream z = gzip ? new GZIPOutputStream(out) : new ZstdOutputStream(out)) {
            z.write(tar);
        }
        return out.toByteArray();
    }

    private static CommandLineTest.Run run(String prefix) {
        return CommandLineTest.run("run", "--data", "s3://" + BUCKET + "/" + prefix, "--endpoint",
            server.endpoint().toString(), "--no-progress", "--batch-size", "4");
    }

    @Test
    void shouldLoadImageObjectsFromAnS3Prefix() {
        CommandLineTest.Run r = run("img/");
        assertThat(r.status()).as(r.out() + r.err()).isZero();
        assertThat(r.out()).contains("s3://" + BUCKET + "/img/ (" + IMAGES + " samples)")
            .contains(IMAGES + " images").doesNotContain("failed:");
    }

    @Test
    void shouldLoadGzipAndZstdShardsFromAnS3Prefix() {
        for (String prefix : List.of("gz/", "zst/")) {
            CommandLineTest.Run r = run(prefix);
            assertThat(r.status()).as(r.out() + r.err()).isZero();
            assertThat(r.out()).as(prefix).contains("tar shards (3, first s3://" + BUCKET + "/" + prefix)
                .contains(IMAGES + " images");
        }
    }

    @Test
    void shouldRefuseWrongCredentialsNamingBucketAndEndpoint() {
        System.setProperty("aws.secretAccessKey", "wrong");
        try {
            CommandLineTest.Run r = run("img/");
            assertThat(r.status()).isEqualTo(Spdl4jCommand.EXIT_USAGE);
            assertThat(r.err()).contains("s3://" + BUCKET + "/img/").contains(server.endpoint().toString())
                .contains("check the credentials");
        } finally {
            System.setProperty("aws.secretAccessKey", S3ProxyServer.SECRET);
        }
    }

    @Test
    void shouldRefuseAnEndpointWithoutS3Data() {
        CommandLineTest.Run r = CommandLineTest.run("run", "--endpoint", "http://127.0.0.1:9", "--no-progress");
        assertThat(r.status()).isEqualTo(Spdl4jCommand.EXIT_USAGE);
        assertThat(r.err()).contains("--endpoint goes with s3:// data");
    }
}
