package org.spdl4j.engine.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

class EpochIterableTest {
    /** Items are their own indices. */
    static final class Range implements IndexedDataset<Long> {
        private final long n;

        Range(long n) {
            this.n = n;
        }

        @Override
        public long size() {
            return n;
        }

        @Override
        public Long get(long index) {
            return index;
        }
    }

    private static SampledSource<Long> source(long n, long seed) {
        return SampledSource.of(new Range(n), new RankInfo(1, 3), seed, true, RemainderPolicy.DROP);
    }

    private static <T> List<T> drain(Iterable<T> it) {
        List<T> out = new ArrayList<>();
        it.forEach(out::add);
        return out;
    }

    @Test
    void shouldYieldTheNextEpochOnEachIteration() {
        EpochIterable<Long> it = EpochIterable.of(source(300, 5));
        List<Long> first = drain(it);
        assertThat(it.state()).isEqualTo(new SourceState(5, 1, 0));
        List<Long> second = drain(it);
        assertThat(first).hasSize(100);
        assertThat(second).hasSize(100).isNotEqualTo(first);
        assertThat(first).isEqualTo(drain(() -> source(300, 5).open(0, 0)));
        assertThat(second).isEqualTo(drain(() -> source(300, 5).open(1, 0)));
    }

    @Test
    void shouldResumeAfterKItemsWithExactlyTheRemainderOfTheUninterruptedRun() {
        List<Long> uninterrupted = new ArrayList<>();
        var all = EpochIterable.of(source(300, 11)).continuous(3);
        all.forEachRemaining(uninterrupted::add);
        assertThat(uninterrupted).hasSize(300);

        for (int k : new int[] {0, 1, 37, 99, 100, 101, 250, 299}) {
            EpochIterable<Long> run = EpochIterable.of(source(300, 11));
            var cursor = run.continuous(3);
            List<Long> before = new ArrayList<>();
            for (int i = 0; i < k; i++) {
                before.add(cursor.next());
            }
            String saved = run.state().encode();
            cursor.close();

            EpochIterable<Long> resumed = EpochIterable.resume(source(300, 11), SourceState.parse(saved));
            List<Long> after = new ArrayList<>();
            resumed.continuous(3).forEachRemaining(after::add);
            List<Long> joined = new ArrayList<>(before);
            joined.addAll(after);
            assertThat(after).as("k=%d", k).isEqualTo(uninterrupted.subList(k, 300));
            assertThat(joined).isEqualTo(uninterrupted);
        }
    }

    @Test
    void shouldComposeWithBatchLevelResumeAtPositionKTimesB() {
        int b = 8;
        List<Long> epoch = drain(() -> source(300, 3).open(0, 0));
        int k = 5; // the consumer took batches 1..5 in INPUT order
        SourceState state = SourceState.start(3).withPosition((long) k * b);
        List<Long> rest = drain(EpochIterable.resume(source(300, 3), state));
        assertThat(rest).isEqualTo(epoch.subList(k * b, epoch.size()));
    }

    /**
     * A state saved right after an epoch's last item (position = epoch length) resumes at the next epoch: the first
     * iterator is that epoch, not an empty remainder a repeating pipeline would take for the end of the data.
     */
    @Test
    void shouldResumeAStateSavedAtTheEndOfAnEpochAtTheNextEpoch() throws Exception {
        List<Long> epoch1 = drain(() -> source(300, 3).open(1, 0));
        EpochIterable<Long> resumed = EpochIterable.resume(source(300, 3), new SourceState(3, 0, 100));
        assertThat(drain(resumed)).isEqualTo(epoch1);
        try (org.spdl4j.engine.Pipeline<Long> p = org.spdl4j.engine.PipelineBuilder
                .repeating(EpochIterable.resume(source(300, 3), new SourceState(3, 0, 100)), null)
                .named("resume-at-end").build()) {
            List<Long> got = new ArrayList<>();
            for (int i = 0; i < 100; i++) {
                got.add(p.next(java.time.Duration.ofSeconds(10)));
            }
            assertThat(got).isEqualTo(epoch1);
        }
    }

    @Test
    void shouldRejectAStateFromAnotherSeedOrPastTheEpoch() {
        assertThatThrownBy(() -> EpochIterable.resume(source(300, 1), new SourceState(2, 0, 0)))
                .hasMessageContaining("seed");
        assertThatThrownBy(() -> EpochIterable.resume(source(300, 1), new SourceState(1, 0, 101)))
                .hasMessageContaining("past the end");
    }

    @Test
    void shouldAllowOneIteratorAtATime() {
        EpochIterable<Long> it = EpochIterable.of(source(30, 1));
        var open = it.iterator();
        open.next();
        assertThatThrownBy(it::iterator).isInstanceOf(IllegalStateException.class);
        open.close();
        assertThat(drain(it)).hasSize(9); // the rest of epoch 0 after one item
    }

    @Test
    void shouldStopAContinuousRunAtAnEmptyEpochRatherThanSpin() {
        var it = EpochIterable.of(source(2, 1)).continuous(Long.MAX_VALUE); // 2 items over 3 ranks: 0 per rank
        assertThat(it.hasNext()).isFalse();
    }
}
