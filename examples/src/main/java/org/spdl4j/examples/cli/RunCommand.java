package org.spdl4j.examples.cli;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.spdl4j.engine.source.FileItem;
import org.spdl4j.engine.source.IndexedDataset;
import org.spdl4j.engine.source.http.HttpFetchSettings;
import org.spdl4j.engine.stats.PipelineSnapshot;
import org.spdl4j.engine.stats.PipelineStats;
import org.spdl4j.engine.stats.StageHistogramLogWriter;
import org.spdl4j.engine.stats.StatsTable;
import org.spdl4j.examples.classify.ShardImageLoader;
import org.spdl4j.examples.http.UrlImageLoader;
import org.spdl4j.examples.http.UrlList;
import org.spdl4j.examples.image.BatchLoader;
import org.spdl4j.examples.image.ImageBatchLoader;
import org.spdl4j.examples.image.ImageLoaderOptions;
import org.spdl4j.examples.report.TaskTrace;
import org.spdl4j.offheap.DirectMemoryAllocator;
import org.spdl4j.offheap.batch.Batch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code spdl4j run}: the image pipeline (decode, RGB, short side 256, center crop 224, batches of 32) over the built-in
 * sample or {@code --data}, with a live progress line, a per-stage table at the end, and with {@code --report} an HTML
 * page, PNG plots, {@code .hlog} interval logs and a Perfetto trace.
 */
@Command(name = "run", mixinStandardHelpOptions = true,
    description = "Run the image pipeline and show where the time goes.")
final class RunCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    PipelineArgs pipelineArgs;

    @Option(names = "--data", paramLabel = "PATH",
        description = "a folder of images (class sub-folders = labels), a .txt list of paths or of http(s) URLs (each"
            + " optionally followed by a tab and a label), or .tar shards (a file or a folder of them); default: built-in"
            + " sample")
    Path data;

    @Option(names = "--images", paramLabel = "N", defaultValue = "1024",
        description = "size of the built-in sample (default ${DEFAULT-VALUE})")
    int sampleImages;

    @Option(names = "--epochs", paramLabel = "N", defaultValue = "1", description = "epochs (default ${DEFAULT-VALUE})")
    int epochs;

    @Option(names = "--seed", paramLabel = "N", defaultValue = "0", description = "shuffle seed (default ${DEFAULT-VALUE})")
    long seed;

    @Option(names = "--no-shuffle", description = "keep the folder's order")
    boolean noShuffle;

    @Option(names = "--report", paramLabel = "DIR", description = "write an HTML report with plots, .hlog and trace")
    Path report;

    @Option(names = "--interval-ms", paramLabel = "MS", defaultValue = "500",
        description = "stats sampling interval (default ${DEFAULT-VALUE})")
    int intervalMs;

    @Option(names = "--no-progress", description = "no live progress line")
    boolean noProgress;

    @Option(names = "--device", paramLabel = "DEVICE", defaultValue = "cpu",
        description = "cpu (default) or auto: batches stay in host memory; GPU staging is in cuda-staging")
    String device;

    @Override
    public Integer call() throws Exception {
        if (epochs < 1 || sampleImages < 1 || intervalMs < 10) {
            throw new ParameterException(spec.commandLine(), "--epochs and --images must be >= 1 and --interval-ms >= 10");
        }
        if (!device.equals("cpu") && !device.equals("auto")) {
            throw new ParameterException(spec.commandLine(), "--device " + device + ": use cpu or auto");
        }
        ImageLoaderOptions options = pipelineArgs.resolve(spec);
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        List<Path> shards = DataArgs.shards(data);
        if (!shards.isEmpty() && epochs != 1) {
            throw new ParameterException(spec.commandLine(), "--epochs " + epochs + " with tar shards: shards are read "
                + "in one pass; run once per epoch");
        }
        List<UrlList.Entry> urls = shards.isEmpty() ? DataArgs.urls(spec, data) : List.of();
        if (report != null) {
            Files.createDirectories(report);
        }
        TaskTrace trace = report != null ? new TaskTrace(200_000) : null;
        RunMetrics metrics = new RunMetrics();
        long total;
        BatchLoader built;
        if (!urls.isEmpty()) {
            total = (long) urls.size() * epochs;
            built = new UrlImageLoader("run", () -> java.util.stream.IntStream.range(0, epochs).boxed()
                .flatMap(e -> urls.stream()).iterator(), options.cropSize(), options.shortSide(), options.batchSize(),
                options.decodeConcurrency(), HttpFetchSettings.defaults().withMaxInFlight(options.readConcurrency()));
            out.println("spdl4j run: " + urls.size() + " URL(s), fetched " + options.readConcurrency()
                + " at a time, in list order (no per-task trace for URLs)");
        } else if (shards.isEmpty()) {
            IndexedDataset<FileItem> dataset = DataArgs.dataset(spec, data, sampleImages, err);
            total = DataArgs.perEpoch(dataset, seed) * epochs;
            built = new ImageBatchLoader("run", DataArgs.epochs(dataset, seed, !noShuffle, epochs), options,
                DirectMemoryAllocator.INSTANCE, trace);
        } else {
            total = 0; // unknown until the shards are read: the progress line shows a count and a rate
            built = new ShardImageLoader("run", shards, options.cropSize(), options.shortSide(), options.batchSize(),
                options.decodeConcurrency());
            out.println("spdl4j run: " + shards.size() + " tar shard(s), read in order (no per-task trace for shards)");
        }
        try (BatchLoader loader = built) {
            PipelineStats stats = PipelineStats.of(loader.stats());
            StageHistogramLogWriter hlog = report != null ? StageHistogramLogWriter.open(stats, report.resolve("run.hlog"))
                : null;
            ProgressLine progress = noProgress ? null
                : new ProgressLine(err, System.console() != null, total, "img");
            StatsSampler sampler = new StatsSampler(stats, intervalMs, progress, metrics);
            out.printf(Locale.ROOT, "spdl4j run: %s images x %d epoch(s), batch %d, read %d in flight, decode %d threads,"
                    + " order %s, wait %s%n", total > 0 ? Long.toString(total / epochs) : "?", epochs,
                options.batchSize(), options.readConcurrency(),
                options.decodeConcurrency(), options.order(), options.waitPolicy());
            out.flush();
            metrics.start();
            stats.markStarted();
            sampler.start();
            long images = 0;
            long batches = 0;
            try {
                for (Batch batch : loader) {
                    if (batches == 0) {
                        metrics.firstBatch();
                    }
                    images += batch.size();
                    batches++;
                    batch.close();
                }
            } finally {
                sampler.close();
            }
            metrics.end(images, batches);
            PipelineSnapshot last = stats.runSnapshot(); // shares over the whole run, not the last interval
            if (progress != null) {
                progress.finish(images, metrics.imagesPerSecond());
            }
            if (hlog != null) {
                hlog.close();
            }
            String summary = StatsTable.render(last) + "\n" + metrics.describe(loader.failedImages());
            out.println(summary);
            if (report != null) {
                RunReport.write(report, stats, last, summary, sampler.throughputSeries(), trace);
                out.println("report: " + report.resolve("index.html"));
            }
            out.flush();
        }
        return 0;
    }
}
