package org.spdl4j.examples.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import java.util.function.ToIntFunction;
import org.spdl4j.cuda.CudaConfiguration;
import org.spdl4j.cuda.Device;
import org.spdl4j.engine.source.FileItem;
import org.spdl4j.engine.source.IndexedDataset;
import org.spdl4j.engine.source.RankInfo;
import org.spdl4j.engine.source.http.HttpFetchSettings;
import org.spdl4j.engine.stats.PipelineSnapshot;
import org.spdl4j.engine.stats.PipelineStats;
import org.spdl4j.engine.stats.StageStats;
import org.spdl4j.engine.stats.StageHistogramLogWriter;
import org.spdl4j.engine.stats.StatsTable;
import org.spdl4j.loader.internal.IoMessages;
import org.spdl4j.examples.classify.ShardImageLoader;
import org.spdl4j.examples.http.UrlImageLoader;
import org.spdl4j.examples.http.UrlList;
import org.spdl4j.examples.image.BatchLoader;
import org.spdl4j.examples.image.DeviceImageLoader;
import org.spdl4j.examples.image.ImageBatchLoader;
import org.spdl4j.examples.image.ImageLoaderOptions;
import org.spdl4j.examples.report.TaskTrace;
import org.spdl4j.examples.slots.SlotLoaderOptions;
import org.spdl4j.offheap.DirectMemoryAllocator;
import org.spdl4j.offheap.batch.Batch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code spdl4j run}: the image pipeline (decode, RGB, short side 256, center crop 224, or with {@code --augment} a
 * random resized crop 224 + flip; batches of 32) over the built-in sample or {@code --data}, with a live progress line, a per-stage table at the end, and with {@code --report} an HTML
 * page, PNG plots, {@code .hlog} interval logs and a Perfetto trace. With {@code --device auto|host|gpu} the batches go
 * on to the device through the {@value DeviceImageLoader#H2D_STAGE} stage, and the consumer waits for each copy.
 */
@Command(name = "run", mixinStandardHelpOptions = true,
    description = "Run the image pipeline and show where the time goes.")
final class RunCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    PipelineArgs pipelineArgs;

    @Option(names = "--data", paramLabel = "PATH",
        description = "a folder of images (class sub-folders = labels, or images directly in it), a .txt list of paths or of http(s) URLs (each"
            + " optionally followed by a tab and a label), or .tar shards (a file or a folder of them); default: built-in"
            + " sample")
    Path data;

    @Option(names = "--images", paramLabel = "N", defaultValue = "1024",
        description = "size of the built-in sample (default ${DEFAULT-VALUE})")
    int sampleImages;

    @Option(names = "--epochs", paramLabel = "N", defaultValue = "1", description = "epochs (default ${DEFAULT-VALUE})")
    int epochs;

    @Option(names = "--seed", paramLabel = "N", defaultValue = "0",
        description = "shuffle seed, and with --augment the crops' seed (default ${DEFAULT-VALUE}); not used with tar"
            + " shards or a URL list, which are read in order")
    long seed;

    @Option(names = "--no-shuffle", description = "keep the folder's or path list's order (tar shards and URL lists are"
        + " always read in order: shard by shard, or the list's)")
    boolean noShuffle;

    @Option(names = "--report", paramLabel = "DIR", description = "write an HTML report with plots, .hlog and trace")
    Path report;

    @Option(names = "--interval-ms", paramLabel = "MS", defaultValue = "500",
        description = "stats sampling interval (default ${DEFAULT-VALUE})")
    int intervalMs;

    @Option(names = "--no-progress", description = "no live progress line")
    boolean noProgress;

    @Option(names = "--device", paramLabel = "DEVICE", defaultValue = "cpu",
        description = "cpu (default): batches stay in host memory; auto: copy to the GPU if one is found, else into"
            + " host memory; host: copy into host memory; gpu: copy to the GPU or fail")
    DeviceOption device;

    @Override
    public Integer call() throws Exception {
        if (epochs < 1 || sampleImages < 1 || intervalMs < 10) {
            throw new ParameterException(spec.commandLine(), "--epochs and --images must be >= 1 and --interval-ms >= 10");
        }
        ImageLoaderOptions options = PipelineArgs.seeded(pipelineArgs.resolve(spec), seed);
        RankInfo rank = DataArgs.rank(spec);
        if (report != null) {
            reportDirectory();
        }
        List<Path> shards = DataArgs.shards(data);
        if (!shards.isEmpty() && epochs != 1) {
            throw new ParameterException(spec.commandLine(), "--epochs " + epochs + " with tar shards: shards are read "
                + "in one pass; run once per epoch");
        }
        List<UrlList.Entry> urls = shards.isEmpty() ? DataArgs.urls(spec, data, rank) : List.of();
        if ((!shards.isEmpty() || !urls.isEmpty()) && device != DeviceOption.cpu) {
            throw new ParameterException(spec.commandLine(), "--device " + device + " with tar shards or a URL list: "
                + "the copy stage runs on the image-folder loader only; use --device cpu");
        }
        if ((!shards.isEmpty() || !urls.isEmpty()) && options.augment() != null) {
            throw new ParameterException(spec.commandLine(), "--augment with tar shards or a URL list: the training "
                + "transform runs on the image-folder and list loader only; drop --augment or use a folder or .txt list");
        }
        try (Device target = device.open()) { // null for cpu: no device, no copy stage
            return run(options, rank, shards, urls, target);
        }
    }

    private int run(ImageLoaderOptions options, RankInfo rank, List<Path> shards, List<UrlList.Entry> urls,
                    Device target) throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        // Only the folder/list loaders record task spans: a URL or shard run's report has no trace.json.
        TaskTrace trace = report != null && urls.isEmpty() && shards.isEmpty() ? new TaskTrace(200_000) : null;
        RunMetrics metrics = new RunMetrics();
        long total;
        Supplier<Running> build; // what runs is decided first (the built-in sample generated), then built
        if (!urls.isEmpty()) {
            total = (long) urls.size() * epochs;
            build = () -> Running.of(new UrlImageLoader("run", () -> java.util.stream.IntStream.range(0, epochs)
                .boxed().flatMap(e -> urls.stream()).iterator(), options.cropSize(), options.shortSide(), options.batchSize(),
                slotOptions(options), options.order(),
                HttpFetchSettings.defaults().withMaxInFlight(options.readConcurrency())));
            out.println("spdl4j run: " + urls.size() + " URL(s), fetched " + options.readConcurrency()
                + " at a time (no per-task trace for URLs)");
        } else if (shards.isEmpty()) {
            IndexedDataset<FileItem> dataset = DataArgs.dataset(spec, data, sampleImages, err, DataArgs.RUN_ACCEPTS);
            total = DataArgs.perEpoch(dataset, rank, seed) * epochs;
            Iterable<FileItem> files = DataArgs.epochs(dataset, rank, seed, !noShuffle, epochs);
            if (target == null) {
                build = () -> Running.of(new ImageBatchLoader("run", files, options, DirectMemoryAllocator.INSTANCE,
                    trace));
            } else {
                int copies = Math.max(1, Math.min(CudaConfiguration.IN_FLIGHT, options.batchesInFlight() - 1));
                build = () -> Running.of(new DeviceImageLoader("run", files, options, target, copies, trace));
                out.println("spdl4j run: device " + target.name() + (target.isGpu() ? "" : " (no GPU: host memory)")
                    + ", " + copies + " copies in flight");
            }
        } else {
            total = 0; // unknown until the shards are read: the progress line shows a count and a rate
            build = () -> Running.of(new ShardImageLoader("run", shards, options.cropSize(), options.shortSide(),
                options.batchSize(), slotOptions(options), rank));
            out.println("spdl4j run: " + shards.size() + " tar shard(s), read in order (no per-task trace for shards)");
        }
        // The first batch's whole wait and the run's own peak RSS from here: not the sample's generation, but FFmpeg
        // loading, the loader's pools and its threads starting.
        metrics.building();
        try (Running loader = build.get()) {
            PipelineStats stats = PipelineStats.of(loader.stats());
            StageHistogramLogWriter hlog = report != null ? StageHistogramLogWriter.open(stats, report.resolve("run.hlog"))
                : null;
            ProgressLine progress = noProgress ? null
                : new ProgressLine(err, System.console() != null, total, "img");
            StatsSampler sampler = new StatsSampler(stats, intervalMs, progress, metrics);
            // A tar stream is read member by member, in order: say what runs there, not what was asked.
            out.printf(Locale.ROOT, "spdl4j run: %s images x %d epoch(s), batch %d, read %s, decode %d threads,"
                    + " order %s, wait %s, %s%n", total > 0 ? Long.toString(total / epochs) : "?", epochs,
                options.batchSize(), shards.isEmpty() ? options.readConcurrency() + " in flight" : "shard by shard",
                options.decodeConcurrency(), shards.isEmpty() ? options.order() : "INPUT (a tar shard reads in order)",
                options.waitPolicy(), options.augment() == null
                    ? "eval transform (resize " + options.shortSide() + ", center crop " + options.cropSize() + ")"
                    : "augmented (random resized crop " + options.cropSize() + " + flip, seed " + seed + ")");
            out.flush();
            metrics.start();
            stats.markStarted();
            sampler.start();
            try {
                loader.drain().run(metrics);
            } finally {
                sampler.close();
                if (hlog != null) {
                    hlog.close(); // also when the run failed: the log of what ran is kept, the file is closed
                }
            }
            PipelineSnapshot last = stats.runSnapshot(); // shares over the whole run, not the last interval
            if (progress != null) {
                progress.finish(metrics.images(), metrics.imagesPerSecond());
            }
            String summary = StatsTable.render(last) + "\n" + metrics.describe(loader.failedImages().getAsLong());
            out.println(summary);
            if (report != null) {
                RunReport.write(report, stats, last, summary, sampler.throughputSeries(), trace);
                out.println("report: " + report.resolve("index.html"));
            }
            out.flush();
            if (metrics.images() == 0) { // the table above shows where it went; the run still failed
                long failed = loader.failedImages().getAsLong();
                throw new IllegalStateException(failed > 0
                    ? "no image could be read or decoded (" + failed + " failed); first failure: "
                        + failureText(loader.firstFailure().get())
                    : "no image was delivered: this process's share of --data held none");
            }
        }
        return 0;
    }

    /** A task failure's message; the cause of a wrapper a future completed with (the message names the image). */
    private static String failureText(Throwable t) {
        while ((t instanceof java.util.concurrent.CompletionException
                || t instanceof java.util.concurrent.ExecutionException) && t.getCause() != null) {
            t = t.getCause();
        }
        if (t == null) {
            return "not recorded";
        }
        return t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
    }

    /** Creates the {@code --report} folder before anything runs; a path that cannot be one is a bad argument. */
    private void reportDirectory() {
        if (Files.exists(report) && !Files.isDirectory(report)) {
            throw new ParameterException(spec.commandLine(), "--report " + report
                + ": not a directory (a file is in the way)");
        }
        try {
            Files.createDirectories(report);
        } catch (IOException e) {
            throw new ParameterException(spec.commandLine(), "--report " + report + ": " + IoMessages.describe(e));
        }
    }

    /** The slot loaders' options (shards, URL lists) from the image pipeline's: decode threads and wait policy. */
    private static SlotLoaderOptions slotOptions(ImageLoaderOptions options) {
        return SlotLoaderOptions.defaults().withFillConcurrency(options.decodeConcurrency())
            .withWaitPolicy(options.waitPolicy());
    }

    /** Consumes every batch of a loader, counting images and batches into the metrics. */
    @FunctionalInterface
    private interface Drain {
        void run(RunMetrics metrics);
    }

    /**
     * A loader as the run loop sees it, whatever its batches are.
     *
     * @param stats        its stages' statistics
     * @param failedImages images dropped so far
     * @param firstFailure why the first dropped image was dropped, or null
     * @param drain        the consumer loop
     * @param closer       closes the loader
     */
    private record Running(List<StageStats> stats, LongSupplier failedImages, Supplier<Throwable> firstFailure,
                           Drain drain, Runnable closer) implements AutoCloseable {
        static Running of(BatchLoader loader) {
            return new Running(loader.stats(), loader::failedImages, loader::firstFailure, m -> drain(loader, b -> {
                try (b) {
                    return b.size();
                }
            }, m), loader::close);
        }

        static Running of(DeviceImageLoader loader) {
            return new Running(loader.stats(), loader::failedImages, loader::firstFailure, m -> drain(loader, b -> {
                try (b) {
                    b.awaitReady(); // a training step would make its stream wait on the ready event instead
                    return b.spec().dim(0);
                }
            }, m), loader::close);
        }

        /** Runs the loop: {@code consume} uses and closes each batch and returns its sample count. */
        private static <B> void drain(Iterable<B> loader, ToIntFunction<B> consume, RunMetrics metrics) {
            long images = 0;
            long batches = 0;
            for (B batch : loader) {
                if (batches == 0) {
                    metrics.firstBatch();
                }
                images += consume.applyAsInt(batch);
                batches++;
            }
            metrics.end(images, batches);
        }

        @Override
        public void close() {
            closer.run();
        }
    }
}
