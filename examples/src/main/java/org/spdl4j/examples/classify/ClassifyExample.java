package org.spdl4j.examples.classify;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.agrona.concurrent.UnsafeBuffer;
import org.spdl4j.engine.source.FolderDataset;
import org.spdl4j.examples.common.ExampleCommands;
import org.spdl4j.examples.common.StageTable;
import org.spdl4j.examples.training.ColorClassImages;
import org.spdl4j.loader.LoadedBatch;
import org.spdl4j.loader.Loader;
import org.spdl4j.loader.SampleSource;
import org.spdl4j.media.ImageSlotDecoder;
import org.spdl4j.offheap.batch.Batch;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * Image classification loading on the library's {@link Loader}, from a folder of class sub-folders
 * ({@link SampleSource#folder}) or from WebDataset tar shards ({@link SampleSource#tarShards}): batches of
 * {@code [n, S, S, 3]} uint8 RGB with each sample's label, classified as they arrive by a nearest-colour-centroid
 * model learned online ({@link ColorCentroids}). Without {@code --data} or
 * {@code --shards} it generates four colour classes; {@code --format shards} packs them into tar shards first.
 *
 * <p>Run: {@code bin/spdl4j-java -cp "examples/target/spdl4j-examples-0.1.0-SNAPSHOT.jar:examples/target/lib/*"
 * org.spdl4j.examples.classify.ClassifyExample [--format folder|shards] [--data DIR | --shards A.tar,B.tar]}
 */
@Command(name = "classify", mixinStandardHelpOptions = true,
    description = "Loads labelled image batches from a folder or tar shards and classifies them.")
public final class ClassifyExample implements Callable<Integer> {
    /** Where the input comes from. */
    enum Format { FOLDER, SHARDS }

    @Spec
    private CommandSpec spec;

    @Option(names = "--data", description = "folder of class sub-folders (default: generated colour classes)")
    private Path data;

    @Option(names = "--shards", split = ",", description = "WebDataset tar shards (jpg + cls members)")
    private List<Path> shards;

    @Option(names = "--format", defaultValue = "folder", description = "folder or shards (shards: packs the folder into tar shards first)")
    private Format format;

    @Option(names = "--classes", defaultValue = "4", description = "label count for --shards input")
    private int classes;

    @Option(names = "--per-class", defaultValue = "64", description = "generated images per class")
    private int perClass;

    @Option(names = "--size", defaultValue = "224", description = "crop size S (short side resized to S x 8/7)")
    private int size;

    @Option(names = "--batch", defaultValue = "32", description = "images per batch")
    private int batch;

    @Option(names = "--threads", defaultValue = "2", description = "decode threads")
    private int threads;

    private long images;
    private double accuracy;

    /** Creates the command with its defaults (picocli sets the options). */
    public ClassifyExample() {
    }

    /**
     * Runs the example.
     *
     * @param args command-line options; {@code --help} lists them
     */
    public static void main(String[] args) {
        System.exit(ExampleCommands.execute(new ClassifyExample(), args));
    }

    /** {@return images classified in the last run} */
    public long images() {
        return images;
    }

    /** {@return the online accuracy of the last run} */
    public double accuracy() {
        return accuracy;
    }

    @Override
    public Integer call() throws IOException {
        PrintWriter out = spec.commandLine().getOut();
        if (size < 8 || batch < 1 || threads < 1 || classes < 1 || perClass < 1) {
            throw new CommandLine.ParameterException(spec.commandLine(),
                "need --size >= 8 and --batch, --threads, --classes, --per-class >= 1");
        }
        int shortSide = size * 8 / 7;
        if (shards != null) {
            out.printf(Locale.ROOT, "%d shards%n", shards.size());
            return run(SampleSource.tarShards(shards), classes, shortSide, out);
        }
        FolderDataset dataset = folder(shortSide);
        if (format == Format.SHARDS) {
            Path dir = Files.createTempDirectory("spdl4j-shards");
            List<Path> packed = TarShardWriter.write(dataset, dir, 64);
            out.printf(Locale.ROOT, "packed %d images into %d shards in %s%n", dataset.size(), packed.size(), dir);
            try {
                return run(SampleSource.tarShards(packed), dataset.classNames().size(), shortSide, out);
            } finally {
                for (Path p : packed) {
                    Files.deleteIfExists(p);
                }
                Files.deleteIfExists(dir);
            }
        }
        out.printf(Locale.ROOT, "folder %s: %d images, classes %s%n", dataset.root(), dataset.size(),
            dataset.classNames());
        return run(SampleSource.folder(dataset.root()), dataset.classNames().size(), shortSide, out);
    }

    private int run(SampleSource source, int labelCount, int shortSide, PrintWriter out) {
        try (Loader<Batch> loader = Loader.builder().name("classify").source(source)
                .decoder(ImageSlotDecoder.evaluation(shortSide, size))
                .batchSize(batch).readConcurrency(8).decodeConcurrency(threads).build()) {
            consume(loader, labelCount, out);
            StageTable.print(loader.stats(), out);
        }
        out.flush();
        return 0;
    }

    private void consume(Loader<Batch> batches, int labelCount, PrintWriter out) {
        ColorCentroids model = new ColorCentroids(labelCount);
        UnsafeBuffer view = new UnsafeBuffer();
        long start = System.nanoTime();
        long n = 0;
        for (LoadedBatch<Batch> b : batches) {
            try (b) {
                int sampleBytes = b.data().descriptor().sampleBytes();
                view.wrap(b.data().sampleAddress(0), b.size() * sampleBytes);
                for (int i = 0; i < b.size(); i++) {
                    model.observe(view, i * sampleBytes, size * size, b.label(i));
                }
                n += b.size();
            }
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        images = n;
        accuracy = model.accuracy();
        out.printf(Locale.ROOT, "%d images in %.2f s: %.1f images/s%n", n, seconds, n / seconds);
        for (int k = 0; k < labelCount; k++) {
            out.printf(Locale.ROOT, "  class %d: %5d images, mean RGB (%3.0f, %3.0f, %3.0f)%n", k, model.count(k),
                model.centroid(k, 0), model.centroid(k, 1), model.centroid(k, 2));
        }
        out.printf(Locale.ROOT, "online nearest-centroid accuracy %.3f (chance %.3f)%n", accuracy, 1.0 / labelCount);
    }

    private FolderDataset folder(int shortSide) throws IOException {
        if (data != null) {
            if (!Files.isDirectory(data)) {
                throw new IOException("--data " + data + " is not a folder of class sub-folders");
            }
            FolderDataset found = FolderDataset.scan(data, SampleSource.IMAGE_EXTENSIONS);
            if (found.size() == 0) {
                throw new IOException("--data " + data + " has no .jpg/.jpeg/.png/.webp/.bmp images in class "
                    + "sub-folders; give a folder laid out as DIR/<class>/<image>");
            }
            return found;
        }
        Path root = Path.of(System.getProperty("java.io.tmpdir"), "spdl4j-examples", "classify-" + shortSide + "-"
            + perClass);
        Path done = root.resolve(".complete"); // hidden: the folder scan skips it
        if (!Files.exists(done)) {
            ColorClassImages.generate(root, perClass, shortSide, 3);
            Files.writeString(done, "generated");
        }
        return FolderDataset.scan(root, SampleSource.IMAGE_EXTENSIONS);
    }
}
