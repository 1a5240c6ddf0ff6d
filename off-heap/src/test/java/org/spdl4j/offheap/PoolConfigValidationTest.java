package org.spdl4j.offheap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The builder refuses what its Javadoc rules out, where it is given, naming the pool. */
class PoolConfigValidationTest {
    /**
     * The setter's Javadoc asks for "a non-negative duration", but a negative one was taken: every acquire that found
     * its class empty then failed at once with PoolExhaustedException, never waiting (a caller passing -1 for "no
     * bound", as many APIs read it, got the opposite).
     */
    @Test
    void shouldRejectANegativeAcquireTimeout() {
        assertThatThrownBy(() -> PoolConfig.builder("neg").acquireTimeout(Duration.ofMillis(-1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("pool 'neg': acquire timeout PT-0.001S must not be negative");
        assertThat(PoolConfig.builder("zero").sizeClass(64, 1).acquireTimeout(Duration.ZERO).build()
                .acquireTimeout()).isZero();
    }

    @Test
    void shouldRejectAMaxChunkThatIsNotPositive() {
        assertThatThrownBy(() -> PoolConfig.builder("chunk").maxChunkBytes(0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("pool 'chunk': max chunk bytes must be positive, got 0");
    }
}
