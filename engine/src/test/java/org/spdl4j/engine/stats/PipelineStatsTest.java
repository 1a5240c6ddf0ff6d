package org.spdl4j.engine.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class PipelineStatsTest {
    private final ManualClock clock = new ManualClock();
    private final AtomicLong decodeRing = new AtomicLong();
    private final StageStats source = new StageStats("train", "source", 1, () -> 0, 0);
    private final StageStats decode = new StageStats("train", "decode", 4, decodeRing::get, 64);
    private final StageStats batch = new StageStats("train", "batch", 1, () -> 0, 32);
    private final PipelineStats stats = new PipelineStats("train", List.of(source, decode, batch), clock);

    @Test
    void shouldCountExactlyTheItemsRecorded() {
        for (int i = 0; i < 1_000; i++) {
            source.worker(0).onItemOut();
            decode.worker(i % 4).onItemIn();
            if (i % 100 == 0) {
                decode.worker(i % 4).onFailure();
            } else {
                decode.worker(i % 4).onItemOut();
            }
        }
        clock.advance(1_000_000_000L);
        PipelineSnapshot s = stats.snapshot();
        assertThat(s.stage("source").itemsOut()).isEqualTo(1_000);
        assertThat(s.stage("decode").itemsIn()).isEqualTo(1_000);
        assertThat(s.stage("decode").itemsOut()).isEqualTo(990);
        assertThat(s.stage("decode").failures()).isEqualTo(10);
        assertThat(s.stage("decode").itemsOutPerSecond()).isCloseTo(990.0, within(1e-9));
    }

    @Test
    void shouldAccumulateHistogramTotalsEqualToTaskCountsAcrossSnapshots() {
        long expected = 0;
        for (int round = 1; round <= 20; round++) {
            for (int i = 0; i < round * 7; i++) {
                decode.worker(i % 4).onTask(10_000 + i);
                expected++;
            }
            if (round % 3 == 0) {
                stats.sample(); // intervals taken without a snapshot still reach the accumulation
            }
            clock.advance(1_000_000);
            PipelineSnapshot s = stats.snapshot();
            assertThat(s.stage("decode").tasks()).isEqualTo(expected).isEqualTo(decode.tasks());
        }
        assertThat(stats.copyAccumulatedTaskHistogram("decode").getTotalCount()).isEqualTo(expected);
    }

    @Test
    void shouldReportPercentilesOfTheAccumulatedHistogram() {
        for (int i = 1; i <= 1_000; i++) {
            batch.worker(0).onTask(i * 1_000L); // 1 us .. 1 ms, uniform
        }
        StageSnapshot s = stats.snapshot().stage("batch");
        assertThat(s.p50Nanos()).isCloseTo(500_000L, within(10_000L));
        assertThat(s.p90Nanos()).isCloseTo(900_000L, within(15_000L));
        assertThat(s.p99Nanos()).isCloseTo(990_000L, within(15_000L));
        assertThat(s.maxNanos()).isCloseTo(1_000_000L, within(15_000L));
        assertThat(stats.snapshot().stage("source").p99Nanos()).isZero();
    }

    @Test
    void shouldComputeTimeSharesOverTheIntervalPerWorker() {
        stats.snapshot();
        clock.advance(1_000_000_000L);
        for (int w = 0; w < 4; w++) {
            decode.worker(w).onTask(900_000_000L); // 90% of 4 workers x 1 s
            decode.worker(w).onStarved(50_000_000L);
        }
        batch.worker(0).onStarved(800_000_000L);
        source.worker(0).onBackPressured(700_000_000L);
        decodeRing.set(60);
        PipelineSnapshot s = stats.snapshot();
        StageSnapshot d = s.stage("decode");
        assertThat(d.busyPercent()).isCloseTo(90.0, within(1e-9));
        assertThat(d.starvedPercent()).isCloseTo(5.0, within(1e-9));
        assertThat(d.ringOccupancy()).isEqualTo(60);
        assertThat(d.ringOccupancyPercent()).isCloseTo(93.75, within(1e-9));
        assertThat(s.stage("source").backPressuredPercent()).isCloseTo(70.0, within(1e-9));
        assertThat(s.bottleneck()).map(StageSnapshot::stage).contains("decode");
        assertThat(s.consumerBound()).isFalse();

        clock.advance(1_000_000_000L); // an idle second: shares are per interval, not cumulative
        PipelineSnapshot idle = stats.snapshot();
        assertThat(idle.stage("decode").busyPercent()).isZero();
        assertThat(idle.bottleneck()).isEmpty();
        assertThat(idle.wallNanos()).isEqualTo(2_000_000_000L);
        assertThat(idle.intervalNanos()).isEqualTo(1_000_000_000L);
    }

    @Test
    void shouldComputeWholeRunSharesWithoutDisturbingTheIntervals() {
        clock.advance(1_000_000_000L);
        for (int w = 0; w < 4; w++) {
            decode.worker(w).onTask(800_000_000L);
        }
        stats.snapshot(); // an interval snapshot: 80% busy over the first second
        clock.advance(1_000_000_000L); // an idle second
        PipelineSnapshot run = stats.runSnapshot();
        assertThat(run.intervalNanos()).isEqualTo(2_000_000_000L);
        assertThat(run.stage("decode").busyPercent()).as("80% of the first second, 0% of the second")
            .isCloseTo(40.0, within(1e-9));
        for (int w = 0; w < 4; w++) {
            decode.worker(w).onTask(500_000_000L);
        }
        clock.advance(1_000_000_000L);
        PipelineSnapshot interval = stats.snapshot();
        assertThat(interval.intervalNanos()).as("the run snapshot left the interval alone").isEqualTo(2_000_000_000L);
        assertThat(interval.stage("decode").busyPercent()).isCloseTo(25.0, within(1e-9));
    }

    @Test
    void shouldNotChargeWorkDoneBeforeTheStatsWereAttached() {
        // A running pipeline: the counters already hold 9 s of the last stage's work and 1,000 items when the stats
        // attach. The first second after that: decode is saturated, the batch stage waits for it.
        StageStats src = new StageStats("p", "source", 1, () -> 0, 0);
        StageStats dec = new StageStats("p", "decode", 4, () -> 0, 64);
        StageStats collate = new StageStats("p", "collate", 1, () -> 0, 64);
        collate.worker(0).onTask(9_000_000_000L);
        collate.worker(0).onStarved(2_000_000_000L);
        for (int i = 0; i < 1_000; i++) {
            collate.worker(0).onItemOut();
        }
        PipelineStats attached = new PipelineStats("p", List.of(src, dec, collate), clock);
        clock.advance(1_000_000_000L);
        for (int w = 0; w < 4; w++) {
            dec.worker(w).onTask(950_000_000L);
        }
        collate.worker(0).onTask(300_000_000L);
        collate.worker(0).onStarved(600_000_000L);
        for (int i = 0; i < 50; i++) {
            collate.worker(0).onItemOut();
        }
        PipelineSnapshot first = attached.snapshot();
        StageSnapshot c = first.stage("collate");
        assertThat(c.busyPercent()).isCloseTo(30.0, within(1e-9));
        assertThat(c.starvedPercent()).isCloseTo(60.0, within(1e-9));
        assertThat(c.itemsOutPerSecond()).isCloseTo(50.0, within(1e-9));
        assertThat(c.itemsOut()).as("counts stay cumulative").isEqualTo(1_050);
        assertThat(first.throughput()).isCloseTo(50.0, within(1e-9));
        assertThat(first.bottleneck()).map(StageSnapshot::stage).contains("decode");
        PipelineSnapshot run = attached.runSnapshot();
        assertThat(run.stage("collate").busyPercent()).isCloseTo(30.0, within(1e-9));
        assertThat(run.stage("collate").itemsOutPerSecond()).isCloseTo(50.0, within(1e-9));
    }

    @Test
    void shouldMeasureFromMarkStartedOnlyWhatFollowsIt() {
        clock.advance(4_000_000_000L); // a warm-up: 4 s of work on every decode worker, 400 items out
        for (int w = 0; w < 4; w++) {
            decode.worker(w).onTask(4_000_000_000L);
        }
        for (int i = 0; i < 400; i++) {
            batch.worker(0).onItemOut();
        }
        stats.markStarted();
        clock.advance(1_000_000_000L);
        for (int w = 0; w < 4; w++) {
            decode.worker(w).onTask(500_000_000L);
            decode.worker(w).onBackPressured(250_000_000L);
        }
        for (int i = 0; i < 100; i++) {
            batch.worker(0).onItemOut();
        }
        PipelineSnapshot run = stats.runSnapshot();
        assertThat(run.stage("decode").busyPercent()).isCloseTo(50.0, within(1e-9));
        assertThat(run.stage("decode").backPressuredPercent()).isCloseTo(25.0, within(1e-9));
        assertThat(run.stage("batch").itemsOutPerSecond()).isCloseTo(100.0, within(1e-9));
        assertThat(run.throughput()).isCloseTo(100.0, within(1e-9));
        PipelineSnapshot interval = stats.snapshot();
        assertThat(interval.stage("decode").busyPercent()).isCloseTo(50.0, within(1e-9));
        assertThat(interval.stage("batch").itemsOutPerSecond()).isCloseTo(100.0, within(1e-9));
    }

    @Test
    void shouldGiveTheTasksBeforeMarkStartedToAnIntervalThatEndsThere() {
        // A warm-up: its tasks belong to an interval that ends at the start, not to the first measured one (whose
        // .hlog line would show the warm-up's count and its cold-JIT task times inside the measured time).
        List<long[]> intervals = new ArrayList<>(); // {start ms, end ms, count} of decode's intervals
        stats.addListener((stage, h) -> {
            if (stage == decode) {
                intervals.add(new long[] {h.getStartTimeStamp(), h.getEndTimeStamp(), h.getTotalCount()});
            }
        });
        for (int i = 0; i < 50; i++) {
            decode.worker(i % 4).onTask(1_000_000L);
        }
        clock.advance(4_000_000_000L);
        stats.markStarted();
        long start = stats.startEpochMillis();
        clock.advance(1_000_000_000L);
        decode.worker(0).onTask(1_000L);
        stats.snapshot();

        long[] measured = intervals.get(intervals.size() - 1);
        assertThat(measured[0]).as("the first measured interval starts at the start").isEqualTo(start);
        assertThat(measured[2]).as("tasks in the first measured interval").isEqualTo(1);
        assertThat(intervals).as("the warm-up's interval ends by the start")
                .anySatisfy(w -> assertThat(w).containsExactly(w[0], w[1], 50L))
                .allSatisfy(w -> assertThat(w[2] == 50 ? w[1] <= start : w[0] >= start).isTrue());
        assertThat(stats.snapshot().stage("decode").tasks()).as("cumulative counts are kept").isEqualTo(51);
    }

    @Test
    void shouldNeverShowAStageTakingMoreItemsThanTheStageBeforeItPublished() {
        // Items keep moving while a snapshot is taken. Each stage's ring-occupancy read stands here for the time the
        // snapshot spends between its reads (percentiles, other stages): meanwhile that stage publishes 5 items and
        // the next stage takes them. A snapshot is one instant: no stage may show more items in than the stage
        // before it published, nor more out than it took in.
        StageStats[] p = new StageStats[3];
        p[0] = new StageStats("flow", "source", 1, () -> hop(p[0], p[1]), 0);
        p[1] = new StageStats("flow", "decode", 1, () -> hop(p[1], p[2]), 64);
        p[2] = new StageStats("flow", "batch", 1, () -> 0, 64);
        PipelineStats flowing = new PipelineStats("flow", List.of(p), clock);
        for (int round = 0; round < 3; round++) {
            clock.advance(1_000_000L);
            List<StageSnapshot> stages = flowing.snapshot().stages();
            for (int i = 1; i < stages.size(); i++) {
                assertThat(stages.get(i).itemsIn()).as("round %d: %s in vs %s out", round, stages.get(i).stage(),
                        stages.get(i - 1).stage()).isLessThanOrEqualTo(stages.get(i - 1).itemsOut());
                assertThat(stages.get(i).itemsOut()).as("round %d: %s out vs in", round, stages.get(i).stage())
                        .isLessThanOrEqualTo(stages.get(i).itemsIn());
            }
        }
    }

    /** 5 items go out of {@code up} and into {@code down}, each counted as it moves; 0 items wait. */
    private static long hop(StageStats up, StageStats down) {
        for (int i = 0; i < 5; i++) {
            up.worker(0).onItemOut();
            down.worker(0).onItemIn();
        }
        return 0;
    }

    @Test
    void shouldComputeThroughputFromTheLastStageSinceTheStart() {
        clock.advance(2_000_000_000L);
        for (int i = 0; i < 500; i++) {
            batch.worker(0).onItemOut();
        }
        assertThat(stats.snapshot().throughput()).isCloseTo(250.0, within(1e-9));
    }

    @Test
    void shouldNameEveryMetricPipelineStageMetric() {
        decode.worker(0).onItemIn();
        var metrics = stats.snapshot().metrics();
        assertThat(metrics).containsEntry("train:decode:items_in", 1L)
                .containsEntry("train:decode:ring_capacity", 64)
                .containsKeys("train:wall_ns", "train:throughput_per_s", "train:batch:task_p99_ns",
                        "train:source:back_pressured_pct");
        assertThat(metrics.keySet()).allMatch(k -> k.startsWith("train:"))
                .hasSize(3 + 3 * 15);
    }

    @Test
    void shouldGiveEveryIntervalToEveryListenerOnceTaggedAndTimestamped() {
        List<String> seen = new ArrayList<>();
        AtomicLong total = new AtomicLong();
        stats.addListener((stage, h) -> {
            seen.add(h.getTag() + "@" + h.getStartTimeStamp() + "-" + h.getEndTimeStamp());
            total.addAndGet(h.getTotalCount());
        });
        decode.worker(1).onTask(5);
        clock.advance(3_000_000L);
        stats.sample();
        decode.worker(2).onTask(5);
        stats.snapshot();
        long t0 = stats.startEpochMillis();
        assertThat(seen).containsExactly(
                "train:source@" + t0 + "-" + (t0 + 3), "train:decode@" + t0 + "-" + (t0 + 3),
                "train:batch@" + t0 + "-" + (t0 + 3),
                "train:source@" + (t0 + 3) + "-" + (t0 + 3), "train:decode@" + (t0 + 3) + "-" + (t0 + 3),
                "train:batch@" + (t0 + 3) + "-" + (t0 + 3));
        assertThat(total).hasValue(2);
    }

    @Test
    void shouldNotAllocateWhenSampling() {
        for (int i = 0; i < 3; i++) {
            decode.worker(0).onTask(100);
            stats.sample(); // warm up: first swaps allocate the recycled histograms
        }
        var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long tid = Thread.currentThread().threadId();
        long before = threads.getThreadAllocatedBytes(tid);
        for (int i = 0; i < 1_000; i++) {
            decode.worker(i % 4).onTask(100 + i);
            stats.sample();
        }
        long allocated = threads.getThreadAllocatedBytes(tid) - before;
        assertThat(allocated).as("bytes allocated by 1000 samples").isLessThan(16 * 1024);
    }

    @Test
    void shouldRefuseASecondPipelineStatsOnTheSameStages() {
        // A second reader would take the first one's interval histograms: its task counts would miss them.
        assertThatThrownBy(() -> PipelineStats.of(List.of(source, decode, batch)))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("train:source");
        StageStats fresh = new StageStats("train", "fresh", 1, () -> 0, 0);
        assertThatThrownBy(() -> new PipelineStats("train", List.of(fresh, decode)))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("train:decode");
        for (int i = 0; i < 10; i++) {
            decode.worker(0).onTask(1_000);
        }
        assertThat(stats.snapshot().stage("decode").tasks()).isEqualTo(10).isEqualTo(decode.tasks());
        assertThat(new PipelineStats("train", List.of(fresh)).stages())
                .as("a refused PipelineStats left no stage attached").containsExactly(fresh);
    }

    @Test
    void shouldLetANewPipelineStatsReadTheStagesOnceTheFirstIsDetached() {
        decode.worker(0).onTask(1_000);
        stats.snapshot();
        stats.detach();
        stats.detach(); // idempotent
        assertThatThrownBy(stats::snapshot).isInstanceOf(IllegalStateException.class).hasMessageContaining("train");
        PipelineStats next = new PipelineStats("train", List.of(source, decode, batch), clock);
        decode.worker(1).onTask(2_000);
        assertThat(next.snapshot().stage("decode").tasks()).isEqualTo(1);
        assertThat(stats.copyAccumulatedTaskHistogram("decode").getTotalCount()).isEqualTo(1);
    }

    @Test
    void shouldRejectStagesOfAnotherPipelineOrDuplicateNames() {
        StageStats other = new StageStats("eval", "decode", 1, () -> 0, 0);
        assertThatThrownBy(() -> new PipelineStats("train", List.of(source, other)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("eval").hasMessageContaining("decode");
        StageStats twin = new StageStats("train", "decode", 1, () -> 0, 0);
        assertThatThrownBy(() -> new PipelineStats("train", List.of(decode, twin)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("two stages named 'decode'");
    }

    @Test
    void shouldRejectStagesWhoseNamesMakeOneHlogTag() {
        // "a b" and "a_b" are distinct names but one .hlog tag: the log would read back as one stage.
        StageStats spaced = new StageStats("tags", "a b", 1, () -> 0, 0);
        StageStats underscored = new StageStats("tags", "a_b", 1, () -> 0, 0);
        assertThat(spaced.tag()).isEqualTo(underscored.tag());
        assertThatThrownBy(() -> new PipelineStats("tags", List.of(spaced, underscored)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'a b'").hasMessageContaining("'a_b'").hasMessageContaining("tags:a_b");
        assertThat(new PipelineStats("tags", List.of(spaced)).stages())
                .as("the refused PipelineStats left the stage free").containsExactly(spaced);
    }
}
