package org.spdl4j.engine.loader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Arguments a loader cannot work with are refused where they are given, with a message saying what to do. */
@Timeout(60)
class DataLoaderBuilderValidationTest {
    /**
     * A zero or negative timeout was accepted, and then every {@code hasNext()} that found no batch ready at that
     * very instant threw {@link DataLoaderTimeoutException}: the loader was unusable, and nothing said why.
     */
    @Test
    void shouldRejectAZeroOrNegativeTimeout() {
        DataLoaderBuilder<Integer> b = DataLoader.from(List.of(1, 2, 3));
        assertThatThrownBy(() -> b.timeout(Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("timeout PT0S must be positive");
        assertThatThrownBy(() -> b.timeout(Duration.ofMillis(-1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("must be positive");
    }

    @Test
    void shouldAcceptAnUnboundedTimeout() {
        List<Integer> seen = new ArrayList<>();
        try (DataLoader<Integer> loader = DataLoader.from(List.of(1, 2, 3)).named("forever")
                .timeout(ChronoUnit.FOREVER.getDuration()).build()) {
            for (Integer i : loader) {
                seen.add(i);
            }
        }
        assertThat(seen).containsExactlyInAnyOrder(1, 2, 3);
    }

    /** A batch size below 1 was refused only by build(), by the aggregator, with a message naming no step. */
    @Test
    void shouldRejectABatchSizeBelowOneNamingTheStep() {
        assertThatThrownBy(() -> DataLoader.from(List.of(1, 2, 3)).preprocess(x -> x, 1).batch(-4, true))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'batch-1': batch size -4 must be at least 1");
    }
}
