package org.spdl4j.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.AbstractList;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.RandomAccess;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.spdl4j.engine.stats.StageStats;

/**
 * The disaggregate stage's contract beyond the happy path (and an aggregate stage's failing last aggregate): an iterable whose own code throws is a task failure
 * within the stage's budget (not an engine failure), an item that is not iterable goes to the discard hook (no stage
 * function owns it), and time blocked on a full output is back-pressure, not work.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class DisaggregateTest {
    /** A lazy iterable that yields {@code first}, then throws, as a shard that turns out corrupt part way. */
    private record BrokenAfterOne(int first) implements Iterable<Integer> {
        @Override
        public Iterator<Integer> iterator() {
            return new Iterator<>() {
                private int given;

                @Override
                public boolean hasNext() {
                    return true;
                }

                @Override
                public Integer next() {
                    if (given++ == 0) {
                        return first;
                    }
                    throw new NoSuchElementException("corrupt shard (test)");
                }
            };
        }
    }

    @Test
    void shouldCountAThrowingIterableAsATaskFailureAndGoOn() throws Exception {
        List<Object> parts = List.of(List.of(1, 2), new BrokenAfterOne(3), List.of(4, 5));
        List<Integer> out = new ArrayList<>();
        try (Pipeline<Integer> p = PipelineBuilder.<Object>fromIterable(parts)
                .named("lazy-parts")
                .<Integer>disaggregate()
                .build()) {
            for (Integer i; (i = p.next(Duration.ofSeconds(10))) != null; ) {
                out.add(i);
            }
            assertThat(p.stats().get(1).failures()).isEqualTo(1);
        }
        assertThat(out).containsExactly(1, 2, 3, 4, 5);
    }

    /** A random-access list whose {@code get} throws at the given indices (a view over a partly bad buffer). */
    private static final class BadIndices extends AbstractList<String> implements RandomAccess {
        private final List<String> elements;
        private final Set<Integer> bad;

        BadIndices(List<String> elements, Integer... bad) {
            this.elements = elements;
            this.bad = Set.of(bad);
        }

        @Override
        public String get(int index) {
            if (bad.contains(index)) {
                throw new IllegalStateException("element " + index + " cannot be read (test)");
            }
            return elements.get(index);
        }

        @Override
        public int size() {
            return elements.size();
        }
    }

    @Test
    void shouldDiscardTheReadableRestOfAListWhoseGetThrows() throws Exception {
        List<Object> discarded = new CopyOnWriteArrayList<>();
        List<String> out = new ArrayList<>();
        List<Object> parts = List.of(new BadIndices(List.of("a", "b", "c", "d", "e"), 1, 3), List.of("f"));
        try (Pipeline<String> p = PipelineBuilder.<Object>fromIterable(parts)
                .named("bad-get")
                .onDiscard(discarded::add)
                .<String>disaggregate()
                .build()) {
            for (String s; (s = p.next(Duration.ofSeconds(10))) != null; ) {
                out.add(s);
            }
            assertThat(p.stats().get(1).failures()).isEqualTo(1);
        }
        assertThat(out).containsExactly("a", "f");
        // each later element may own pooled memory: every one that can still be read goes to the hook
        assertThat(discarded).containsExactly("c", "e");
    }

    @Test
    void shouldDiscardTheReadableRestOfAListWhoseGetThrowsAfterAStop() throws Exception {
        List<Object> discarded = new CopyOnWriteArrayList<>();
        try (Pipeline<String> p = PipelineBuilder.<Object>fromIterable(
                        List.of(new BadIndices(List.of("a", "b", "c", "d", "e"), 3)))
                .named("bad-get-stop")
                .onDiscard(discarded::add)
                .<String>disaggregate()
                .sink(1)
                .build().start()) {
            StageStats sink = p.stats().get(2);
            while (sink.inputOccupancy() < 1) { // "a" fills the sink ring: the stage waits for room for "b"
                Thread.sleep(1);
            }
        } // close: "b" is not published; what is left of the list goes to the hook, "a" with the ring's sweep
        assertThat(discarded).containsExactlyInAnyOrder("a", "b", "c", "e");
    }

    /** A shard that cannot be opened: its iterator() throws. */
    private record Unopenable() implements Iterable<Integer> {
        @Override
        public Iterator<Integer> iterator() {
            throw new IllegalStateException("shard cannot be opened (test)");
        }
    }

    /** An iterable whose iterator() throws: nothing of it was read, so all of it is the unread rest. */
    @Test
    void shouldHandAnIterableWhoseIteratorThrowsToTheDiscardHook() throws Exception {
        assertBadPartFailsAndIsDiscarded("unopenable-part", new Unopenable());
    }

    @Test
    void shouldHandAnItemThatIsNotIterableToTheDiscardHook() throws Exception {
        assertBadPartFailsAndIsDiscarded("odd-part", "not a list");
    }

    /** Between the parts [1] and [2], {@code bad} counts one failure and goes whole to the discard hook. */
    private static void assertBadPartFailsAndIsDiscarded(String name, Object bad) throws Exception {
        List<Object> discarded = new CopyOnWriteArrayList<>();
        List<Integer> out = new ArrayList<>();
        try (Pipeline<Integer> p = PipelineBuilder.<Object>fromIterable(List.of(List.of(1), bad, List.of(2)))
                .named(name)
                .onDiscard(discarded::add)
                .<Integer>disaggregate()
                .build()) {
            for (Integer i; (i = p.next(Duration.ofSeconds(10))) != null; ) {
                out.add(i);
            }
            assertThat(p.stats().get(1).failures()).isEqualTo(1);
        }
        assertThat(out).containsExactly(1, 2);
        assertThat(discarded).containsExactly(bad);
    }

    @Test
    void shouldCountTheWaitForRoomAsBackPressureNotAsTaskTime() throws Exception {
        List<List<Integer>> parts = IntStream.range(0, 4)
                .mapToObj(k -> IntStream.range(0, 50).map(i -> k * 50 + i).boxed().toList()).toList();
        try (Pipeline<Integer> p = PipelineBuilder.fromIterable(parts)
                .named("slow-consumer")
                .<Integer>disaggregate()
                .sink(2)
                .build()) {
            int n = 0;
            for (Integer i; (i = p.next(Duration.ofSeconds(10))) != null; ) {
                Thread.sleep(2); // the consumer is the bottleneck: the stage waits for room most of the time
                n++;
            }
            assertThat(n).isEqualTo(200);
            StageStats stage = p.stats().get(1);
            long busyMs = stage.busyNanos() / 1_000_000;
            long blockedMs = stage.backPressuredNanos() / 1_000_000;
            // 200 items x >= 2 ms of consumer time: the stage waits ~400 ms for room; its own work is microseconds
            assertThat(blockedMs).as("back-pressured ms").isGreaterThan(200);
            assertThat(busyMs).as("busy ms (back-pressured %d ms)", blockedMs).isLessThan(blockedMs / 4);
        }
    }

    /** A custom aggregator whose last aggregate fails: a counted task failure; the stream still ends. */
    @Test
    void shouldCountAFailingFlushAsATaskFailureAndStillEndTheStream() throws Exception {
        List<List<Integer>> out = new ArrayList<>();
        try (Pipeline<List<Integer>> p = PipelineBuilder.fromIterable(List.of(0, 1, 2, 3, 4))
                .named("bad-flush")
                .aggregate("pairs", () -> new Aggregator<Integer, List<Integer>>() {
                    private final List<Integer> held = new ArrayList<>();

                    @Override
                    public List<Integer> add(Integer item) {
                        held.add(item);
                        if (held.size() < 2) {
                            return null;
                        }
                        List<Integer> pair = List.copyOf(held);
                        held.clear();
                        return pair;
                    }

                    @Override
                    public List<Integer> flush() {
                        throw new IllegalStateException("cannot finish the last pair (test)");
                    }
                }, StageOptions.defaults())
                .build()) {
            for (List<Integer> pair; (pair = p.next(Duration.ofSeconds(10))) != null; ) {
                out.add(pair);
            }
            assertThat(p.stats().get(1).failures()).isEqualTo(1);
        }
        assertThat(out).containsExactly(List.of(0, 1), List.of(2, 3));
    }
}
