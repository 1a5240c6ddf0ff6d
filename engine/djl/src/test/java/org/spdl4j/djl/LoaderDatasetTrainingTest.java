package org.spdl4j.djl;

import static org.assertj.core.api.Assertions.assertThat;

import ai.djl.Model;
import ai.djl.engine.Engine;
import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.types.DataType;
import ai.djl.ndarray.types.Shape;
import ai.djl.nn.Activation;
import ai.djl.nn.SequentialBlock;
import ai.djl.nn.convolutional.Conv2d;
import ai.djl.nn.core.Linear;
import ai.djl.nn.pooling.Pool;
import ai.djl.training.DefaultTrainingConfig;
import ai.djl.training.EasyTrain;
import ai.djl.training.GradientCollector;
import ai.djl.training.Trainer;
import ai.djl.training.dataset.Batch;
import ai.djl.training.loss.Loss;
import ai.djl.training.optimizer.Optimizer;
import ai.djl.training.tracker.Tracker;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.spdl4j.loader.Loader;
import org.spdl4j.loader.SampleSource;
import org.spdl4j.media.ImageSlotDecoder;

/** A small CNN learns the colour classes from a LoaderDataset, through DJL's own training loop and EasyTrain. */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class LoaderDatasetTrainingTest {
    private static final int SIZE = 32;
    private static final int BATCH = 16;
    private static final int PER_CLASS = 32; // 128 images: 8 steps a pass

    @TempDir
    Path dir;

    private static SequentialBlock tinyCnn() {
        return new SequentialBlock()
            .add(Conv2d.builder().setKernelShape(new Shape(3, 3)).optPadding(new Shape(1, 1)).setFilters(8).build())
            .add(Activation::relu)
            .add(Pool.maxPool2dBlock(new Shape(2, 2)))
            .add(Conv2d.builder().setKernelShape(new Shape(3, 3)).optPadding(new Shape(1, 1)).setFilters(16).build())
            .add(Activation::relu)
            .add(Pool.globalAvgPool2dBlock())
            .add(Linear.builder().setUnits(ColorSquares.CLASSES.size()).build());
    }

    @Test
    void shouldTrainATinyCnnUntilTheLossFalls() throws Exception {
        Path images = ColorSquares.generate(dir.resolve("images"), PER_CLASS, 36, 21);
        Path heldOut = ColorSquares.generate(dir.resolve("held-out"), 8, 36, 22);
        Engine.getEngine("PyTorch").setRandomSeed(42);
        List<Float> losses = new ArrayList<>();
        try (LoaderDataset dataset = LoaderDataset.builder(epoch -> Loader.builder().name("djl-train")
                 .source(SampleSource.folder(images))
                 .decoder(NormalizingSlotDecoder.builder(ImageSlotDecoder.evaluation(SIZE, SIZE)).build())
                 .batchSize(BATCH).seed(100 + epoch).decodeConcurrency(2).readConcurrency(4).build())
                 .batchesPerEpoch(PER_CLASS * 4 / BATCH).build();
             Model model = Model.newInstance("tiny-cnn", "PyTorch")) {
            model.setBlock(tinyCnn());
            DefaultTrainingConfig config = new DefaultTrainingConfig(Loss.softmaxCrossEntropyLoss())
                .optOptimizer(Optimizer.adam().optLearningRateTracker(Tracker.fixed(0.01f)).build());
            try (Trainer trainer = model.newTrainer(config)) {
                trainer.initialize(new Shape(BATCH, 3, SIZE, SIZE));
                for (int pass = 0; pass < 2; pass++) {
                    trainOnePass(trainer, dataset, losses);
                }
                EasyTrain.fit(trainer, 2, dataset, null); // DJL's loop, unchanged
                for (int pass = 0; pass < 2; pass++) {
                    trainOnePass(trainer, dataset, losses);
                }
                assertThat(accuracy(trainer, heldOut)).as("held-out accuracy (chance: 0.25)").isGreaterThan(0.9);
            }
            assertThat(dataset.epochsStarted()).isEqualTo(6);
            assertThat(dataset.dataWaitNanos()).isPositive();
        }
        assertThat(losses).hasSize(4 * PER_CLASS * 4 / BATCH);
        double first = mean(losses.subList(0, 4));
        double last = mean(losses.subList(losses.size() - 8, losses.size()));
        assertThat(first).as("about ln 4 before training").isBetween(1.0, 3.0);
        assertThat(last).as("the loss of the last pass, after %s steps: %s", losses.size() + 16, losses)
            .isLessThan(0.25 * first);
    }

    /** One pass through trainer.iterateDataset, as EasyTrain does it, with the loss of each step kept. */
    private static void trainOnePass(Trainer trainer, LoaderDataset dataset, List<Float> losses) throws Exception {
        for (Batch batch : trainer.iterateDataset(dataset)) {
            try (batch) {
                NDList data = batch.getData();
                assertThat(data.head().getShape()).isEqualTo(new Shape(BATCH, 3, SIZE, SIZE));
                assertThat(data.head().getDataType()).isEqualTo(DataType.FLOAT32);
                try (GradientCollector collector = trainer.newGradientCollector()) {
                    NDList predictions = trainer.forward(data);
                    NDArray loss = trainer.getLoss().evaluate(batch.getLabels(), predictions);
                    collector.backward(loss);
                    losses.add(loss.getFloat());
                }
                trainer.step();
            }
        }
    }

    /** Predictions on another folder's images against their labels: the labels travel with their own pixels. */
    private static double accuracy(Trainer trainer, Path folder) throws Exception {
        int right = 0;
        int total = 0;
        try (LoaderDataset test = LoaderDataset.builder(epoch -> Loader.builder().name("djl-held-out")
                 .source(SampleSource.folder(folder))
                 .decoder(NormalizingSlotDecoder.builder(ImageSlotDecoder.evaluation(SIZE, SIZE)).build())
                 .batchSize(BATCH).decodeConcurrency(2).readConcurrency(4).build()).build()) {
            for (Batch batch : trainer.iterateDataset(test)) {
                try (batch) {
                    NDArray predicted = trainer.evaluate(batch.getData()).head().argMax(1);
                    long[] p = predicted.toType(DataType.INT64, false).toLongArray();
                    int[] labels = batch.getLabels().head().toIntArray();
                    for (int i = 0; i < labels.length; i++) {
                        right += p[i] == labels[i] ? 1 : 0;
                    }
                    total += labels.length;
                }
            }
        }
        assertThat(total).isEqualTo(8 * ColorSquares.CLASSES.size());
        return (double) right / total;
    }

    private static double mean(List<Float> values) {
        return values.stream().mapToDouble(Float::doubleValue).average().orElseThrow();
    }
}
