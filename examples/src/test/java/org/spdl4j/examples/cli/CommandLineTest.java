package org.spdl4j.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import javax.imageio.ImageIO;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.HistogramLogReader;
import org.spdl4j.cuda.DeviceDiscovery;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.spdl4j.examples.sample.SampleImages;

@Timeout(120)
class CommandLineTest {
    @TempDir
    static Path data;

    @TempDir
    Path work;

    @BeforeAll
    static void sample() throws Exception {
        SampleImages.generate(data, 40, 7);
    }

    /** Result of one command-line run. */
    record Run(int status, String out, String err) {
    }

    static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int status = Spdl4jCommand.execute(new PrintWriter(out), new PrintWriter(err), args);
        return new Run(status, out.toString(), err.toString());
    }

    @Test
    void shouldSayWhichCommandIsMissingOnTheGivenErrorWriter() {
        Run r = run();
        assertThat(r.status()).isEqualTo(Spdl4jCommand.EXIT_USAGE);
        assertThat(r.err()).contains("missing command: run, profile, tune, compare, probe or soak");
    }

    @Test
    void shouldListEveryExitStatusInTheHelp() {
        Run r = run("--help");
        assertThat(r.status()).as(r.err()).isZero();
        assertThat(r.out()).contains("Exit status:", "2   bad arguments", "3   ./spdl4j: the build failed",
            "4   ./spdl4j, bin/spdl4j-java: no JDK 25");
    }

    @Test
    void shouldBuildOnlyTheSubcommandAskedForAndAllOfThemForHelp() {
        assertThat(Spdl4jCommand.commandLine("run").getSubcommands()).containsOnlyKeys("run");
        assertThat(Spdl4jCommand.commandLine("soak").getSubcommands()).containsOnlyKeys("soak");
        assertThat(Spdl4jCommand.commandLine(null).getSubcommands()).containsOnlyKeys("run", "profile", "tune",
            "compare", "probe", "soak");
        assertThat(Spdl4jCommand.commandLine("--help").getSubcommands()).hasSize(6);
        Run help = run("--help");
        assertThat(help.out()).contains("run", "profile", "tune", "compare", "probe", "soak");
        Run typo = run("prob");
        assertThat(typo.status()).isEqualTo(Spdl4jCommand.EXIT_USAGE);
        assertThat(typo.err()).contains("prob").contains("did you mean probe");
        Run sub = run("probe", "--help");
        assertThat(sub.status()).as(sub.err()).isZero();
        assertThat(sub.out()).contains("Usage: spdl4j probe");
    }

    @Test
    void shouldFormatEveryHelpTextWithoutPicocliFallingBackToTheRawString() {
        // picocli passes help texts through String.format; one it cannot format (a bare '%') is printed raw after a
        // "[picocli WARN] Could not format" line on the console, outside the command's writers.
        List<String> texts = new ArrayList<>();
        collectHelpTexts(Spdl4jCommand.commandLine(null), texts);
        assertThat(texts).isNotEmpty().allSatisfy(t -> assertThat(
            org.assertj.core.api.Assertions.catchThrowable(() -> String.format(java.util.Locale.ROOT, t)))
            .as(t).isNull());
        assertThat(run("--help").out()).contains("1   the run failed (soak: also when RSS grew 5% or more after");
    }

    private static void collectHelpTexts(picocli.CommandLine cli, List<String> into) {
        picocli.CommandLine.Model.UsageMessageSpec usage = cli.getCommandSpec().usageMessage();
        into.addAll(usage.exitCodeList().values());
        into.addAll(List.of(usage.description()));
        into.addAll(List.of(usage.footer()));
        for (picocli.CommandLine.Model.OptionSpec o : cli.getCommandSpec().options()) {
            into.addAll(List.of(o.description()));
        }
        for (picocli.CommandLine sub : cli.getSubcommands().values()) {
            collectHelpTexts(sub, into);
        }
    }

    @Test
    void shouldRunImagePipelineAndWriteACompleteReport() throws Exception {
        Path report = work.resolve("report");
        Run r = run("run", "--data", data.toString(), "--batch-size", "8", "--decode-threads", "2", "--report",
            report.toString(), "--interval-ms", "50");
        assertThat(r.status()).as(r.err()).isZero();
        assertThat(r.out()).contains("stage", "source", "read", "assign", "decode", "sink", "p50", "p99",
            "starved", "throughput: 40 images in 5 batches", "peak RSS");
        java.util.regex.Matcher firstBatch = java.util.regex.Pattern.compile(
            "first batch after (\\d+\\.\\d+) s \\((\\d+\\.\\d+) s counting the loader's construction\\)").matcher(r.out());
        assertThat(firstBatch.find()).as(r.out()).isTrue();
        assertThat(Double.parseDouble(firstBatch.group(2))).as("the wait counting construction")
            .isGreaterThanOrEqualTo(Double.parseDouble(firstBatch.group(1)));

        String html = Files.readString(report.resolve("index.html"));
        assertThat(html).contains("<svg", "task time by stage", "throughput over time", "ring occupancy over time",
            "run.hlog", "trace.json", "40 images", "5 batches", "images/s", "batches/s");
        assertThat(html).as("the title says what ran").contains("<title>spdl4j run over " + data);
        long decodeCount = 0;
        try (HistogramLogReader reader = new HistogramLogReader(report.resolve("run.hlog").toFile())) {
            for (EncodableHistogram h; (h = reader.nextIntervalHistogram()) != null; ) {
                if (h.getTag() != null && h.getTag().endsWith("decode")) {
                    decodeCount += ((org.HdrHistogram.Histogram) h).getTotalCount();
                }
            }
        }
        assertThat(decodeCount).as("decode tasks in the .hlog").isEqualTo(40);
        JsonNode trace = new ObjectMapper().readTree(report.resolve("trace.json").toFile());
        long decodeSpans = 0;
        for (JsonNode e : trace.get("traceEvents")) {
            decodeSpans += "decode".equals(e.get("name").asText()) ? 1 : 0;
        }
        assertThat(decodeSpans).isEqualTo(40);
    }

    @Test
    void shouldRunOverAFlatFolderOfImagesAsOneClass() throws Exception {
        Path flat = Files.createDirectories(work.resolve("flat"));
        try (var files = Files.walk(data)) {
            for (Path jpg : files.filter(p -> p.toString().endsWith(".jpg")).limit(12).toList()) {
                Files.copy(jpg, flat.resolve(jpg.getParent().getFileName() + "-" + jpg.getFileName()));
            }
        }
        Run r = run("run", "--data", flat.toString(), "--batch-size", "4", "--no-progress");
        assertThat(r.status()).as(r.err()).isZero();
        assertThat(r.out()).contains("throughput: 12 images in 3 batches", "0 failed to read or decode");

        Run empty = run("run", "--data", Files.createDirectories(work.resolve("empty")).toString());
        assertThat(empty.status()).isEqualTo(Spdl4jCommand.EXIT_USAGE);
        assertThat(empty.err()).contains("no images (bmp, jpeg, jpg, png, webp) in it or in class sub-folders");
    }

    @Test
    void shouldKeepInputOrderWhenAskedAndCountEveryEpoch() {
        // epochs run back to back as one stream: 80 images make 5 batches of 16
        Run r = run("run", "--data", data.toString(), "--batch-size", "16", "--order", "input", "--epochs", "2",
            "--no-progress");
        assertThat(r.status()).as(r.err()).isZero();
        assertThat(r.out()).contains("order INPUT", "throughput: 80 images in 5 batches");
    }

    @Test
    void shouldCopyEveryBatchToTheHostDeviceAndShowTheTransferStage() {
        Run r = run("run", "--data", data.toString(), "--batch-size", "8", "--device", "host", "--no-progress");
        assertThat(r.status()).as(r.err()).isZero();
        assertThat(r.out()).contains("device host", "throughput: 40 images in 5 batches", "0 failed to read or decode");
        assertThat(r.out().lines().map(String::strip)).as(r.out()).anyMatch(l -> l.startsWith("transfer "));

        Run cpu = run("run", "--data", data.toString(), "--batch-size", "8", "--no-progress");
        assertThat(cpu.status()).as(cpu.err()).isZero();
        assertThat(cpu.out().lines().map(String::strip)).as(cpu.out()).noneMatch(l -> l.startsWith("transfer "));
    }

    @Test
    void shouldRunTheTrainingTransformWithAugment() {
        Run r = run("run", "--data", data.toString(), "--batch-size", "8", "--epochs", "2", "--seed", "3", "--augment",
            "--no-progress");
        assertThat(r.status()).as(r.err()).isZero();
        assertThat(r.out()).contains("augmented (random resized crop 224 + flip, seed 3)",
            "throughput: 80 images in 10 batches", "0 failed to read or decode");

        Run eval = run("run", "--data", data.toString(), "--batch-size", "8", "--no-progress");
        assertThat(eval.status()).as(eval.err()).isZero();
        assertThat(eval.out()).contains("eval transform (resize 256, center crop 224)");
    }

    /** Every data kind takes every option: tar shards with the training transform, the transfer and two epochs. */
    @Test
    void shouldAugmentAndTransferTarShardsOverTwoEpochs() throws Exception {
        Path shards = shards();
        Run r = run("run", "--data", shards.toString(), "--augment", "--seed", "5", "--device", "host", "--epochs",
            "2", "--batch-size", "8", "--no-progress");
        assertThat(r.status()).as(r.err()).isZero();
        assertThat(r.out()).contains("3 tar shard(s)", "device host", "shard order shuffled (seed 5)",
            "augmented (random resized crop 224 + flip, seed 5)", "throughput: 80 images in 10 batches",
            "0 failed to read or decode");
        assertThat(r.out().lines().map(String::strip)).as(r.out()).anyMatch(l -> l.startsWith("transfer "));
    }

    /** The built-in sample's generator's images packed 16 a shard: 3 shards. */
    private Path shards() throws Exception {
        Path shards = Files.createDirectories(work.resolve("shards"));
        org.spdl4j.examples.classify.TarShardWriter.write(org.spdl4j.engine.source.FolderDataset.scan(data,
            org.spdl4j.loader.SampleSource.IMAGE_EXTENSIONS), shards, 16);
        return shards;
    }

    @Test
    void shouldFailWithOneLineWhenAGpuIsAskedForAndThereIsNone() {
        Assumptions.assumeFalse(DeviceDiscovery.probe().available(), "a GPU is present: --device gpu would succeed");
        Run r = run("run", "--data", data.toString(), "--device", "gpu", "--no-progress");
        assertThat(r.status()).isEqualTo(Spdl4jCommand.EXIT_FAILED);
        assertThat(r.err().strip().lines().count()).as(r.err()).isEqualTo(1);
        assertThat(r.err()).startsWith("spdl4j: ").contains("--device gpu", "no usable GPU", "--device auto")
            .doesNotContain("Exception", "\tat ");
        assertThat(r.out()).doesNotContain("throughput");
    }

    @Test
    void shouldRunOverWebDatasetShards() throws Exception {
        Path shards = shards();
        Run r = run("run", "--data", shards.toString(), "--batch-size", "8", "--no-progress", "--order", "input",
            "--wait", "busy-spin", "--no-shuffle");
        assertThat(r.status()).as(r.err()).isZero();
        assertThat(r.out()).contains("3 tar shard(s)", "throughput: 40 images in 5 batches", "0 failed to read or decode");
        // The header says what runs: the source reads a shard member by member; --order, --wait and --no-shuffle apply.
        assertThat(r.out()).contains("read member by member", "order INPUT", "wait BUSY_SPIN", "in order")
            .doesNotContain("order COMPLETION", "wait BACKOFF");
    }

    @Test
    void shouldRunOverAUrlListCountingANotFoundUrlAsOneFailedImage() throws Exception {
        try (ImageFileServer server = new ImageFileServer(data, 0)) {
            Path urls = work.resolve("urls.txt");
            int served = server.writeList(urls, i -> i % 3, server.url("no/such/image.jpg"));
            Run r = run("run", "--data", urls.toString(), "--batch-size", "8", "--read-concurrency", "4",
                "--no-progress");
            assertThat(r.status()).as(r.err()).isZero();
            assertThat(r.out()).contains((served + 1) + " URL(s)", "fetch",
                "throughput: " + served + " images in 5 batches", "1 failed to read or decode");
            assertThat(server.notFound.get()).isEqualTo(1);
        }
    }

    @Test
    void shouldRejectBadArgumentsWithOneLineAndNoStackTrace() throws Exception {
        Path flat = Files.createDirectories(work.resolve("flat-photos"));
        Files.write(flat.resolve("loose.txt"), new byte[] {1, 2, 3}); // no images, flat or in class sub-folders
        Path badConfig = Files.writeString(work.resolve("bad.properties"), "batch.size=abc\n");
        for (String[] args : List.of(
                new String[] {"soak", "--data", flat.toString(), "--minutes", "0.01"},
                new String[] {"soak", "--data", work.resolve("typo").toString(), "--minutes", "0.01"},
                new String[] {"run", "--data", data.toString(), "--config", badConfig.toString()},
                new String[] {"run", "--data", work.resolve("missing").toString()},
                new String[] {"run", "--decode-threads", "0"},
                // in the parser's range, not in the pipeline's: refused before anything runs
                new String[] {"run", "--data", data.toString(), "--read-concurrency", "70000"},
                new String[] {"run", "--data", data.toString(), "--decode-threads", "65537"},
                new String[] {"run", "--data", data.toString(), "--batch-size", "20000"},
                new String[] {"tune", "--data", data.toString(), "--cpu-budget", "100000"},
                new String[] {"profile", "--data", data.toString(), "--max-concurrency", "70000"},
                new String[] {"run", "--bogus"},
                new String[] {"run", "--order", "sideways"},
                new String[] {"run", "--device", "tpu"},
                new String[] {"probe", work.resolve("nope.jpg").toString()},
                new String[] {"soak", "--minutes", "0"},
                // more nanoseconds than a long holds: refused, not a run that fails on the overflow
                new String[] {"soak", "--data", data.toString(), "--minutes", "1e9"},
                new String[] {"soak", "--data", data.toString(), "--minutes", "Infinity"},
                new String[] {"frobnicate"})) {
            Run r = run(args);
            assertThat(r.status()).as(String.join(" ", args)).isEqualTo(Spdl4jCommand.EXIT_USAGE);
            assertThat(r.err().strip().lines().count()).as(r.err()).isEqualTo(1);
            assertThat(r.err()).startsWith("spdl4j: ").doesNotContain("Exception", "\tat ");
        }
        try (var left = Files.list(flat)) {
            assertThat(left.toList()).as("soak wrote nothing into the user's folder").hasSize(1);
        }
        assertThat(Files.exists(work.resolve("typo"))).isFalse();
        assertThat(run("run", "--data", data.toString(), "--config", badConfig.toString()).err())
            .contains("batch.size=abc is not a whole number");
        assertThat(run("run", "--data", data.toString(), "--batch-size", "20000").err())
            .startsWith("spdl4j: --batch-size 20000: must be at most 14266 (a batch of more is over 2 GiB");
        assertThat(run("run", "--data", data.toString(), "--read-concurrency", "70000").err())
            .startsWith("spdl4j: --read-concurrency 70000: must be at most 65536");
    }

    @Test
    void shouldSoakOverTheImageFormatsRunReads() throws Exception {
        Path bmps = Files.createDirectories(work.resolve("bmps/cls"));
        try (var files = Files.walk(data)) {
            int n = 0;
            for (Path jpg : files.filter(p -> p.toString().endsWith(".jpg")).limit(4).toList()) {
                assertThat(ImageIO.write(ImageIO.read(jpg.toFile()), "bmp", bmps.resolve(n++ + ".bmp").toFile()))
                    .isTrue();
            }
        }
        Run r = run("soak", "--data", bmps.getParent().toString(), "--minutes", "0.005", "--out",
            work.resolve("soak").toString());
        assertThat(r.status()).as(r.err()).isNotEqualTo(Spdl4jCommand.EXIT_USAGE); // 1: too short to measure growth
        assertThat(r.out()).contains("spdl4j soak: 4 images from " + bmps.getParent());
        try (var left = Files.list(bmps)) {
            assertThat(left.toList()).as("soak wrote nothing into the user's folder").hasSize(4);
        }
    }

    @Test
    void shouldRejectAConfigFileWithAnUnknownKeyOrABadValueNamingTheFileAndKey() throws Exception {
        record Case(String config, String message) {
        }
        for (Case c : List.of(
                new Case("batch_size=8\n", ": unknown key 'batch_size'; the keys are batch.size, read.concurrency,"
                    + " decode.threads, order, wait, augment"),
                new Case("augment=yes\n", ": augment=yes: use true or false"),
                new Case("wait=busy_spin\n", ": wait=busy_spin: use backoff, busy-spin, yielding or blocking"),
                new Case("order=random\n", ": order=random: use completion or input"),
                new Case("decode.threads=0\n", ": decode.threads=0: must be at least 1"),
                new Case("read.concurrency=65537\n", ": read.concurrency=65537: must be at most 65536"),
                new Case("batch.size=14267\n", ": batch.size=14267: must be at most 14266"))) {
            Path file = Files.writeString(work.resolve("bad.properties"), c.config());
            Run r = run("run", "--data", data.toString(), "--config", file.toString(), "--no-progress");
            assertThat(r.status()).as(c.config()).isEqualTo(Spdl4jCommand.EXIT_USAGE);
            assertThat(r.err()).as(c.config()).startsWith("spdl4j: " + file + c.message());
        }
        Run cli = run("run", "--data", data.toString(), "--wait", "busy_spin");
        assertThat(cli.status()).isEqualTo(Spdl4jCommand.EXIT_USAGE);
        assertThat(cli.err()).startsWith("spdl4j: --wait busy_spin: use backoff");

        Path good = Files.writeString(work.resolve("good.properties"), "augment=TRUE\nwait=yielding\nbatch.size=8\n");
        Run r = run("run", "--data", data.toString(), "--config", good.toString(), "--no-progress");
        assertThat(r.status()).as(r.err()).isZero();
        assertThat(r.out()).contains("batch 8", "wait YIELDING", "augmented", "throughput: 40 images in 5 batches");
        for (String command : List.of("run", "tune")) {
            assertThat(run(command, "--help").out()).as(command).contains("Config file keys",
                "  batch.size        whole number, 1-" + PipelineArgs.maxBatchSize(MediaOption.image) + " ",
                "  read.concurrency ", "  decode.threads ", "  order ", "  wait ", "  augment           true or false");
        }
    }

    /** RANK / WORLD_SIZE are read from the real environment: each case runs the command in a child JVM. */
    @Test
    void shouldRejectABadRankEnvironmentAsABadArgumentNamingTheVariables() throws Exception {
        for (Map<String, String> env : List.of(Map.of("RANK", "3", "WORLD_SIZE", "2"),
                Map.of("RANK", "abc", "WORLD_SIZE", "2"), Map.of("RANK", "0"))) {
            List<String> command = new ArrayList<>();
            command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
            command.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments());
            command.addAll(List.of("-cp", System.getProperty("java.class.path"), Spdl4jCommand.class.getName(),
                "run", "--data", data.toString(), "--no-progress"));
            ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
            pb.environment().remove("RANK");
            pb.environment().remove("WORLD_SIZE");
            pb.environment().putAll(env);
            Process p = pb.start();
            String output = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            assertThat(p.waitFor()).as(env + ": " + output).isEqualTo(Spdl4jCommand.EXIT_USAGE);
            assertThat(output.strip().lines().count()).as(output).isEqualTo(1);
            assertThat(output).as(env.toString()).startsWith("spdl4j: environment variables RANK=")
                .contains("WORLD_SIZE=").doesNotContain("failed", "Exception");
        }
    }

    @Test
    void shouldSayWhatIsWrongWithAPathNotJustThePath() throws Exception {
        Path file = Files.writeString(work.resolve("in-the-way"), "x");
        Run report = run("run", "--data", data.toString(), "--report", file.toString(), "--no-progress");
        assertThat(report.status()).as(report.err()).isEqualTo(Spdl4jCommand.EXIT_USAGE);
        assertThat(report.err()).startsWith("spdl4j: --report " + file + ": not a directory (a file is in the way)");
        assertThat(report.out()).doesNotContain("throughput");

        Path missing = work.resolve("missing.properties");
        Run config = run("run", "--data", data.toString(), "--config", missing.toString());
        assertThat(config.status()).isEqualTo(Spdl4jCommand.EXIT_USAGE);
        assertThat(config.err()).startsWith("spdl4j: --config " + missing + ": no such file");
    }

    @Test
    void shouldFailARunThatDeliveredNoImageNamingTheFirstFailure() throws Exception {
        Path empty = Files.writeString(work.resolve("empty.txt"), "# nothing listed\n");
        Run e = run("run", "--data", empty.toString(), "--no-progress");
        assertThat(e.status()).as(e.err()).isEqualTo(Spdl4jCommand.EXIT_USAGE);
        assertThat(e.err()).startsWith("spdl4j: --data " + empty + ": lists no sample");

        Path missing = Files.writeString(work.resolve("missing.txt"), "gone/a.jpg\ngone/b.jpg\n");
        Run r = run("run", "--data", missing.toString(), "--no-progress");
        assertThat(r.status()).as(r.err()).isEqualTo(Spdl4jCommand.EXIT_FAILED);
        assertThat(r.out()).contains("throughput: 0 images in 0 batches", "; no batch;", "2 failed to read or decode")
            .doesNotContain("NaN");
        assertThat(r.err()).containsPattern("spdl4j: run failed: no image could be read or decoded \\(2 failed\\); "
            + "first failure: read \\S*gone/[ab]\\.jpg: no such file");

        try (ImageFileServer server = new ImageFileServer(data, 0)) {
            Path urls = Files.writeString(work.resolve("urls.txt"), server.url("no/such/a.jpg") + "\n"
                + server.url("no/such/b.jpg") + "\n");
            Run u = run("run", "--data", urls.toString(), "--no-progress");
            assertThat(u.status()).as(u.err()).isEqualTo(Spdl4jCommand.EXIT_FAILED);
            assertThat(u.out()).contains("throughput: 0 images in 0 batches", "; no batch;").doesNotContain("NaN");
            assertThat(u.err()).contains("spdl4j: run failed: no image could be read or decoded (2 failed); "
                + "first failure: cannot fetch http");
        }
    }

    @Test
    void shouldRefuseShardsAndUrlListsInTuneAndProfileAndNeverWriteAFailedTuning() throws Exception {
        Path shards = shards();
        Path oneShard;
        try (var tars = Files.list(shards)) {
            oneShard = tars.filter(p -> p.toString().endsWith(".tar")).findFirst().orElseThrow();
        }
        Path urls = Files.writeString(work.resolve("urls.txt"), "http://127.0.0.1:9/a.jpg\n");
        for (String command : List.of("tune", "profile")) {
            for (Path d : List.of(shards, oneShard, urls)) {
                Run r = run(command, "--data", d.toString(), "--images", "4", "--out", work.resolve("out-" + command)
                    .toString());
                assertThat(r.status()).as(command + " " + d + ": " + r.err()).isEqualTo(Spdl4jCommand.EXIT_USAGE);
                assertThat(r.err()).startsWith("spdl4j: --data " + d + ": " + command
                    + " reads a folder of images or a .txt list of image paths, not ");
                assertThat(r.err().strip().lines().count()).as(r.err()).isEqualTo(1);
            }
        }
        assertThat(work.resolve("out-tune")).doesNotExist();

        Path missing = Files.writeString(work.resolve("missing.txt"), "gone/a.jpg\ngone/b.jpg\n");
        Path config = work.resolve("tuned.properties");
        Run t = run("tune", "--data", missing.toString(), "--images", "2", "--cpu-budget", "1", "--out",
            config.toString());
        assertThat(t.status()).as(t.err()).isEqualTo(Spdl4jCommand.EXIT_FAILED);
        assertThat(t.err()).contains("spdl4j: tune failed: no image could be read or decoded (2 of 2 failed); first"
            + " failure: read ", ": no such file; nothing written to " + config);
        assertThat(config).doesNotExist();
    }

    /**
     * An output path that cannot be written is a bad argument, refused before anything runs: not after a whole tuning
     * search, profile or soak, whose results would be lost.
     */
    @Test
    void shouldRefuseAnUnwritableOutputPathBeforeRunning() throws Exception {
        Path file = Files.writeString(work.resolve("in-the-way"), "x");
        Path folder = Files.createDirectories(work.resolve("a-folder"));
        for (String[] args : List.of(
                new String[] {"tune", "--data", data.toString(), "--images", "2", "--cpu-budget", "1", "--out",
                    folder.toString()},
                new String[] {"tune", "--data", data.toString(), "--images", "2", "--cpu-budget", "1", "--out",
                    work.resolve("no-such-folder/tuned.properties").toString()},
                new String[] {"tune", "--data", data.toString(), "--images", "2", "--cpu-budget", "1", "--out",
                    file.resolve("tuned.properties").toString()},
                new String[] {"profile", "--data", data.toString(), "--images", "2", "--max-concurrency", "1",
                    "--out", file.toString()},
                new String[] {"profile", "--data", data.toString(), "--images", "2", "--max-concurrency", "1",
                    "--out", file.resolve("sub").toString()},
                new String[] {"soak", "--data", data.toString(), "--minutes", "0.002", "--out", file.toString()})) {
            Run r = run(args);
            assertThat(r.status()).as(String.join(" ", args) + ": " + r.err()).isEqualTo(Spdl4jCommand.EXIT_USAGE);
            assertThat(r.err()).startsWith("spdl4j: --out ").doesNotContain("Exception", "\tat ");
            assertThat(r.err().strip().lines().count()).as(r.err()).isEqualTo(1);
            assertThat(r.out()).as("refused before anything ran").isEmpty();
        }
        assertThat(Files.readString(file)).isEqualTo("x");
        assertThat(work.resolve("no-such-folder")).doesNotExist();
    }

    @Test
    @org.junit.jupiter.api.Timeout(60)
    void shouldSayAFifoOrAFolderIsNotARegularFileWithoutOpeningIt() throws Exception {
        Path fifo = work.resolve("pipe");
        assertThat(new ProcessBuilder("mkfifo", fifo.toString()).inheritIO().start().waitFor()).isZero();
        Run r = run("probe", fifo.toString()); // opening a FIFO with no writer would block here
        assertThat(r.status()).isEqualTo(Spdl4jCommand.EXIT_USAGE);
        assertThat(r.err()).startsWith("spdl4j: FILE " + fifo + ": not a regular file (a FIFO)");
        Run folder = run("probe", work.toString());
        assertThat(folder.status()).isEqualTo(Spdl4jCommand.EXIT_USAGE);
        assertThat(folder.err()).startsWith("spdl4j: FILE " + work + ": not a regular file (a directory)");
        assertThat(run("probe", work.resolve("nope.jpg").toString()).err()).startsWith("spdl4j: FILE "
            + work.resolve("nope.jpg") + ": no such file");
    }

    @Test
    void shouldProbeAnImage() throws Exception {
        Path jpg;
        try (var files = Files.walk(data)) {
            jpg = files.filter(p -> p.toString().endsWith(".jpg")).findFirst().orElseThrow();
        }
        Run r = run("probe", jpg.toString());
        assertThat(r.status()).as(r.err()).isZero();
        assertThat(r.out()).contains("video mjpeg").containsPattern("\\d+x\\d+");
    }

    @Test
    void shouldTuneAndWriteAConfigThatRunAccepts() throws Exception {
        Path config = work.resolve("tuned.properties");
        Run tune = run("tune", "--data", data.toString(), "--images", "24", "--cpu-budget", "2", "--out",
            config.toString());
        assertThat(tune.status()).as(tune.err()).isZero();
        Properties p = new Properties();
        try (var in = Files.newBufferedReader(config)) {
            p.load(in);
        }
        int decode = Integer.parseInt(p.getProperty("decode.threads"));
        assertThat(decode).isBetween(1, 2);
        Run run = run("run", "--data", data.toString(), "--config", config.toString(), "--no-progress");
        assertThat(run.status()).as(run.err()).isZero();
        assertThat(run.out()).contains("decode " + decode + " threads");
    }

    @Test
    void shouldProfileEachStageAtIncreasingConcurrency() throws Exception {
        Run r = run("profile", "--data", data.toString(), "--images", "16", "--max-concurrency", "2", "--out",
            work.toString());
        assertThat(r.status()).as(r.err()).isZero();
        assertThat(r.out()).contains("read", "decode", "best at concurrency");
        // --max-concurrency bounds every stage, read (I/O, 64 by default) included: levels 1 and 2 only.
        assertThat(r.out().lines().filter(l -> l.matches("(read|decode)\\s+\\d+\\s.*"))
            .map(l -> l.trim().split("\\s+")[1]).distinct().sorted().toList()).containsExactly("1", "2");
        assertThat(Files.readString(work.resolve("profile.svg"))).contains("concurrency (log2)", "data-name=\"read\"",
            "data-name=\"decode\"");
    }

    /** One unreadable file in a .txt list is one failed read, as in run; the rest is profiled. */
    @Test
    void shouldProfileAListWithAnUnreadableFileCountingItAsOneFailedRead() throws Exception {
        List<String> lines = new ArrayList<>();
        try (var files = Files.walk(data)) {
            files.filter(p -> p.toString().endsWith(".jpg")).sorted().limit(8).forEach(p -> lines.add(p.toString()));
        }
        lines.add(work.resolve("no/such/image.jpg").toString());
        Path list = Files.write(work.resolve("list.txt"), lines);
        Run r = run("profile", "--data", list.toString(), "--images", "9", "--max-concurrency", "1", "--out",
            work.resolve("out-list").toString());
        assertThat(r.status()).as(r.err()).isZero();
        assertThat(r.out()).contains("(1 failed)", "1 of 9 images could not be read: decode measured over the other 8",
            "decode   best at concurrency 1");
        assertThat(r.out().lines().filter(l -> l.startsWith("decode ") && l.contains("failed"))).as(r.out()).isEmpty();

        Path missing = Files.writeString(work.resolve("missing.txt"), "gone/a.jpg\ngone/b.jpg\n");
        Run none = run("profile", "--data", missing.toString(), "--images", "2", "--max-concurrency", "1", "--out",
            work.resolve("out-missing").toString());
        assertThat(none.status()).as(none.err()).isEqualTo(Spdl4jCommand.EXIT_FAILED);
        assertThat(none.out()).contains("2 of 2 images could not be read: nothing to decode").doesNotContain("NaN");
        assertThat(none.err()).contains("profile failed: no image could be read (2 of 2 failed");
    }

    /** A profile whose decode failed on every image at every concurrency says so and fails (its figures time errors). */
    @Test
    void shouldFailAProfileInWhichNoImageDecodes() throws Exception {
        Path bad = Files.createDirectories(work.resolve("corrupt/cls"));
        for (int i = 0; i < 4; i++) {
            Files.write(bad.resolve(i + ".jpg"), new byte[] {(byte) 0xFF, (byte) 0xD8, 1, 2, 3, (byte) i});
        }
        Run r = run("profile", "--data", work.resolve("corrupt").toString(), "--images", "4", "--max-concurrency",
            "1", "--out", work.resolve("out-corrupt").toString());
        assertThat(r.status()).as(r.err()).isEqualTo(Spdl4jCommand.EXIT_FAILED);
        assertThat(r.err()).contains("profile failed: no image could be decoded (4 of 4 failed");
    }
}
