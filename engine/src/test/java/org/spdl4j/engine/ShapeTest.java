package org.spdl4j.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Aggregation, disaggregation and dropping. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ShapeTest {
    private static List<Integer> range(int n) {
        return IntStream.range(0, n).boxed().toList();
    }

    @Test
    void shouldBatchItemsKeepingAShortLastBatch() {
        List<List<Integer>> out = new ArrayList<>();
        try (Pipeline<List<Integer>> p = PipelineBuilder.fromIterable(range(95)).aggregate(10, false).build()) {
            p.forEach(out::add);
        }
        assertThat(out).hasSize(10);
        assertThat(out.get(9)).containsExactly(90, 91, 92, 93, 94);
        assertThat(out.stream().flatMap(List::stream).toList()).isEqualTo(range(95));
    }

    @Test
    void shouldDropTheShortLastBatchWhenAsked() {
        List<List<Integer>> out = new ArrayList<>();
        try (Pipeline<List<Integer>> p = PipelineBuilder.fromIterable(range(95)).aggregate(10, true).build()) {
            p.forEach(out::add);
        }
        assertThat(out).hasSize(9).allSatisfy(b -> assertThat(b).hasSize(10));
    }

    @Test
    void shouldRestoreItemsWhenDisaggregatingBatches() {
        List<Integer> out = new ArrayList<>();
        try (Pipeline<Integer> p = PipelineBuilder.fromIterable(range(1_000))
                .aggregate(7, false)
                .<Integer>disaggregate()
                .pipe("x2", (Integer i) -> 2 * i, StageOptions.defaults().withConcurrency(3)
                        .withOrder(OutputOrder.INPUT))
                .build()) {
            p.forEach(out::add);
        }
        assertThat(out).isEqualTo(IntStream.range(0, 1_000).map(i -> 2 * i).boxed().toList());
    }

    @Test
    void shouldUseACustomAggregatorAndFlushItAtTheEnd() {
        List<Long> sums = new ArrayList<>();
        try (Pipeline<Long> p = PipelineBuilder.fromIterable(range(100))
                .aggregate("sum-by-30", () -> new Aggregator<Integer, Long>() {
                    private long sum;
                    private int n;

                    @Override
                    public Long add(Integer item) {
                        sum += item;
                        if (++n < 30) {
                            return null;
                        }
                        long s = sum;
                        sum = 0;
                        n = 0;
                        return s;
                    }

                    @Override
                    public Long flush() {
                        return n == 0 ? null : sum;
                    }
                }, StageOptions.defaults())
                .build()) {
            p.forEach(sums::add);
        }
        assertThat(sums).containsExactly(435L, 1335L, 2235L, 945L);
    }

    @Test
    void shouldDropItemsWhoseFunctionReturnsNull() {
        List<Integer> out = new ArrayList<>();
        try (Pipeline<Integer> p = PipelineBuilder.fromIterable(range(10_000))
                .pipe("even", (Integer i) -> i % 2 == 0 ? i : null, StageOptions.defaults().withConcurrency(4))
                .build()) {
            p.forEach(out::add);
            assertThat(p.stats().get(1).failures()).isZero();
        }
        assertThat(out).hasSize(5_000).allMatch(i -> i % 2 == 0);
    }
}
