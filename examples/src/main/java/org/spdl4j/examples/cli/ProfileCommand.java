package org.spdl4j.examples.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.agrona.concurrent.UnsafeBuffer;
import org.spdl4j.engine.EngineConfiguration;
import org.spdl4j.engine.profile.StageProfile;
import org.spdl4j.engine.profile.StageProfiler;
import org.spdl4j.engine.source.FileItem;
import org.spdl4j.engine.source.IndexedDataset;
import org.spdl4j.examples.report.ChartAxis;
import org.spdl4j.examples.report.SvgChart;
import org.spdl4j.media.ImageSpec;
import org.spdl4j.media.MediaLimits;
import org.spdl4j.media.PerThreadImageDecoders;
import org.spdl4j.media.PixelFormat;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code spdl4j profile}: each stage of the image pipeline alone at concurrency 1, 2, 4, ... (as SPDL's
 * profile_pipeline): read (file bytes, virtual threads) and decode (FFmpeg + scale to 224, from bytes in memory).
 * Each stage first makes one unmeasured warm-up pass, so that its concurrency-1 baseline is not also timing JVM and
 * engine start-up. Prints a table and writes {@code profile.svg}. Reads image files (a folder, or a .txt list of paths); tar shards
 * and URL lists are refused as bad arguments.
 */
@Command(name = "profile", mixinStandardHelpOptions = true,
    description = "Measure each stage alone at increasing concurrency, after one unmeasured warm-up pass per stage.")
final class ProfileCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--data", paramLabel = "PATH", description = "a folder of images (class sub-folders, or images"
        + " directly in it) or a .txt list of image paths; not tar shards or URL lists (spdl4j run reads those);"
        + " default: built-in sample")
    Path data;

    @Option(names = "--images", paramLabel = "N", defaultValue = "256",
        description = "images per measurement (default ${DEFAULT-VALUE})")
    int images;

    @Option(names = "--max-concurrency", paramLabel = "N", description = "largest concurrency of every stage (default: 2 x cores for decode, at least 64 for read,"
            + " which is I/O)")
    Integer maxConcurrency;

    @Option(names = "--out", paramLabel = "DIR", defaultValue = ".", description = "where profile.svg goes (default .)")
    Path outDir;

    @Override
    public Integer call() throws IOException {
        int max = maxConcurrency != null ? maxConcurrency : 2 * Runtime.getRuntime().availableProcessors();
        if (images < 1 || max < 1) {
            throw new ParameterException(spec.commandLine(), "--images and --max-concurrency must be >= 1");
        }
        if (max > EngineConfiguration.MAX_CONCURRENCY) {
            throw new ParameterException(spec.commandLine(), "--max-concurrency " + max + ": must be at most "
                + EngineConfiguration.MAX_CONCURRENCY + " (the most tasks a stage runs at once)");
        }
        OutputPaths.checkDirectory(spec, "--out", outDir);
        PrintWriter out = spec.commandLine().getOut();
        IndexedDataset<FileItem> dataset = DataArgs.imageFiles(spec, data, Math.max(images, 256),
            spec.commandLine().getErr());
        List<FileItem> items = new ArrayList<>();
        for (long i = 0; i < Math.min(images, dataset.size()); i++) {
            items.add(dataset.get(i));
        }
        int[] levels = StageProfiler.powersOfTwoUpTo(max);
        List<StageProfile> profiles = new ArrayList<>();
        profiles.add(StageProfiler.profile("read", items, f -> {
            try {
                return Files.readAllBytes(f.path());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }, true, StageProfiler.powersOfTwoUpTo(maxConcurrency != null ? max : Math.max(max, 64))));
        // The decode stage's inputs: the bytes of every image that could be read. One that could not (a missing or
        // unreadable file in a .txt list) is already counted as failed in the read rows, as run counts it.
        List<UnsafeBuffer> encoded = new ArrayList<>(items.size());
        for (FileItem f : items) {
            byte[] bytes;
            try {
                bytes = Files.readAllBytes(f.path());
            } catch (IOException e) {
                continue;
            }
            ByteBuffer direct = ByteBuffer.allocateDirect(bytes.length).put(bytes).flip();
            encoded.add(new UnsafeBuffer(direct));
        }
        Map<String, Integer> inputs = new LinkedHashMap<>();
        inputs.put("read", items.size());
        if (!encoded.isEmpty()) { // with nothing read there is nothing to decode: the read rows say why below
            ImageSpec imageSpec = ImageSpec.centerCrop(256, 224, PixelFormat.RGB24);
            try (PerThreadImageDecoders decoders = new PerThreadImageDecoders(MediaLimits.DEFAULT)) {
                ThreadLocal<UnsafeBuffer> dst = ThreadLocal.withInitial(
                    () -> new UnsafeBuffer(ByteBuffer.allocateDirect(imageSpec.bytes())));
                profiles.add(StageProfiler.profile("decode", encoded, src -> decoders.decode(src, 0, src.capacity(), "profile",
                    imageSpec, dst.get(), 0), false, levels));
            }
            inputs.put("decode", encoded.size());
        }
        out.printf(Locale.ROOT, "%-8s %12s %12s %10s%n", "stage", "concurrency", "items/s", "speed-up");
        SvgChart chart = new SvgChart("each stage alone: images/s by concurrency",
            new ChartAxis("concurrency (log2)", ChartAxis.Scale.LOG2), new ChartAxis("images/s", ChartAxis.Scale.LINEAR));
        for (StageProfile p : profiles) {
            double base = p.points().get(0).itemsPerSecond();
            double[] xs = new double[p.points().size()];
            double[] ys = new double[p.points().size()];
            for (int i = 0; i < xs.length; i++) {
                StageProfile.Point pt = p.points().get(i);
                out.printf(Locale.ROOT, "%-8s %12d %12.1f %10s%s%n", p.stage(), pt.concurrency(), pt.itemsPerSecond(),
                    base > 0 ? String.format(Locale.ROOT, "%.2fx", pt.itemsPerSecond() / base) : "-",
                    pt.failures() > 0 ? "  (" + pt.failures() + " failed)" : "");
                xs[i] = pt.concurrency();
                ys[i] = pt.itemsPerSecond();
            }
            chart.add(p.stage(), xs, ys);
            p.best().ifPresentOrElse(best -> out.printf(Locale.ROOT, "%-8s best at concurrency %d: %.1f items/s%s%n",
                    p.stage(), best.concurrency(), best.itemsPerSecond(),
                    best.failures() > 0 ? " (" + best.failures() + " failed)" : ""),
                () -> out.printf(Locale.ROOT, "%-8s best: none, every item failed at every concurrency%n", p.stage()));
        }
        if (encoded.size() < items.size()) {
            out.printf(Locale.ROOT, "%d of %d images could not be read: %s%n", items.size() - encoded.size(),
                items.size(), encoded.isEmpty() ? "nothing to decode" : "decode measured over the other "
                    + encoded.size());
        }
        Files.createDirectories(outDir);
        chart.writeSvg(outDir.resolve("profile.svg"));
        out.println("plot: " + outDir.resolve("profile.svg"));
        out.flush();
        for (StageProfile p : profiles) {
            int n = inputs.get(p.stage());
            if (p.points().stream().allMatch(pt -> pt.failures() >= n)) {
                // every task of the stage failed at every concurrency: its items/s measure failures, not work
                spec.commandLine().getErr().println("spdl4j: profile failed: no image could be "
                    + (p.stage().equals("read") ? "read" : "decoded") + " (" + n + " of " + n
                    + " failed at every concurrency); the figures above time failures. Check --data.");
                spec.commandLine().getErr().flush();
                return 1;
            }
        }
        return 0;
    }
}
