package org.spdl4j.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.spdl4j.examples.sample.SampleImages;

/** {@code spdl4j run --classes FILE} over tar shards whose {@code .cls} members hold class names. */
@Timeout(120)
class TarClassesRunTest {
    private static final List<String> NAMES = List.of("class00", "class01", "class02");

    @TempDir
    Path dir;

    private Path shard;
    /** Each sample's key in the shard (without the shard) and its class name. */
    private final Map<String, String> classOf = new HashMap<>();

    @BeforeEach
    void shard() throws Exception {
        Path images = dir.resolve("img");
        SampleImages.generate(images, 6, 3);
        List<Path> jpgs;
        try (var walk = Files.walk(images)) {
            jpgs = walk.filter(p -> p.toString().endsWith(".jpg")).sorted().toList();
        }
        Path members = Files.createDirectories(dir.resolve("members"));
        List<String> command = new ArrayList<>(List.of("tar", "--format=ustar", "-cf",
            dir.resolve("data.tar").toString(), "-C", members.toString()));
        for (int i = 0; i < jpgs.size(); i++) {
            String key = String.format("%04d", i);
            String name = NAMES.get(i % NAMES.size());
            Files.copy(jpgs.get(i), members.resolve(key + ".jpg"));
            Files.writeString(members.resolve(key + ".cls"), name + "\n");
            classOf.put(key, name);
            command.add(key + ".jpg");
            command.add(key + ".cls");
        }
        assertThat(new ProcessBuilder(command).inheritIO().start().waitFor()).isZero();
        shard = dir.resolve("data.tar");
    }

    /** {@return each delivered sample's label, by its key in the shard} */
    private static Map<String, Integer> labels(Path keys) throws Exception {
        Map<String, Integer> labels = new HashMap<>();
        for (String line : Files.readAllLines(keys)) {
            String[] kv = line.split("\t");
            labels.put(kv[0].substring(kv[0].lastIndexOf('@') + 1), Integer.parseInt(kv[1]));
        }
        return labels;
    }

    @Test
    void shouldLabelClassNamesByTheClassList() throws Exception {
        List<String> list = List.of("class02", "class00", "class01"); // not sorted: the list's order is the label
        Path classes = Files.write(dir.resolve("classes.txt"), list);
        Path keys = dir.resolve("keys.txt");
        CommandLineTest.Run r = CommandLineTest.run("run", "--data", shard.toString(), "--classes",
            classes.toString(), "--keys", keys.toString(), "--no-progress", "--batch-size", "2");
        assertThat(r.status()).as(r.out() + r.err()).isZero();
        Map<String, Integer> labels = labels(keys);
        assertThat(labels).hasSize(classOf.size());
        classOf.forEach((key, name) -> assertThat(labels.get(key)).as(key).isEqualTo(list.indexOf(name)));
    }

    /** A .txt list of shard URLs is read as tar shards streamed by GET, class list and all. */
    @Test
    void shouldReadAListOfShardUrlsAsShards() throws Exception {
        com.sun.net.httpserver.HttpServer server = com.sun.net.httpserver.HttpServer.create(
            new java.net.InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), 0), 0);
        byte[] bytes = Files.readAllBytes(shard);
        server.createContext("/", exchange -> {
            exchange.sendResponseHeaders(200, bytes.length);
            try (var out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        });
        server.start();
        try {
            Path urls = Files.writeString(dir.resolve("shards.txt"),
                "http://127.0.0.1:" + server.getAddress().getPort() + "/data.tar\n");
            Path classes = Files.write(dir.resolve("classes.txt"), NAMES);
            Path keys = dir.resolve("keys.txt");
            CommandLineTest.Run r = CommandLineTest.run("run", "--data", urls.toString(), "--classes",
                classes.toString(), "--keys", keys.toString(), "--no-progress", "--batch-size", "2");
            assertThat(r.status()).as(r.out() + r.err()).isZero();
            Map<String, Integer> labels = labels(keys);
            assertThat(labels).hasSize(classOf.size());
            classOf.forEach((key, name) -> assertThat(labels.get(key)).as(key).isEqualTo(NAMES.indexOf(name)));
            assertThat(Files.readString(keys)).contains("/data.tar@");
        } finally {
            server.stop(0);
        }
    }

    @Test
    void shouldLabelClassNamesInTheOrderSeenWithoutAList() throws Exception {
        Path keys = dir.resolve("keys.txt");
        CommandLineTest.Run r = CommandLineTest.run("run", "--data", shard.toString(), "--keys", keys.toString(),
            "--no-progress", "--batch-size", "2");
        assertThat(r.status()).as(r.out() + r.err()).isZero();
        Map<String, Integer> labels = labels(keys);
        assertThat(labels).hasSize(classOf.size()).doesNotContainValue(-1);
        classOf.forEach((key, name) -> assertThat(labels.get(key)).as(key).isEqualTo(NAMES.indexOf(name)));
    }

    @Test
    void shouldRefuseAClassListForAFolder() throws Exception {
        Path classes = Files.write(dir.resolve("classes.txt"), NAMES);
        CommandLineTest.Run r = CommandLineTest.run("run", "--data", dir.resolve("img").toString(), "--classes",
            classes.toString());
        assertThat(r.status()).isEqualTo(Spdl4jCommand.EXIT_USAGE);
        assertThat(r.err()).contains("--classes " + classes + ": a class list labels the .cls members of tar shards");
    }

    @Test
    void shouldReadShardsSeveralAtOnceWithInterleave() throws Exception {
        Path second = dir.resolve("second.tar");
        Files.copy(shard, second);
        Path shards = Files.createDirectories(dir.resolve("two"));
        Files.move(shard, shards.resolve("a.tar"));
        Files.move(second, shards.resolve("b.tar"));
        Path keys = dir.resolve("keys-interleaved.txt");
        CommandLineTest.Run r = CommandLineTest.run("run", "--data", shards.toString(), "--interleave", "2", "--keys",
            keys.toString(), "--no-progress", "--batch-size", "2", "--order", "INPUT");
        assertThat(r.status()).as(r.out() + r.err()).isZero();
        List<String> loaded = Files.readAllLines(keys).stream().map(l -> l.split("\t")[0]).toList();
        assertThat(loaded).hasSize(2 * classOf.size());
        for (int i = 0; i + 1 < loaded.size(); i += 2) { // each pair: one sample of each shard, in turn
            assertThat(loaded.get(i).substring(0, loaded.get(i).indexOf('@')))
                .isNotEqualTo(loaded.get(i + 1).substring(0, loaded.get(i + 1).indexOf('@')));
        }
        CommandLineTest.Run notShards = CommandLineTest.run("run", "--interleave", "2", "--no-progress");
        assertThat(notShards.status()).isEqualTo(2);
        assertThat(notShards.err()).contains("reads several tar shards at once");
    }

    @Test
    void shouldLabelTheTarPartsOfAMixtureByTheClassList() throws Exception {
        List<String> list = List.of("class01", "class02", "class00");
        Path classes = Files.write(dir.resolve("classes-mix.txt"), list);
        Path keys = dir.resolve("keys-mix.txt");
        CommandLineTest.Run r = CommandLineTest.run("run", "--mix", shard + "=1", "--mix", dir.resolve("img") + "=1",
            "--classes", classes.toString(), "--keys", keys.toString(), "--no-progress", "--batch-size", "2");
        assertThat(r.status()).as(r.out() + r.err()).isZero();
        Map<String, Integer> labels = new HashMap<>();
        for (String line : Files.readAllLines(keys)) {
            String[] kv = line.split("\t");
            if (kv[0].contains("@")) { // the tar part's samples
                labels.put(kv[0].substring(kv[0].lastIndexOf('@') + 1), Integer.parseInt(kv[1]));
            }
        }
        assertThat(labels).isNotEmpty();
        labels.forEach((key, label) -> assertThat(label).as(key).isEqualTo(list.indexOf(classOf.get(key))));
    }
}
