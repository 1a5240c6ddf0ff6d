package org.spdl4j.examples.training;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.spdl4j.cuda.Device;
import org.spdl4j.cuda.DeviceBatch;
import org.spdl4j.cuda.DeviceDiscovery;
import org.spdl4j.cuda.DeviceTransfer;
import org.spdl4j.engine.source.FileItem;
import org.spdl4j.engine.source.FolderDataset;
import org.spdl4j.examples.common.ExampleCommands;
import org.spdl4j.loader.Loader;
import org.spdl4j.loader.SampleEntry;
import org.spdl4j.loader.SampleSource;
import org.spdl4j.media.ImageSlotDecoder;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * An in-JVM training loop fed by the library's {@link Loader}: each epoch a loader decodes a shuffled pass over the
 * training folder into {@code [B, S, S, 3]} batches in the device's host memory (pinned when a GPU is present), its
 * transfer stage ({@link DeviceTransfer}) copies each batch to the device, where it is normalized, and a
 * softmax-regression model on pooled colour features takes a step on the CPU. Prints the loss falling and the accuracy
 * rising, then the accuracy on held-out images. Without {@code --data} it generates a learnable dataset first
 * ({@link ColorClassImages}: four colour classes).
 *
 * <p>Run: {@code bin/spdl4j-java -cp "examples/target/spdl4j-examples-0.1.0-SNAPSHOT.jar:examples/target/lib/*"
 * org.spdl4j.examples.training.TrainExample [--epochs 5] [--size 224]}; {@code -Dspdl4j.cuda.mode=host} forces the
 * CPU path.
 */
@Command(name = "train", mixinStandardHelpOptions = true,
    description = "Trains a small CPU model on batches from the image pipeline (device normalize where a GPU is).")
public final class TrainExample implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Option(names = "--data", description = "training folder of class sub-folders (default: generated)")
    private Path data;

    @Option(names = "--test-data", description = "held-out folder with (some of) the training classes (default: generated colour classes)")
    private Path testData;

    @Option(names = "--per-class", defaultValue = "64", description = "generated training images per class")
    private int perClass;

    @Option(names = "--epochs", defaultValue = "5", description = "passes over the training data")
    private int epochs;

    @Option(names = "--batch", defaultValue = "16", description = "images per batch")
    private int batch;

    @Option(names = "--size", defaultValue = "224", description = "crop size S (short side resized to S x 8/7)")
    private int size;

    @Option(names = "--threads", defaultValue = "2", description = "decode threads")
    private int threads;

    @Option(names = "--lr", defaultValue = "0.5", description = "learning rate")
    private float learningRate;

    /** The seed of the first epoch's shuffle; epoch {@code e} has its own loader, shuffled by this plus {@code e}. */
    private static final long SHUFFLE_SEED = 7;

    private List<EpochResult> history = List.of();
    private EpochResult heldOut;

    /** Creates the command with its defaults (picocli sets the options). */
    public TrainExample() {
    }

    /**
     * Runs the example.
     *
     * @param args command-line options; {@code --help} lists them
     */
    public static void main(String[] args) {
        System.exit(ExampleCommands.execute(new TrainExample(), args));
    }

    /** {@return the training epochs of the last run} */
    public List<EpochResult> history() {
        return history;
    }

    /** {@return the held-out evaluation of the last run} */
    public EpochResult heldOut() {
        return heldOut;
    }

    @Override
    public Integer call() throws IOException {
        PrintWriter out = spec.commandLine().getOut();
        if (epochs < 1 || batch < 1 || size < 8 || threads < 1 || perClass < 1 || !(learningRate > 0)) {
            throw new CommandLine.ParameterException(spec.commandLine(),
                "need --epochs, --batch, --threads, --per-class >= 1, --size >= 8, --lr > 0");
        }
        Path root = Path.of(System.getProperty("java.io.tmpdir"), "spdl4j-examples", "colors-" + size);
        FolderDataset train = dataset(data, root.resolve("train-" + perClass), perClass, 1);
        FolderDataset test = dataset(testData, root.resolve("test-" + perClass), Math.max(4, perClass / 4), 2);
        SampleSource heldOutFiles = SampleSource.of(heldOut(train, test));
        List<EpochResult> epochsRun = new ArrayList<>();
        try (Device device = DeviceDiscovery.open();
             DeviceNormalizer normalizer = new DeviceNormalizer(device, batch, size, size)) {
            out.printf(Locale.ROOT, "device: %s; %d training images in %d classes %s, %d held out%n", device.name(),
                train.size(), train.classNames().size(), train.classNames(), test.size());
            SoftmaxRegression model = new SoftmaxRegression(train.classNames().size(), PooledFeatures.count(3),
                learningRate);
            TrainingLoop loop = new TrainingLoop(normalizer, model, batch, size, size);
            SampleSource trainFiles = SampleSource.folder(train.root());
            for (int e = 0; e < epochs; e++) {
                try (Loader<DeviceBatch> loader = loader("train", trainFiles, SHUFFLE_SEED + e, device)) {
                    EpochResult r = loop.train(loader);
                    epochsRun.add(r);
                    out.printf(Locale.ROOT, "epoch %d: loss %.4f  accuracy %.3f  (%d images, %.0f images/s)%n",
                        e + 1, r.meanLoss(), r.accuracy(), r.images(), r.images() / r.seconds());
                }
            }
            try (Loader<DeviceBatch> loader = loader("eval", heldOutFiles, SHUFFLE_SEED, device)) {
                heldOut = loop.evaluate(loader);
            }
            history = List.copyOf(epochsRun);
            out.printf(Locale.ROOT, "held-out accuracy %.3f on %d images (chance %.3f)%n", heldOut.accuracy(),
                heldOut.images(), 1.0 / train.classNames().size());
        }
        out.flush();
        return 0;
    }

    /**
     * One pass's loader: images decoded into the device's host memory and copied to the device by the loader's
     * transfer stage, two copies in flight.
     */
    private Loader<DeviceBatch> loader(String name, SampleSource files, long seed, Device device) {
        return Loader.builder().name(name).source(files).decoder(ImageSlotDecoder.evaluation(size * 8 / 7, size))
            .batchSize(batch).readConcurrency(8).decodeConcurrency(threads).seed(seed)
            .batchMemory(device.hostAllocator()).transfer(DeviceTransfer.to(device, 2)).build();
    }

    private FolderDataset dataset(Path given, Path generated, int count, long seed) throws IOException {
        if (given != null) {
            if (!Files.isDirectory(given)) {
                throw new IOException(given + " is not a folder of class sub-folders");
            }
            FolderDataset found = FolderDataset.scan(given, SampleSource.IMAGE_EXTENSIONS);
            if (found.size() == 0) {
                throw new IOException(given + " has no files in class sub-folders; give a folder laid out as "
                    + "DIR/<class>/<image>");
            }
            return found;
        }
        Path done = generated.resolve(".complete"); // hidden: the folder scan skips it
        if (!Files.exists(done)) {
            ColorClassImages.generate(generated, count, size * 8 / 7, seed);
            Files.writeString(done, "generated");
        }
        return FolderDataset.scan(generated, SampleSource.IMAGE_EXTENSIONS);
    }

    /**
     * The held-out files labelled by the training folder's class names: each folder labels its files by the rank of
     * their class among its own class folders, so a held-out folder without one of the classes (or with another)
     * would otherwise be scored against labels that mean other classes.
     */
    private List<SampleEntry> heldOut(FolderDataset train, FolderDataset test) {
        List<String> trained = train.classNames();
        List<String> held = test.classNames();
        int[] toTrained = new int[held.size()];
        for (int c = 0; c < held.size(); c++) {
            toTrained[c] = trained.indexOf(held.get(c));
            if (toTrained[c] < 0) {
                throw new CommandLine.ParameterException(spec.commandLine(), "held-out class '" + held.get(c)
                    + "' (" + test.root() + ") is not one of the training classes " + trained + "; give --test-data "
                    + "a folder with (some of) the training folder's class sub-folders");
            }
        }
        List<SampleEntry> relabelled = new ArrayList<>((int) test.size());
        for (long i = 0; i < test.size(); i++) {
            FileItem f = test.get(i);
            relabelled.add(SampleEntry.file(f.path(), toTrained[f.label()]));
        }
        return relabelled;
    }
}
