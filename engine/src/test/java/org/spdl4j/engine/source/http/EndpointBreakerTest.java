package org.spdl4j.engine.source.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.spdl4j.engine.source.http.EndpointBreaker.Admission;

class EndpointBreakerTest {
    private final AtomicReference<Instant> now = new AtomicReference<>(Instant.parse("2026-01-02T03:04:05Z"));
    private final InstantSource clock = now::get;

    private void advance(Duration d) {
        now.set(now.get().plus(d));
    }

    @Test
    void shouldOpenAfterTheThresholdOfConsecutiveFailuresAndNameTheEndpoint() {
        EndpointBreaker b = new EndpointBreaker("http://h:80", new CircuitBreakerSettings(3, Duration.ofSeconds(5)),
            clock);
        for (int i = 0; i < 2; i++) {
            assertThat(b.admit()).isEqualTo(Admission.SEND);
            b.failed(Admission.SEND, "connection refused");
        }
        assertThat(b.isOpen()).isFalse();
        b.succeeded(b.admit()); // a success in between resets the count
        for (int i = 0; i < 3; i++) {
            b.failed(b.admit(), "HTTP 503");
        }
        assertThat(b.isOpen()).isTrue();
        assertThat(b.admit()).isEqualTo(Admission.REFUSED);
        assertThat(b.describeOpen()).contains("http://h:80").contains("3 consecutive failed requests")
            .contains("since 2026-01-02T03:04:05Z").contains("HTTP 503").contains("in 5000 ms");
    }

    @Test
    void shouldLetOneTrialThroughAfterTheCoolDownAndCloseOnItsSuccess() {
        EndpointBreaker b = new EndpointBreaker("http://h:80", new CircuitBreakerSettings(1, Duration.ofSeconds(5)),
            clock);
        b.failed(b.admit(), "reset");
        advance(Duration.ofMillis(4_999));
        assertThat(b.admit()).isEqualTo(Admission.REFUSED);
        advance(Duration.ofMillis(1));
        assertThat(b.admit()).isEqualTo(Admission.TRIAL);
        assertThat(b.admit()).as("one trial at a time").isEqualTo(Admission.REFUSED);
        b.succeeded(Admission.TRIAL);
        assertThat(b.isOpen()).isFalse();
        assertThat(b.admit()).isEqualTo(Admission.SEND);
        assertThat(b.consecutiveFailures()).isZero();
    }

    @Test
    void shouldOpenForAnotherCoolDownWhenTheTrialFailsAndAllowAnotherTrialWhenOneIsAbandoned() {
        EndpointBreaker b = new EndpointBreaker("http://h:80", new CircuitBreakerSettings(1, Duration.ofSeconds(5)),
            clock);
        b.failed(b.admit(), "reset");
        advance(Duration.ofSeconds(5));
        b.failed(b.admit(), "reset again");
        advance(Duration.ofSeconds(4));
        assertThat(b.admit()).isEqualTo(Admission.REFUSED);
        advance(Duration.ofSeconds(1));
        Admission trial = b.admit();
        assertThat(trial).isEqualTo(Admission.TRIAL);
        b.abandoned(trial);
        assertThat(b.admit()).isEqualTo(Admission.TRIAL);
        assertThat(b.consecutiveFailures()).isEqualTo(2);
    }

    @Test
    void shouldKeyEndpointsBySchemeHostAndPort() {
        assertThat(EndpointBreakers.endpointOf(URI.create("HTTP://Example.org/a.jpg"))).isEqualTo("http://example.org:80");
        assertThat(EndpointBreakers.endpointOf(URI.create("https://example.org:8443/a")))
            .isEqualTo("https://example.org:8443");
        EndpointBreakers all = new EndpointBreakers(new CircuitBreakerSettings(1, Duration.ofSeconds(1)), clock);
        assertThat(all.forUri(URI.create("http://a:1/x"))).isSameAs(all.forUri(URI.create("http://a:1/y")))
            .isNotSameAs(all.forUri(URI.create("http://a:2/x")));
        assertThat(new EndpointBreakers(CircuitBreakerSettings.disabled()).forUri(URI.create("http://a:1/x"))).isNull();
        assertThatThrownBy(() -> new CircuitBreakerSettings(0, Duration.ofSeconds(1)))
            .hasMessageContaining("failureThreshold");
    }
}
