package org.spdl4j.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class SourceTest {
    private static <T> List<T> drain(Pipeline<T> p) {
        List<T> out = new ArrayList<>();
        try (p) {
            p.forEach(out::add);
        }
        return out;
    }

    @Test
    void shouldReadIterablesIteratorsStreamsAndSuppliers() {
        List<Integer> ten = IntStream.range(0, 10).boxed().toList();
        PipelineBuilder<Integer> fromIterable = PipelineBuilder.fromIterable(ten);
        assertThat(drain(fromIterable.build())).isEqualTo(ten);
        assertThat(drain(fromIterable.build())).as("an iterable builds again").isEqualTo(ten);

        Iterator<Integer> it = ten.iterator();
        PipelineBuilder<Integer> fromIterator = PipelineBuilder.fromIterator(it);
        assertThat(drain(fromIterator.build())).isEqualTo(ten);
        assertThatThrownBy(fromIterator::build).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("one pipeline only");

        AtomicBoolean closed = new AtomicBoolean();
        Stream<Integer> stream = ten.stream().onClose(() -> closed.set(true));
        assertThat(drain(PipelineBuilder.fromStream(stream).build())).isEqualTo(ten);
        assertThat(closed).as("the stream is closed with the pipeline").isTrue();

        AtomicInteger n = new AtomicInteger();
        assertThat(drain(PipelineBuilder.fromSupplier(() -> n.get() < 10 ? n.getAndIncrement() : null).build()))
                .isEqualTo(ten);
        AtomicInteger m = new AtomicInteger();
        assertThat(drain(PipelineBuilder.fromSupplier(m::getAndIncrement, 5).build()))
                .containsExactly(0, 1, 2, 3, 4);
    }

    @Test
    void shouldRepeatAnIterableAndMarkEpochs() throws Exception {
        List<String> epochEnds = new CopyOnWriteArrayList<>();
        try (Pipeline<String> p = PipelineBuilder.repeating(List.of("a", "b", "c"),
                        (epoch, items) -> epochEnds.add(epoch + ":" + items))
                .pipe("upper", String::toUpperCase, StageOptions.defaults())
                .build()) {
            List<String> seen = new ArrayList<>();
            for (int i = 0; i < 9; i++) {
                String s = p.next(Duration.ofSeconds(5));
                seen.add(p.lastEpoch() + s);
            }
            assertThat(seen).containsExactly("0A", "0B", "0C", "1A", "1B", "1C", "2A", "2B", "2C");
            assertThat(epochEnds).startsWith("0:3", "1:3");
        }
    }

    @Test
    void shouldEndARepeatingSourceWhoseEpochIsEmpty() {
        assertThat(drain(PipelineBuilder.repeating(List.<String>of(), null).build())).isEmpty();
    }

    @Test
    void shouldRunACustomSourceAndCloseIt() {
        AtomicBoolean closed = new AtomicBoolean();
        Source<Integer> src = new Source<>() {
            private int i;

            @Override
            public Integer next() {
                return i < 3 ? i++ : null;
            }

            @Override
            public void close() {
                closed.set(true);
            }
        };
        assertThat(drain(PipelineBuilder.<Integer>fromSource(() -> src).build())).containsExactly(0, 1, 2);
        assertThat(closed).isTrue();
    }

    /**
     * A build that fails after the source was created (an aggregator factory that throws, as a batch size of 0 does)
     * never returns a pipeline to close: the source (an open shard, a stream) must be closed by the build itself.
     */
    @Test
    void shouldCloseTheSourceWhenBuildingThePipelineFailsAfterCreatingIt() {
        AtomicInteger closes = new AtomicInteger();
        PipelineBuilder<Integer> from = PipelineBuilder.<Integer>fromSource(() -> new Source<>() {
            @Override
            public Integer next() {
                return null;
            }

            @Override
            public void close() {
                closes.incrementAndGet();
            }
        });
        // A factory whose aggregator refuses its size: aggregate(0, false) itself is refused before build()
        assertThatThrownBy(() -> from.aggregate("agg", () -> new BatchAggregator<Integer>(0, false),
                StageOptions.defaults()).build()).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("batch size");
        assertThat(closes).as("the source, closed by the failed build").hasValue(1);

        Stream<Integer> stream = Stream.of(1, 2, 3).onClose(closes::incrementAndGet);
        assertThatThrownBy(() -> PipelineBuilder.fromStream(stream)
                .aggregate("agg", () -> {
                    throw new IllegalStateException("no aggregator (test)");
                }, StageOptions.defaults())
                .build()).isInstanceOf(IllegalStateException.class).hasMessageContaining("no aggregator (test)");
        assertThat(closes).as("the stream, closed by the failed build").hasValue(2);
    }

    /**
     * An iterable whose iterators hold resources ({@code CloseableIterator}: an open shard, a look-ahead sample) gets
     * its current iterator closed when the pipeline closes, also when the consumer broke out early: once for a
     * one-pass source, and the current epoch's for a repeating one.
     */
    @Test
    void shouldCloseTheIteratorsOfAnIterableWhenThePipelineCloses() throws Exception {
        for (boolean repeating : new boolean[] {false, true}) {
            AtomicInteger opened = new AtomicInteger();
            AtomicInteger closed = new AtomicInteger();
            Iterable<Integer> endless = () -> {
                opened.incrementAndGet();
                return new org.spdl4j.engine.source.CloseableIterator<>() {
                    private int i;

                    @Override
                    public boolean hasNext() {
                        return true;
                    }

                    @Override
                    public Integer next() {
                        return i++;
                    }

                    @Override
                    public void close() {
                        closed.incrementAndGet();
                    }
                };
            };
            try (Pipeline<Integer> p = (repeating ? PipelineBuilder.repeating(endless, null)
                    : PipelineBuilder.fromIterable(endless)).named("closeable").sink(4).build()) {
                for (int k = 0; k < 10; k++) {
                    p.next(Duration.ofSeconds(10));
                }
            }
            assertThat(opened).as("repeating %s", repeating).hasValue(1);
            assertThat(closed).as("repeating %s: iterator closed", repeating).hasValue(1);
        }
    }

    /** An exhausted epoch's iterator that fails to close is logged; the next epochs still run, nothing is lost. */
    @Test
    void shouldGoOnToTheNextEpochWhenTheLastOnesIteratorFailsToClose() throws Exception {
        AtomicInteger closeCalls = new AtomicInteger();
        Iterable<Integer> epochs = () -> new org.spdl4j.engine.source.CloseableIterator<>() {
            private int i;

            @Override
            public boolean hasNext() {
                return i < 3;
            }

            @Override
            public Integer next() {
                return i++;
            }

            @Override
            public void close() {
                closeCalls.incrementAndGet();
                throw new IllegalStateException("shard handle already gone (test)");
            }
        };
        try (Pipeline<Integer> p = PipelineBuilder.repeating(epochs, null).named("close-fails").sink(4).build()) {
            List<Integer> seen = new ArrayList<>();
            for (int k = 0; k < 9; k++) {
                seen.add(p.next(Duration.ofSeconds(10)));
            }
            assertThat(seen).containsExactly(0, 1, 2, 0, 1, 2, 0, 1, 2);
        }
        assertThat(closeCalls.get()).as("each epoch's iterator closed once").isGreaterThanOrEqualTo(3);
    }
}
