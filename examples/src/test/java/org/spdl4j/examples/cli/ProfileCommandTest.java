package org.spdl4j.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.spdl4j.engine.profile.StageProfile;
import org.spdl4j.engine.profile.StageProfiler;

/** How {@code profile} measures one stage. */
@Timeout(60)
class ProfileCommandTest {
    /**
     * A stage whose first pass is "cold" (here: it fails, so what the cold pass costs shows up as a count, not a
     * time) is passed over once, unmeasured, before the first measured level: every measured level is warm.
     */
    @Test
    void shouldWarmUpEachStageBeforeItsFirstMeasuredLevel() {
        List<Integer> items = IntStream.range(0, 24).boxed().toList();
        for (boolean blocking : new boolean[] {true, false}) {
            AtomicInteger calls = new AtomicInteger();
            Function<Integer, Integer> coldOnce = x -> {
                if (calls.incrementAndGet() <= items.size()) {
                    throw new IllegalStateException("cold: the first pass over the items");
                }
                return x;
            };
            StageProfile profile = StageProfiler.profile("s", items, coldOnce, blocking, 1, 2, 4);
            assertThat(profile.points()).extracting(StageProfile.Point::concurrency).containsExactly(1, 2, 4);
            assertThat(profile.points()).as("blocking %s: no measured level ran cold", blocking)
                .allMatch(p -> p.failures() == 0);
            assertThat(calls.get()).as("one warm-up pass and one pass per level").isEqualTo(4 * items.size());
        }
    }
}
