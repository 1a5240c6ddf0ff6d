package org.spdl4j.records;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.spdl4j.engine.FailureBudget;
import org.spdl4j.engine.PipelineFailedException;
import org.spdl4j.engine.PublishBatching;
import org.spdl4j.engine.WaitPolicy;
import org.spdl4j.engine.stats.StageStats;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RecordPipelineTest {

    private static long engineAllocatedBytes(String pipeline) {
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().startsWith("spdl4j-" + pipeline + "-"))
                .mapToLong(t -> mx.getThreadAllocatedBytes(t.threadId()))
                .sum();
    }

    private static boolean anyThreadAlive(String pipeline) {
        return Thread.getAllStackTraces().keySet().stream()
                .anyMatch(t -> t.isAlive() && t.getName().startsWith("spdl4j-" + pipeline + "-"));
    }

    private static long histogramTotal(StageStats s) {
        Histogram h = StageStats.newTaskHistogram();
        s.addIntervalTaskHistogram(h);
        return h.getTotalCount();
    }

    @ParameterizedTest
    @EnumSource(PublishBatching.class)
    void shouldTransformRecordsInPlaceInSourceOrderWithoutGarbage(PublishBatching sourceBatching) throws Exception {
        int records = 1_000_000;
        long[] next = {0};
        long[] expect = {0};
        long[] received = {0};
        long[] outOfOrder = {0};
        try (RecordPipeline p = RecordPipelineBuilder.named("records")
                .recordLength(16)
                .ringCapacity(256)
                .sourcePublishBatching(sourceBatching)
                .source(rec -> {
                    if (next[0] == records) {
                        return false;
                    }
                    rec.putLong(0, next[0]++);
                    return true;
                })
                .stage("double", rec -> {
                    rec.putLong(8, rec.getLong(0) * 2);
                    return true;
                }, 3)
                .stage("drop-tens", rec -> rec.getLong(0) % 10 != 0, 2)
                .consumer(rec -> {
                    long v = rec.getLong(0);
                    if (expect[0] % 10 == 0) {
                        expect[0]++;
                    }
                    if (v != expect[0] || rec.getLong(8) != 2 * v) {
                        outOfOrder[0]++;
                    }
                    expect[0] = v + 1;
                    received[0]++;
                })
                .build()) {
            p.start();
            // warm up, then measure what the engine's threads allocate over the bulk of the run
            while (p.stats().get(3).itemsIn() < 100_000) {
                Thread.sleep(1);
            }
            long before = engineAllocatedBytes("records");
            assertThat(p.awaitCompletion(Duration.ofSeconds(50))).isTrue();
            long allocated = engineAllocatedBytes("records") - before;

            assertThat(received[0]).isEqualTo(records - records / 10);
            assertThat(outOfOrder[0]).as("records out of order or untransformed").isZero();
            StageStats drop = p.stats().get(2);
            assertThat(drop.itemsIn()).isEqualTo(records);
            assertThat(drop.itemsOut()).isEqualTo(records - records / 10);
            assertThat(p.stats().get(1).workerCount()).isEqualTo(3);
            StageStats source = p.stats().get(0);
            assertThat(source.itemsOut()).as("records the source published").isEqualTo(records);
            assertThat(source.tasks()).as("source calls, the last returning false").isEqualTo(records + 1);
            assertThat(histogramTotal(source)).as("source task histogram total").isEqualTo(records + 1);
            assertThat(histogramTotal(p.stats().get(1))).as("stage task histogram total").isEqualTo(records);
            assertThat((double) allocated / records).as("bytes allocated per record (%d total)", allocated)
                    .isLessThan(0.01);
        }
    }

    @ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(ints = {8, 64})
    void shouldPublishHeldRecordsBeforeWaitingForRoomInATinyRing(int slotAlignment) throws Exception {
        int records = 20_000;
        long[] next = {0};
        long[] expect = {0};
        long[] wrong = {0};
        try (RecordPipeline p = RecordPipelineBuilder.named("tiny")
                .recordLength(8)
                .ringCapacity(16) // held runs of up to 4 records; the source finds the ring full again and again
                .slotAlignment(slotAlignment) // 8: two records to a line, the two plus-one workers write neighbours
                .sourcePublishBatching(PublishBatching.SHORT_TASKS)
                .waitPolicy(WaitPolicy.BACKOFF)
                .source(rec -> {
                    if (next[0] == records) {
                        return false;
                    }
                    rec.putLong(0, next[0]++);
                    return true;
                })
                .stage("plus-one", rec -> {
                    rec.putLong(0, rec.getLong(0) + 1);
                    return true;
                }, 2)
                .consumer(rec -> {
                    if (rec.getLong(0) != ++expect[0]) {
                        wrong[0]++;
                    }
                    if (expect[0] % 1000 == 0) {
                        Thread.onSpinWait(); // a consumer slower than the source now and then
                    }
                })
                .build()) {
            p.start();
            assertThat(p.awaitCompletion(Duration.ofSeconds(30))).as("completed").isTrue();
            assertThat(expect[0]).as("records consumed").isEqualTo(records);
            assertThat(wrong[0]).as("records out of order or untransformed").isZero();
            assertThat(p.stats().get(0).itemsOut()).isEqualTo(records);
        }
    }

    @ParameterizedTest
    @EnumSource(WaitPolicy.class)
    void shouldCompleteWithEveryWaitPolicy(WaitPolicy policy) throws Exception {
        boolean spins = policy == WaitPolicy.BUSY_SPIN || policy == WaitPolicy.YIELDING; // see WaitPolicyTest
        int records = spins ? 500 : 50_000;
        int[] n = {0};
        long[] sum = {0};
        try (RecordPipeline p = RecordPipelineBuilder.named("rec-" + policy).recordLength(8).ringCapacity(8)
                .waitPolicy(policy)
                .source(rec -> {
                    rec.putInt(0, n[0]);
                    return n[0]++ < records;
                })
                .stage("inc", rec -> {
                    rec.putInt(0, rec.getInt(0) + 1);
                    return true;
                }, 2)
                .consumer(rec -> sum[0] += rec.getInt(0))
                .build().start()) {
            assertThat(p.awaitCompletion(Duration.ofSeconds(40))).isTrue();
        }
        assertThat(sum[0]).isEqualTo((long) records * (records + 1) / 2);
    }

    @Test
    void shouldCloseWithinTwoSecondsWithABlockedStageAndFreeTheBlock() throws Exception {
        RecordPipeline p = RecordPipelineBuilder.named("rec-close").recordLength(8).ringCapacity(16)
                .source(rec -> true) // endless
                .stage("stuck", rec -> {
                    try {
                        Thread.sleep(60_000);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    return true;
                }, 2)
                .consumer(rec -> { })
                .build().start();
        assertThat(p.awaitCompletion(Duration.ofMillis(50))).isFalse();
        long start = System.nanoTime();
        p.close();
        assertThat(System.nanoTime() - start).isLessThan(TimeUnit.SECONDS.toNanos(2));
        assertThat(anyThreadAlive("rec-close")).isFalse();
        assertThat(p.rings()).allMatch(RecordRing::isFreed);
        p.close(); // idempotent
    }

    @Test
    void shouldFailWhenAStageExceedsItsBudgetAndWhenTheSourceThrows() throws Exception {
        int[] n = {0};
        try (RecordPipeline p = RecordPipelineBuilder.named("rec-fail").recordLength(8).ringCapacity(16)
                .source(rec -> n[0]++ < 1_000)
                .stage("picky", rec -> {
                    throw new IllegalArgumentException("bad record");
                }, 1, FailureBudget.count(3))
                .consumer(rec -> { })
                .build().start()) {
            assertThatThrownBy(() -> p.awaitCompletion(Duration.ofSeconds(20)))
                    .isInstanceOf(PipelineFailedException.class)
                    .hasMessageContaining("stage 'picky'")
                    .hasRootCauseMessage("bad record");
        }
        try (RecordPipeline p = RecordPipelineBuilder.named("rec-src-fail").recordLength(8).ringCapacity(16)
                .source(rec -> {
                    throw new java.io.IOException("feed lost");
                })
                .consumer(rec -> { })
                .build().start()) {
            assertThatThrownBy(() -> p.awaitCompletion(Duration.ofSeconds(20)))
                    .isInstanceOf(PipelineFailedException.class)
                    .hasMessageContaining("stage 'source'")
                    .hasRootCauseMessage("feed lost");
        }
    }

    /**
     * The reader of a two-worker transfer's ring waits without burning a core while a worker holds a claimed, not yet
     * published slot (its mapper is slow): the multi-producer ring answers "not yet" at once there, and the reader
     * backs off instead of retrying in a tight loop.
     */
    @Test
    void shouldNotSpinWhileASlowTransferHoldsAClaimedSlot() throws Exception {
        long[] next = {0};
        try (RecordPipeline p = RecordPipelineBuilder.named("rec-slow-transfer").recordLength(8).ringCapacity(16)
                .waitPolicy(org.spdl4j.engine.WaitPolicy.BLOCKING)
                .source(rec -> {
                    rec.putLong(0, next[0]);
                    return next[0]++ < 24;
                })
                .transfer("slow", 8, 16, (in, out) -> {
                    java.util.concurrent.locks.LockSupport.parkNanos(50_000_000L); // a slow mapper, slot claimed
                    out.putLong(0, in.getLong(0));
                    return true;
                }, 2, FailureBudget.UNLIMITED)
                .consumer(rec -> { })
                .build().start()) {
            double share = consumerCpuShare(p, "rec-slow-transfer");
            assertThat(p.awaitCompletion(Duration.ofSeconds(20))).isTrue();
            assertThat(share).as("the consumer's CPU share while it waits on slow transfers").isLessThan(0.25);
        }
    }

    /** BLOCKING: the consumer behind a slow in-place stage sleeps too (nothing signals a released sequence). */
    @Test
    void shouldNotSpinWhileASlowInPlaceStageWorksOnARecord() throws Exception {
        long[] next = {0};
        try (RecordPipeline p = RecordPipelineBuilder.named("rec-slow-stage").recordLength(8).ringCapacity(16)
                .waitPolicy(org.spdl4j.engine.WaitPolicy.BLOCKING)
                .source(rec -> {
                    rec.putLong(0, next[0]);
                    return next[0]++ < 16;
                })
                .stage("slow", rec -> {
                    java.util.concurrent.locks.LockSupport.parkNanos(50_000_000L); // a slow in-place step
                    return true;
                }, 1)
                .consumer(rec -> { })
                .build().start()) {
            double share = consumerCpuShare(p, "rec-slow-stage");
            assertThat(p.awaitCompletion(Duration.ofSeconds(20))).isTrue();
            assertThat(share).as("the consumer's CPU share while it waits on a slow stage").isLessThan(0.25);
        }
    }

    /** {@return CPU time / wall time of the running pipeline's consumer thread over 400 ms, after 100 ms to settle} */
    private static double consumerCpuShare(RecordPipeline p, String pipelineName) throws InterruptedException {
        java.lang.management.ThreadMXBean mx = java.lang.management.ManagementFactory.getThreadMXBean();
        Thread.sleep(100);
        Thread consumer = Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().equals("spdl4j-" + pipelineName + "-" + RecordPipeline.CONSUMER + "-0"))
                .findFirst().orElseThrow();
        long cpu0 = mx.getThreadCpuTime(consumer.threadId());
        long wall0 = System.nanoTime();
        Thread.sleep(400);
        long cpu = mx.getThreadCpuTime(consumer.threadId()) - cpu0;
        return (double) cpu / (System.nanoTime() - wall0);
    }

    /** A failure stops a record pipeline's threads, as close would: none waits (or spins) on until close. */
    @Test
    void shouldStopEveryThreadWhenAStageFailsWithoutWaitingForClose() throws Exception {
        try (RecordPipeline p = RecordPipelineBuilder.named("rec-fail-stops").recordLength(8).ringCapacity(16)
                .waitPolicy(org.spdl4j.engine.WaitPolicy.BUSY_SPIN)
                .source(rec -> true) // endless
                .stage("picky", new RecordTransform() {
                    private long seen;

                    @Override
                    public boolean apply(org.agrona.MutableDirectBuffer rec) {
                        if (++seen == 5_000) {
                            throw new IllegalArgumentException("bad record");
                        }
                        return true;
                    }
                }, 1, FailureBudget.count(0))
                .consumer(rec -> { })
                .build().start()) {
            assertThatThrownBy(() -> p.awaitCompletion(Duration.ofSeconds(20)))
                    .isInstanceOf(PipelineFailedException.class).hasRootCauseMessage("bad record");
            // Before close: every thread of the pipeline leaves its wait (busy-spinning ones included) once it fails.
            long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(5);
            java.util.List<String> alive;
            do {
                alive = Thread.getAllStackTraces().keySet().stream().filter(Thread::isAlive).map(Thread::getName)
                        .filter(n -> n.startsWith("spdl4j-rec-fail-stops-")).toList();
                Thread.sleep(10);
            } while (!alive.isEmpty() && System.nanoTime() < deadline);
            assertThat(alive).as("threads still running after the failure, before close").isEmpty();
        }
    }

    @Test
    void shouldDeliverHeldRecordsBeforeASourceFailureWhenTheSourceBatches() throws Exception {
        long[] next = {0};
        long[] received = {0};
        try (RecordPipeline p = RecordPipelineBuilder.named("held-fail")
                .recordLength(8)
                .ringCapacity(1024) // runs of up to 64 held records: the failure comes mid-run
                .sourcePublishBatching(PublishBatching.SHORT_TASKS)
                .source(rec -> {
                    if (next[0] == 1_000) {
                        throw new java.io.IOException("feed dropped");
                    }
                    rec.putLong(0, next[0]++);
                    return true;
                })
                .stage("keep", rec -> true, 1)
                .consumer(rec -> {
                    if (rec.getLong(0) == received[0]) {
                        received[0]++;
                    }
                })
                .build().start()) {
            assertThatThrownBy(() -> p.awaitCompletion(Duration.ofSeconds(10)))
                    .isInstanceOf(PipelineFailedException.class)
                    .hasMessageContaining("stage 'source'")
                    .hasRootCauseMessage("feed dropped");
            assertThat(received[0]).as("records delivered in order before the failure").isEqualTo(1_000);
            assertThat(p.stats().get(0).itemsOut()).isEqualTo(1_000);
        }
    }

    @Test
    void shouldFailWhenTheSourceThrowsAnError() throws Exception {
        try (RecordPipeline p = RecordPipelineBuilder.named("rec-src-error").recordLength(8).ringCapacity(16)
                .source(rec -> {
                    throw new LinkageError("native reader gone");
                })
                .stage("pass", rec -> true, 2)
                .consumer(rec -> { })
                .build().start()) {
            assertThatThrownBy(() -> p.awaitCompletion(Duration.ofSeconds(5)))
                    .isInstanceOf(PipelineFailedException.class)
                    .hasMessageContaining("stage 'source'")
                    .hasRootCauseMessage("native reader gone");
        }
    }

    @Test
    void shouldRejectInvalidDescriptionsListingEveryProblem() {
        assertThatThrownBy(() -> RecordPipelineBuilder.named("bad").recordLength(0).ringCapacity(6).slotAlignment(24)
                .stage("a", rec -> true, 8).stage("a", rec -> true, 1).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no source")
                .hasMessageContaining("no consumer")
                .hasMessageContaining("record length 0")
                .hasMessageContaining("ring capacity 6 must be a power of two")
                .hasMessageContaining("slot alignment 24 must be a power of two in [8, 4096]")
                .hasMessageContaining("stage 'a': concurrency 8")
                .hasMessageContaining("stage 'a': name must be unique");
    }

    @Test
    void shouldLayOutSlotsOnCacheLines() {
        assertThat(RecordDescriptor.slotSize(1)).isEqualTo(64);
        assertThat(RecordDescriptor.slotSize(56)).isEqualTo(64);
        assertThat(RecordDescriptor.slotSize(57)).isEqualTo(128);
        assertThat(RecordDescriptor.slotOffset(9, 7, 128)).isEqualTo(128);

        RecordRing ring = new RecordRing(8, 100, false, new com.lmax.disruptor.BusySpinWaitStrategy());
        org.agrona.concurrent.UnsafeBuffer fly = new org.agrona.concurrent.UnsafeBuffer(0, 0);
        ring.wrapRecord(fly, 0);
        long slot0 = fly.addressOffset() - RecordDescriptor.HEADER_LENGTH;
        assertThat(slot0 % RecordDescriptor.ALIGNMENT).as("slot 0 on a cache line").isZero();
        ring.wrapRecord(fly, 9); // sequence 9 lives in slot 1
        assertThat(fly.addressOffset() - RecordDescriptor.HEADER_LENGTH - slot0).isEqualTo(128);
        assertThat(fly.capacity()).isEqualTo(100);
        ring.free();
        assertThat(ring.isFreed()).isTrue();
    }

    @Test
    void shouldPackSlotsToASmallerAlignment() {
        assertThat(RecordDescriptor.slotSize(8, 8)).as("8-byte record, 8-byte alignment").isEqualTo(16);
        assertThat(RecordDescriptor.slotSize(8, 16)).isEqualTo(16);
        assertThat(RecordDescriptor.slotSize(9, 16)).isEqualTo(32);
        assertThat(RecordDescriptor.slotSize(1, 4096)).isEqualTo(4096);
        assertThatThrownBy(() -> RecordDescriptor.slotSize(8, 4)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("got 4");
        assertThatThrownBy(() -> RecordDescriptor.slotSize(8, 8192)).isInstanceOf(IllegalArgumentException.class);

        RecordRing ring = new RecordRing(8, 8, 16, false, new com.lmax.disruptor.BusySpinWaitStrategy());
        org.agrona.concurrent.UnsafeBuffer fly = new org.agrona.concurrent.UnsafeBuffer(0, 0);
        ring.wrapRecord(fly, 0);
        long slot0 = fly.addressOffset() - RecordDescriptor.HEADER_LENGTH;
        assertThat(slot0 % RecordDescriptor.ALIGNMENT).as("the block still starts on a cache line").isZero();
        ring.wrapRecord(fly, 11); // sequence 11 lives in slot 3
        assertThat(fly.addressOffset() - RecordDescriptor.HEADER_LENGTH - slot0).isEqualTo(3 * 16);
        ring.free();

        RecordRing paged = new RecordRing(4, 8, 4096, false, new com.lmax.disruptor.BusySpinWaitStrategy());
        paged.wrapRecord(fly, 1);
        assertThat(fly.addressOffset() - RecordDescriptor.HEADER_LENGTH).as("slot 1 of page-aligned slots")
                .matches(a -> a % 4096 == 0, "on a page");
        paged.free();
    }

    @Test
    void shouldTransferRecordsIntoARingOfAnotherSize() throws Exception {
        int records = 200_000;
        long[] next = {0};
        long[] expect = {0};
        long[] bad = {0};
        long[] received = {0};
        try (RecordPipeline p = RecordPipelineBuilder.named("rec-transfer").recordLength(8).ringCapacity(64)
                .source(rec -> {
                    rec.putLong(0, next[0]);
                    return next[0]++ < records;
                })
                .stage("plus-one", rec -> {
                    rec.putLong(0, rec.getLong(0) + 1);
                    return true;
                }, 2)
                .transfer("widen", 24, 32, (in, out) -> {
                    long v = in.getLong(0);
                    if (v % 4 == 0) {
                        return false; // dropped in the transfer
                    }
                    out.putLong(0, v);
                    out.putLong(8, v * v);
                    out.putLong(16, -v);
                    return true;
                }, 1, FailureBudget.UNLIMITED)
                .stage("check", rec -> rec.getLong(8) == rec.getLong(0) * rec.getLong(0), 3)
                .consumer(rec -> {
                    long v = rec.getLong(0);
                    if (expect[0] % 4 == 0) {
                        expect[0]++;
                    }
                    if (expect[0] == 0) {
                        expect[0] = 1;
                    }
                    if (v != expect[0] || rec.getLong(16) != -v) {
                        bad[0]++;
                    }
                    expect[0] = v + 1;
                    received[0]++;
                })
                .build().start()) {
            assertThat(p.awaitCompletion(Duration.ofSeconds(40))).isTrue();
            assertThat(p.rings()).extracting(RecordRing::recordLength).containsExactly(8, 24);
            assertThat(p.stats()).extracting(StageStats::stage)
                    .containsExactly("source", "plus-one", "widen", "check", "consumer");
        }
        assertThat(received[0]).isEqualTo(records - records / 4);
        assertThat(bad[0]).as("records out of order or corrupted").isZero();
    }

    @Test
    void shouldTransferWithSeveralWorkersInCompletionOrder() throws Exception {
        int records = 100_000;
        int[] next = {0};
        long[] sum = {0};
        long[] count = {0};
        try (RecordPipeline p = RecordPipelineBuilder.named("rec-transfer-wide").recordLength(4).ringCapacity(16)
                .source(rec -> {
                    rec.putInt(0, next[0]);
                    return next[0]++ < records;
                })
                .transfer("to-long", 8, 8, (in, out) -> {
                    out.putLong(0, in.getInt(0));
                    return true;
                }, 4, FailureBudget.UNLIMITED)
                .consumer(rec -> {
                    sum[0] += rec.getLong(0);
                    count[0]++;
                })
                .build().start()) {
            assertThat(p.awaitCompletion(Duration.ofSeconds(40))).isTrue();
        }
        assertThat(count[0]).isEqualTo(records);
        assertThat(sum[0]).isEqualTo((long) records * (records - 1) / 2);
    }

    /**
     * {@code awaitCompletion(ChronoUnit.FOREVER.getDuration())} threw ArithmeticException from
     * {@code Duration.toNanos()} instead of waiting without a bound, as {@code Pipeline.next} does for the same value.
     */
    @Test
    void shouldAwaitCompletionWithoutABoundForAnOverlongTimeout() throws Exception {
        int[] left = {100};
        long[] consumed = {0};
        try (RecordPipeline p = RecordPipelineBuilder.named("await-forever").recordLength(8).ringCapacity(64)
                .source(rec -> {
                    if (left[0] == 0) {
                        return false;
                    }
                    rec.putLong(0, left[0]--);
                    return true;
                })
                .consumer(rec -> consumed[0]++)
                .build().start()) {
            assertThat(p.awaitCompletion(java.time.temporal.ChronoUnit.FOREVER.getDuration())).isTrue();
        }
        assertThat(consumed[0]).isEqualTo(100);
    }
}
