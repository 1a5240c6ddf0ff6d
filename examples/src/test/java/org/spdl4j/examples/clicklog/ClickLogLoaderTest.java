package org.spdl4j.examples.clicklog;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.spdl4j.engine.WaitPolicy;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ClickLogLoaderTest {
    private static final int BATCH = 256;

    private static ClickLogOptions unpaced(long rows) {
        return ClickLogOptions.defaults().withRows(rows, 0).withRate(0).withBatchSize(BATCH)
                .withWaitPolicy(WaitPolicy.BACKOFF);
    }

    /** Every value of every column is what the source wrote for that row, normalized or hashed by the stages. */
    @ParameterizedTest
    @ValueSource(longs = {10_007, 2 * BATCH, 1})
    void shouldPutEveryRowSentIntoColumnBatchesInOrderWithItsFeaturesNormalizedAndHashed(long rows) throws Exception {
        long next = 0;
        long wrong = 0;
        int batches = 0;
        try (ClickLogLoader loader = ClickLogLoader.start(unpaced(rows).withNormalizeThreads(2))) {
            for (ColumnBatch b; (b = loader.next()) != null; batches++) {
                assertThat(b.size()).as("batch %d", batches).isEqualTo((int) Math.min(BATCH, rows - next));
                for (int j = 0; j < b.size(); j++, next++) {
                    wrong += rowMatches(b, j, next) ? 0 : 1;
                }
                b.close();
            }
            assertThat(loader.next()).as("after the end").isNull();
        }
        assertThat(next).as("rows delivered").isEqualTo(rows);
        assertThat(wrong).as("rows with a wrong value in some column").isZero();
        assertThat(batches).isEqualTo((int) ((rows + BATCH - 1) / BATCH));
    }

    private static boolean rowMatches(ColumnBatch b, int j, long r) {
        boolean ok = b.row(j) == r
                && b.sparse(FeatureStages.USER_FIELD, j)
                        == FeatureStages.bucket(FeatureStages.USER_FIELD, SyntheticClickLog.user(r))
                && b.sparse(FeatureStages.ITEM_FIELD, j)
                        == FeatureStages.bucket(FeatureStages.ITEM_FIELD, SyntheticClickLog.item(r))
                && b.label(j) == SyntheticClickLog.label(r);
        for (int k = 0; k < ClickRowDescriptor.CATEGORICAL_COUNT; k++) {
            ok &= b.sparse(2 + k, j) == FeatureStages.bucket(2 + k, SyntheticClickLog.categorical(r, k));
        }
        for (int i = 0; i < ClickRowDescriptor.DENSE_COUNT; i++) {
            ok &= Float.floatToRawIntBits(b.dense(i, j))
                    == Float.floatToRawIntBits(FeatureStages.normalized(SyntheticClickLog.dense(r, i)));
        }
        return ok;
    }

    @Test
    void shouldAllocateNothingPerRowOnThePipelineThreadsOrTheTrainingLoop() throws Exception {
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        int warmBatches = 300;
        int measuredBatches = 1_000;
        long trainingLoop;
        long pipelineThreads;
        long sum = 0;
        try (ClickLogLoader loader = ClickLogLoader.start(unpaced(100_000_000))) {
            for (int i = 0; i < warmBatches; i++) {
                sum += readAndClose(loader.next());
            }
            long[] ids = pipelineThreadIds();
            long pipelineBefore = allocated(mx, ids);
            long loopBefore = mx.getCurrentThreadAllocatedBytes();
            for (int i = 0; i < measuredBatches; i++) {
                sum += readAndClose(loader.next());
            }
            trainingLoop = mx.getCurrentThreadAllocatedBytes() - loopBefore;
            pipelineThreads = allocated(mx, ids) - pipelineBefore;
        }
        long rows = (long) measuredBatches * BATCH;
        assertThat(sum).isPositive();
        assertThat((double) pipelineThreads / rows).as("bytes per row on the pipeline's threads (%d in all)",
                pipelineThreads).isLessThan(0.01);
        assertThat((double) trainingLoop / rows).as("bytes per row on the training loop (%d in all)", trainingLoop)
                .isLessThan(0.01);
    }

    /** Reads a column of the batch (as a training step would) and gives it back. */
    private static long readAndClose(ColumnBatch b) {
        long s = 0;
        for (int j = 0; j < b.size(); j++) {
            s += b.sparse(FeatureStages.ITEM_FIELD, j) + (long) b.label(j);
        }
        b.close();
        return s + 1;
    }

    private static long[] pipelineThreadIds() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().startsWith("spdl4j-" + ClickLogLoader.PIPELINE + "-"))
                .mapToLong(Thread::threadId).toArray();
    }

    private static long allocated(com.sun.management.ThreadMXBean mx, long[] ids) {
        long total = 0;
        for (long bytes : mx.getThreadAllocatedBytes(ids)) {
            assertThat(bytes).as("a pipeline thread ended while measured").isNotNegative();
            total += bytes;
        }
        return total;
    }

    @Test
    void shouldRecordEachRowsLatencyFromItsScheduleWhenPaced() throws Exception {
        long rows = 20_000;
        long delivered = 0;
        try (ClickLogLoader loader = ClickLogLoader.start(ClickLogOptions.defaults().withRows(rows, 2_000)
                .withRate(200_000).withBatchSize(BATCH).withWaitPolicy(WaitPolicy.BACKOFF))) {
            for (ColumnBatch b; (b = loader.next()) != null; ) {
                delivered += b.size();
                b.close();
            }
            assertThat(delivered).isEqualTo(rows);
            RowLatency latency = loader.latency();
            assertThat(latency.fromIntended().getTotalCount()).isEqualTo(rows - 2_000);
            assertThat(latency.fromSent().getTotalCount()).isEqualTo(rows - 2_000);
            assertThat(latency.fromIntended().getMinValue()).isPositive();
            assertThat(latency.fromIntended().getMean()).as("from the schedule: never less than from the send")
                    .isGreaterThanOrEqualTo(latency.fromSent().getMean());
        }
    }
}
