package org.spdl4j.examples.latency;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.spdl4j.examples.slots.ExampleCommands;

@Timeout(60)
class LatencyExampleTest {
    @Test
    void shouldDeliverEveryRecordInOrderThroughBusySpinStagesAndRecordItsLatency() {
        LatencyExample example = new LatencyExample();
        StringWriter out = new StringWriter();
        int code = ExampleCommands.execute(example, new PrintWriter(out), new PrintWriter(out), "--count", "20000",
            "--warmup", "2000", "--rate", "100000", "--ring", "64", "--wait", "BUSY_SPIN");
        assertThat(code).as(out.toString()).isZero();
        assertThat(example.received()).isEqualTo(20000);
        assertThat(example.wrong()).isZero();
        assertThat(example.fromIntended().getTotalCount()).isEqualTo(18000);
        assertThat(example.fromIntended().getMinValue()).isPositive();
        assertThat(out.toString()).contains("coordinated-omission corrected").contains("p99.9").contains("risk");
    }

    @Test
    void shouldReuseQuotesByPoolSlotAndStopAtCount() {
        PacedQuoteSource source = new PacedQuoteSource(5, 1_000_000, 4);
        Quote first = source.next();
        for (int i = 1; i < 4; i++) {
            source.next();
        }
        Quote fifth = source.next();
        assertThat(fifth).isSameAs(first);
        assertThat(fifth.id).isEqualTo(4);
        assertThat(fifth.intendedNanos - fifth.sentNanos).isLessThanOrEqualTo(0);
        assertThat(source.next()).isNull();
    }

    @Test
    void shouldComputeTheNotionalTheConsumerExpects() {
        Quote q = new Quote();
        q.id = 12345;
        assertThat(QuoteStages.risk(QuoteStages.price(q)).notional).isEqualTo(QuoteStages.expectedNotional(12345));
        assertThat(q.notional).isPositive();
    }
}
