package org.spdl4j.examples.clicklog;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.spdl4j.examples.common.ExampleCommands;

@Timeout(60)
class ClickLogExampleTest {
    @Test
    void shouldDeliverEveryRowInColumnBatchesTrainOnThemAndRecordLatency() {
        ClickLogExample example = new ClickLogExample();
        StringWriter out = new StringWriter();
        int code = ExampleCommands.execute(example, new PrintWriter(out), new PrintWriter(out), "--rows", "20000",
            "--warmup", "2000", "--rate", "200000", "--batch", "256", "--wait", "BUSY_SPIN");
        assertThat(code).as(out.toString()).isZero();
        assertThat(example.rowsInBatches()).isEqualTo(20_000);
        assertThat(example.batches()).isEqualTo((20_000 + 255) / 256);
        assertThat(example.fromIntended().getTotalCount()).isEqualTo(18_000);
        assertThat(example.lastLoss()).as("the model learns from the features in the columns")
            .isLessThan(example.clickRateLoss() - 0.05).isLessThan(example.firstLoss());
        assertThat(out.toString()).contains("coordinated-omission corrected").contains("p99.9").contains("hash")
            .contains("column batches").contains("log loss");
    }

    @Test
    void shouldRefuseBadOptionsNamingThem() {
        StringWriter out = new StringWriter();
        int code = ExampleCommands.execute(new ClickLogExample(), new PrintWriter(out), new PrintWriter(out),
            "--ring", "100", "--rows", "10", "--warmup", "10");
        assertThat(code).isEqualTo(2);
        assertThat(out.toString()).contains("ring capacity 100").contains("warm-up 10");
    }
}
