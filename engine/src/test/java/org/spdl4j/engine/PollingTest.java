package org.spdl4j.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The test helper {@link Polling#awaitTrue}: it returns once its condition holds and fails the test when it never does. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class PollingTest {
    @Test
    void shouldReturnOnceAnotherThreadMakesTheConditionHold() throws Exception {
        AtomicBoolean done = new AtomicBoolean();
        Thread setter = Thread.ofPlatform().start(() -> done.set(true));
        try {
            Polling.awaitTrue("the flag set", done::get, Duration.ofSeconds(10));
            assertThat(done.get()).isTrue();
        } finally {
            setter.join();
        }
    }

    @Test
    void shouldFailNamingTheConditionWhenItNeverHolds() {
        AtomicInteger reads = new AtomicInteger();
        long start = System.nanoTime();
        assertThatThrownBy(() -> Polling.awaitTrue("the never-set flag", () -> {
            reads.incrementAndGet();
            return false;
        }, Duration.ofMillis(50)))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("the never-set flag")
                .hasMessageContaining("PT0.05S");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).as("waited out the timeout")
                .isGreaterThanOrEqualTo(Duration.ofMillis(50));
        assertThat(reads.get()).as("polled more than once").isGreaterThan(1);
    }

    @Test
    void shouldNotPollAConditionThatAlreadyHolds() throws Exception {
        AtomicInteger reads = new AtomicInteger();
        Polling.awaitTrue("already so", () -> reads.incrementAndGet() > 0, Duration.ofSeconds(10));
        assertThat(reads.get()).isEqualTo(1);
    }
}
