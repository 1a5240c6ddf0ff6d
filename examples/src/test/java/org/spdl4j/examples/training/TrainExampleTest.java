package org.spdl4j.examples.training;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.spdl4j.examples.common.ExampleCommands;

@Timeout(90)
class TrainExampleTest {
    @TempDir
    Path dir;

    @Test
    void shouldLowerTheLossAndBeatChanceOnHeldOutImages() throws Exception {
        Path train = ColorClassImages.generate(dir.resolve("train"), 24, 40, 1);
        Path test = ColorClassImages.generate(dir.resolve("test"), 8, 40, 2);
        TrainExample example = new TrainExample();
        StringWriter out = new StringWriter();
        int code = ExampleCommands.execute(example, new PrintWriter(out), new PrintWriter(out), "--data",
            train.toString(), "--test-data", test.toString(), "--size", "32", "--batch", "16", "--epochs", "4");
        assertThat(code).as(out.toString()).isZero();
        List<EpochResult> history = example.history();
        assertThat(history).hasSize(4).allSatisfy(e -> assertThat(e.images()).isEqualTo(96));
        assertThat(history.get(3).meanLoss()).as(out.toString()).isLessThan(history.get(0).meanLoss() * 0.8);
        assertThat(example.heldOut().images()).isEqualTo(32);
        assertThat(example.heldOut().accuracy()).as(out.toString()).isGreaterThan(0.6); // chance: 0.25
        assertThat(out.toString()).contains("epoch 4: loss").contains("held-out accuracy");
    }

    @Test
    void shouldStepDownhillOnASeparableToyProblem() {
        SoftmaxRegression model = new SoftmaxRegression(2, 1, 1f);
        float[] x = {-1f, -2f, 1f, 2f};
        int[] y = {0, 0, 1, 1};
        int[] correct = new int[1];
        double first = model.step(x, y, 4, correct);
        assertThat(first).isCloseTo(Math.log(2), org.assertj.core.api.Assertions.within(1e-6));
        double later = first;
        for (int i = 0; i < 20; i++) {
            later = model.step(x, y, 4, correct);
        }
        assertThat(later).isLessThan(0.2);
        assertThat(correct[0]).isEqualTo(4);
        assertThat(model.predict(new float[] {-3f}, 0)).isZero();
    }
}
