package org.spdl4j.examples.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import org.spdl4j.engine.EngineConfiguration;
import org.spdl4j.engine.source.FileItem;
import org.spdl4j.engine.source.IndexedDataset;
import org.spdl4j.loader.LoadedBatch;
import org.spdl4j.loader.Loader;
import org.spdl4j.loader.SampleEntry;
import org.spdl4j.loader.SampleSource;
import org.spdl4j.offheap.batch.Batch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code spdl4j tune}: searches per-stage concurrency for the best throughput of the whole loader within a CPU
 * budget (decode threads at most the budget), one stage at a time (decode threads first, they dominate; then reads in
 * flight), and writes the winner as a config file that {@code run --config} reads. Each trial builds a
 * {@link Loader} over the same images with the configuration's concurrencies; each configuration is measured as the
 * median of three trials ({@link TuneSearch}), after one warm-up trial. It reads image files (a folder, or a .txt list
 * of paths); tar shards and URL lists are refused as bad arguments. When no image can be read or decoded it fails and
 * writes nothing.
 */
@Command(name = "tune", mixinStandardHelpOptions = true,
    description = "Search stage concurrency for the best throughput; write a pipeline config. Each configuration is"
        + " measured as the median of 3 trials, after one warm-up trial: 13 trials with a CPU budget of 2 (about 10 s"
        + " with 512 images on 2 cores), 3 more per further decode level.")
final class TuneCommand implements Callable<Integer> {
    /** The largest {@code --cpu-budget}: the read sweep goes up to 16 x the budget. */
    static final int MAX_CPU_BUDGET = EngineConfiguration.MAX_CONCURRENCY / 16;

    @Spec
    CommandSpec spec;

    @Mixin
    PipelineArgs pipelineArgs;

    @Option(names = "--data", paramLabel = "PATH", description = "a folder of images (class sub-folders, or images"
        + " directly in it) or a .txt list of image paths; not tar shards or URL lists (spdl4j run reads those);"
        + " default: built-in sample")
    Path data;

    @Option(names = "--images", paramLabel = "N", defaultValue = "512",
        description = "images per trial (default ${DEFAULT-VALUE})")
    int images;

    @Option(names = "--cpu-budget", paramLabel = "THREADS",
        description = "most decode threads to use (default: cores; at most " + MAX_CPU_BUDGET + ")")
    Integer cpuBudget;

    @Option(names = "--out", paramLabel = "FILE", defaultValue = "spdl4j-pipeline.properties",
        description = "config file to write (default ${DEFAULT-VALUE})")
    Path outFile;

    @Override
    public Integer call() throws IOException {
        int budget = cpuBudget != null ? cpuBudget : Runtime.getRuntime().availableProcessors();
        if (images < 1 || budget < 1) {
            throw new ParameterException(spec.commandLine(), "--images and --cpu-budget must be >= 1");
        }
        if (budget > MAX_CPU_BUDGET) {
            throw new ParameterException(spec.commandLine(), "--cpu-budget " + budget + ": must be at most "
                + MAX_CPU_BUDGET + " (reads in flight go up to 16 x the budget, and a stage runs at most "
                + EngineConfiguration.MAX_CONCURRENCY + " tasks at once)");
        }
        OutputPaths.checkFile(spec, "--out", outFile);
        PrintWriter out = spec.commandLine().getOut();
        IndexedDataset<FileItem> dataset = DataArgs.imageFiles(spec, data, Math.max(images, 256),
            spec.commandLine().getErr());
        List<SampleEntry> items = new ArrayList<>();
        for (long i = 0; i < Math.min(images, dataset.size()); i++) {
            FileItem f = dataset.get(i);
            items.add(SampleEntry.file(f.path(), f.label()));
        }
        PipelineSettings best = pipelineArgs.resolve(spec, MediaOption.image);
        Trial warmUp = trial(items, best); // warm-up: JIT, page cache, FFmpeg contexts
        if (warmUp.images() == 0) { // every trial would measure failures: nothing to tune, nothing to write
            throw new IllegalStateException("no image could be read or decoded (" + warmUp.failed() + " of "
                + items.size() + " failed); first failure: " + failureText(warmUp.firstFailure()) + "; nothing written"
                + " to " + outFile);
        }
        out.printf(Locale.ROOT, "%-28s %10s  %s%n", "configuration", "img/s", "(median of " + TuneSearch.TRIALS
            + " trials: each trial's img/s)");
        TuneSearch.Result result = TuneSearch.search(budget, best, o -> trial(items, o).imagesPerSecond(),
            (sweep, level, m) -> {
                out.printf(Locale.ROOT, "%-15s %-12d %10.1f  %s%n", sweep, level, m.imagesPerSecond(), m.reused()
                    ? "(measured above)" : Arrays.stream(m.trials()).mapToObj(r -> String.format(Locale.ROOT, "%.1f", r))
                        .collect(Collectors.joining(" ")));
                out.flush();
            });
        best = result.best();
        double bestRate = result.imagesPerSecond();
        if (bestRate == 0) {
            throw new IllegalStateException("every trial delivered 0 images; nothing written to " + outFile);
        }
        PipelineArgs.write(best, outFile, String.format(Locale.ROOT, "tuned on %d images, cpu budget %d: %.1f img/s",
            items.size(), budget, bestRate));
        out.printf(Locale.ROOT, "best: decode threads %d, reads in flight %d: %.1f img/s%nwrote %s (use: spdl4j run "
            + "--config %s)%n", best.decodeConcurrency(), best.readConcurrency(), bestRate, outFile, outFile);
        out.flush();
        return 0;
    }

    /**
     * One trial's outcome.
     *
     * @param imagesPerSecond images delivered per second, from the pipeline's start (the loader's construction, which
     *                        loads FFmpeg and allocates pools, is not timed: it is the same at every level, and its
     *                        spread would drown the levels' differences) to its last batch
     * @param images          images delivered
     * @param failed          images that could not be read or decoded
     * @param firstFailure    why the first of them failed, or {@code null}
     */
    private record Trial(double imagesPerSecond, long images, long failed, Throwable firstFailure) {
    }

    private static Trial trial(List<SampleEntry> items, PipelineSettings settings) {
        long n = 0;
        try (Loader<Batch> loader = settings.applyTo(Loader.builder().name("tune").source(SampleSource.of(items))
                .decoder(MediaOption.image.decoder(settings.augment())).shuffle(false)).build()) {
            long t0 = System.nanoTime(); // built, not started: the first batch asked for starts the loader
            for (LoadedBatch<Batch> b : loader) {
                n += b.size();
                b.close();
            }
            return new Trial(n / ((System.nanoTime() - t0) / 1e9), n, loader.failures(), loader.firstFailure());
        }
    }

    private static String failureText(Throwable t) {
        return t == null ? "not recorded" : t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
    }
}
