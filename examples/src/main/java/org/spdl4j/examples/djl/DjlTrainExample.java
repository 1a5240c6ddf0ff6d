package org.spdl4j.examples.djl;

import ai.djl.Model;
import ai.djl.basicdataset.cv.classification.ImageFolder;
import ai.djl.modality.cv.transform.CenterCrop;
import ai.djl.modality.cv.transform.Normalize;
import ai.djl.modality.cv.transform.ResizeShort;
import ai.djl.modality.cv.transform.ToTensor;
import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.DataType;
import ai.djl.ndarray.types.Shape;
import ai.djl.nn.Activation;
import ai.djl.nn.SequentialBlock;
import ai.djl.nn.convolutional.Conv2d;
import ai.djl.nn.core.Linear;
import ai.djl.nn.pooling.Pool;
import ai.djl.training.DefaultTrainingConfig;
import ai.djl.training.GradientCollector;
import ai.djl.training.Trainer;
import ai.djl.training.dataset.Batch;
import ai.djl.training.dataset.Dataset;
import ai.djl.training.loss.Loss;
import ai.djl.training.optimizer.Optimizer;
import ai.djl.training.tracker.Tracker;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;
import org.spdl4j.cuda.Device;
import org.spdl4j.cuda.DeviceDiscovery;
import org.spdl4j.djl.LoaderDataset;
import org.spdl4j.djl.NormalizingSlotDecoder;
import org.spdl4j.djl.PixelNormalization;
import org.spdl4j.examples.common.ExampleCommands;
import org.spdl4j.examples.training.ColorClassImages;
import org.spdl4j.loader.Loader;
import org.spdl4j.loader.LoaderBuilder;
import org.spdl4j.loader.SampleSource;
import org.spdl4j.media.ImageSlotDecoder;
import org.spdl4j.offheap.batch.SlotDecoder;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/**
 * Trains a small CNN with DJL (PyTorch engine, CPU) on an image folder for a number of steps and prints where each
 * step's time goes: waiting for data, converting it (only with {@code --normalize djl}) and computing. With
 * {@code --loader spdl4j} the batches come from a spdl4j loader through spdl4j-djl's {@link LoaderDataset} (decode,
 * resize of the short side, centre crop and normalization in the loader's decode workers, arrays over the batch
 * memory); with {@code --loader djl} from DJL's own {@link ImageFolder} with the same transform ({@code ResizeShort},
 * {@code CenterCrop}, {@code ToTensor}, {@code Normalize}) on an executor of as many threads. Without {@code --data}
 * it generates four colour classes first.
 *
 * <p>Run: {@code bin/spdl4j-java -Dai.djl.offline=true -cp
 * "examples/target/spdl4j-examples-0.1.0-SNAPSHOT.jar:examples/target/lib/*"
 * org.spdl4j.examples.djl.DjlTrainExample --steps 100 --loader spdl4j}. DJL unpacks PyTorch from the class path
 * into {@code DJL_CACHE_DIR} (default {@code ~/.djl.ai}) once.
 */
@Command(name = "djl-train", mixinStandardHelpOptions = true,
    description = "Trains a small CNN with DJL on batches from spdl4j or from DJL's ImageFolder; prints img/s and "
        + "per-step waiting for data vs compute.")
public final class DjlTrainExample implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Option(names = "--data", description = "folder of class sub-folders (default: generated colour classes)")
    private Path data;

    @Option(names = "--per-class", defaultValue = "128", description = "generated images per class")
    private int perClass;

    @Option(names = "--loader", defaultValue = "spdl4j", description = "spdl4j or djl (ImageFolder)")
    private String loader;

    @Option(names = "--normalize", defaultValue = "decoder",
        description = "spdl4j only: decoder (float CHW in the decode workers) or djl (uint8 NHWC arrays, converted "
            + "with DJL operators on the training thread)")
    private String normalize;

    @Option(names = "--steps", defaultValue = "100", description = "training steps")
    private int steps;

    @Option(names = "--warmup", defaultValue = "5", description = "first steps left out of the figures")
    private int warmup;

    @Option(names = "--batch", defaultValue = "32", description = "images per batch")
    private int batch;

    @Option(names = "--size", defaultValue = "64", description = "crop size S (short side resized to S x 8/7)")
    private int size;

    @Option(names = "--threads", defaultValue = "2", description = "decode threads (spdl4j) or executor threads (djl)")
    private int threads;

    @Option(names = "--device", defaultValue = "cpu", description = "cpu (default): batches in plain host memory; auto:"
        + " batches in the memory the GPU copies from fastest (pinned) when a GPU is found, else in host memory; host:"
        + " the same path on host memory (spdl4j only)")
    private String deviceMode;

    @Option(names = "--model", defaultValue = "cnn", description = "cnn (train the small CNN) or none (only load: "
        + "each batch is taken and closed, to measure the loader alone)")
    private String modelKind;

    private float firstLoss = Float.NaN;
    private float lastLoss = Float.NaN;
    private double imagesPerSecond;

    /** Creates the command with its defaults (picocli sets the options). */
    public DjlTrainExample() {
    }

    /** {@return the loss of the first step of the last run} */
    public float firstLoss() {
        return firstLoss;
    }

    /** {@return the loss of the last step of the last run} */
    public float lastLoss() {
        return lastLoss;
    }

    /** {@return images per second over the measured steps of the last run} */
    public double imagesPerSecond() {
        return imagesPerSecond;
    }

    /**
     * Entry point.
     *
     * @param args command-line arguments
     */
    public static void main(String[] args) {
        System.exit(ExampleCommands.execute(new DjlTrainExample(), args));
    }

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        if (!"spdl4j".equals(loader) && !"djl".equals(loader)) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--loader: spdl4j or djl, not " + loader);
        }
        if (steps <= warmup || warmup < 0) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--steps (" + steps + ") must exceed --warmup ("
                + warmup + ")");
        }
        if (!"cnn".equals(modelKind) && !"none".equals(modelKind)) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--model: cnn or none, not " + modelKind);
        }
        boolean train = "cnn".equals(modelKind);
        if (!"cpu".equals(deviceMode) && !"auto".equals(deviceMode) && !"host".equals(deviceMode)) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--device: cpu, auto or host, not "
                + deviceMode);
        }
        boolean djlNormalize = "djl".equals(normalize);
        if (!djlNormalize && !"decoder".equals(normalize)) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--normalize: decoder or djl, not " + normalize);
        }
        Path root = data != null ? data : ColorClassImages.generate(Files.createTempDirectory("spdl4j-djl-"),
            perClass, size * 8 / 7 + 8, 1);
        int shortSide = size * 8 / 7;
        PixelNormalization norm = PixelNormalization.imagenet();
        // On a GPU the loader's batches sit in pinned host memory, which DJL's GPU manager copies from by DMA: DJL
        // makes arrays from host buffers only (no raw device pointer), so spdl4j's own copy stage is not used here.
        Device device = "cpu".equals(deviceMode) ? null : DeviceDiscovery.open(deviceMode, 0);
        ExecutorService executor = Executors.newFixedThreadPool(threads);
        try (NDManager manager = NDManager.newBaseManager("PyTorch");
             Model model = Model.newInstance("small-cnn", "PyTorch")) {
            model.setBlock(smallCnn(classCount(root)));
            DefaultTrainingConfig config = new DefaultTrainingConfig(Loss.softmaxCrossEntropyLoss())
                .optOptimizer(Optimizer.adam().optLearningRateTracker(Tracker.fixed(0.003f)).build());
            NDArray mean = manager.create(norm.mean()).reshape(1, 1, 1, 3);
            NDArray std = manager.create(norm.std()).reshape(1, 1, 1, 3);
            Dataset dataset;
            LoaderDataset spdl4j = null;
            boolean convertHere = djlNormalize;
            if ("spdl4j".equals(loader)) {
                spdl4j = LoaderDataset.builder(epoch -> {
                        LoaderBuilder<org.spdl4j.offheap.batch.Batch> b = Loader.builder().name("djl-train")
                            .source(SampleSource.folder(root)).decoder(decoder(shortSide, size, djlNormalize, norm))
                            .batchSize(batch).dropLast(true).seed(epoch).decodeConcurrency(threads);
                        if (device != null) {
                            b.batchMemory(device.hostAllocator()); // pinned on a GPU
                        }
                        return b.build();
                    })
                    .build();
                dataset = spdl4j;
            } else {
                ImageFolder folder = ImageFolder.builder().setRepositoryPath(root).optMaxDepth(2)
                    .addTransform(new ResizeShort(shortSide)).addTransform(new CenterCrop(size, size))
                    .addTransform(new ToTensor()).addTransform(new Normalize(norm.mean(), norm.std()))
                    .setSampling(batch, true, true).optPrefetchNumber(4).build();
                folder.prepare();
                dataset = folder;
                convertHere = false;
            }
            Histogram wait = new Histogram(3);
            Histogram convert = new Histogram(3);
            Histogram compute = new Histogram(3);
            long images = 0;
            long measuredStart = 0;
            float loss = Float.NaN;
            try (Trainer trainer = model.newTrainer(config)) {
                trainer.initialize(new Shape(batch, 3, size, size));
                Iterator<Batch> batches = dataset.getData(manager, executor).iterator();
                for (int step = 0; step < steps; step++) {
                    if (step == warmup) {
                        measuredStart = System.nanoTime();
                    }
                    long t0 = System.nanoTime();
                    if (!batches.hasNext()) {
                        batches = dataset.getData(manager, executor).iterator(); // the next epoch
                    }
                    try (Batch b = batches.next()) {
                        long t1 = System.nanoTime();
                        NDList input = b.getData();
                        if (convertHere) {
                            input = new NDList(input.head().toType(DataType.FLOAT32, false).div(255f).sub(mean)
                                .div(std).transpose(0, 3, 1, 2));
                        }
                        long t2 = System.nanoTime();
                        if (train) {
                            try (GradientCollector collector = trainer.newGradientCollector()) {
                                NDList predictions = trainer.forward(input);
                                NDArray l = trainer.getLoss().evaluate(b.getLabels(), predictions);
                                collector.backward(l);
                                loss = l.getFloat();
                                if (step == 0) {
                                    firstLoss = loss;
                                }
                            }
                            trainer.step();
                        }
                        long t3 = System.nanoTime();
                        if (step >= warmup) {
                            wait.recordValue((t1 - t0) / 1000);
                            convert.recordValue((t2 - t1) / 1000);
                            compute.recordValue((t3 - t2) / 1000);
                            images += b.getSize();
                        }
                    }
                    if ((step + 1) % 20 == 0) {
                        out.printf(Locale.ROOT, "step %d  loss %.4f%n", step + 1, loss);
                    }
                }
            } finally {
                // DJL's ImageFolder prefetches on the executor into arrays of this manager: its workers must be done
                // before the manager closes, or one of them writes into freed native memory (a SIGSEGV in
                // libtorch's to_device, seen when a run ended with batches still in flight).
                executor.shutdownNow();
                while (!executor.awaitTermination(10, TimeUnit.SECONDS)) {
                    System.err.println("djl-train: waiting for the data workers to stop before closing the NDManager");
                }
                if (spdl4j != null) {
                    spdl4j.close();
                }
            }
            double seconds = (System.nanoTime() - measuredStart) / 1e9;
            lastLoss = loss;
            imagesPerSecond = images / seconds;
            out.printf(Locale.ROOT, "loader %s%s, batch %d, %dx%d, %d threads, %d steps measured%n", loader,
                "spdl4j".equals(loader) ? " (normalize in " + normalize + ")" : "", batch, size, size, threads,
                steps - warmup);
            out.printf(Locale.ROOT, "%.1f img/s; per step (ms, mean / p50 / p99): wait for data %s, "
                + "convert %s, compute %s; last loss %.4f%n", images / seconds, ms(wait), ms(convert), ms(compute),
                loss);
            double stepTotal = wait.getMean() + convert.getMean() + compute.getMean();
            double cpuSeconds = processCpuSeconds();
            out.printf(Locale.ROOT, "waiting for data: %.1f%% of step time; process: %.2f cpu-s in all, %.2f cpu-s per"
                + " 1,000 measured images (warm-up and start included), peak RSS %d MiB%n",
                stepTotal > 0 ? 100 * wait.getMean() / stepTotal : 0, cpuSeconds, cpuSeconds * 1000 / images,
                peakRssKib() / 1024);
        } finally {
            executor.shutdownNow();
            if (device != null) {
                device.close(); // after the loaders, whose batch memory it gave
            }
        }
        return 0;
    }

    /** {@return the class sub-folders of the data folder (at least one: images directly in it are one class)} */
    private static int classCount(Path root) throws java.io.IOException {
        try (java.util.stream.Stream<Path> entries = Files.list(root)) {
            return (int) Math.max(1, entries.filter(Files::isDirectory).count());
        }
    }

    /** {@return CPU seconds this process used so far, all threads (native ones included)} */
    private static double processCpuSeconds() {
        java.lang.management.OperatingSystemMXBean os = java.lang.management.ManagementFactory
            .getOperatingSystemMXBean();
        return os instanceof com.sun.management.OperatingSystemMXBean sun ? sun.getProcessCpuTime() / 1e9 : Double.NaN;
    }

    /** {@return the process's peak resident set in KiB (VmHWM), or 0 where /proc is not there} */
    private static long peakRssKib() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("VmHWM:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", ""));
                }
            }
        } catch (java.io.IOException | NumberFormatException e) {
            return 0;
        }
        return 0;
    }

    private static SlotDecoder decoder(int shortSide, int crop, boolean convertLater, PixelNormalization norm) {
        ImageSlotDecoder pixels = ImageSlotDecoder.evaluation(shortSide, crop);
        return convertLater ? pixels : NormalizingSlotDecoder.builder(pixels).normalization(norm).build();
    }

    private static String ms(Histogram h) {
        return String.format(Locale.ROOT, "%.2f / %.2f / %.2f", h.getMean() / 1000, h.getValueAtPercentile(50) / 1000.0,
            h.getValueAtPercentile(99) / 1000.0);
    }

    private static SequentialBlock smallCnn(int classes) {
        return new SequentialBlock()
            .add(Conv2d.builder().setKernelShape(new Shape(3, 3)).optPadding(new Shape(1, 1)).setFilters(16).build())
            .add(Activation::relu)
            .add(Pool.maxPool2dBlock(new Shape(2, 2)))
            .add(Conv2d.builder().setKernelShape(new Shape(3, 3)).optPadding(new Shape(1, 1)).setFilters(32).build())
            .add(Activation::relu)
            .add(Pool.maxPool2dBlock(new Shape(2, 2)))
            .add(Conv2d.builder().setKernelShape(new Shape(3, 3)).optPadding(new Shape(1, 1)).setFilters(64).build())
            .add(Activation::relu)
            .add(Pool.globalAvgPool2dBlock())
            .add(Linear.builder().setUnits(classes).build());
    }
}
