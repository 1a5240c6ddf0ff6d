package org.spdl4j.examples.latency;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.spdl4j.examples.slots.ExampleCommands;

@Timeout(60)
class LatencyExampleTest {
    @Test
    void shouldDeliverEveryRecordInOrderThroughBusySpinStagesAndRecordItsLatency() {
        LatencyExample example = new LatencyExample();
        StringWriter out = new StringWriter();
        int code = ExampleCommands.execute(example, new PrintWriter(out), new PrintWriter(out), "--count", "5000",
            "--warmup", "500", "--rate", "100000", "--ring", "64", "--wait", "BUSY_SPIN");
        assertThat(code).as(out.toString()).isZero();
        assertThat(example.received()).isEqualTo(5000);
        assertThat(example.wrong()).isZero();
        assertThat(example.fromIntended().getTotalCount()).isEqualTo(4500);
        assertThat(example.fromIntended().getMinValue()).isPositive();
        assertThat(out.toString()).contains("coordinated-omission corrected").contains("p99.9").contains("risk").contains("record ring");
    }

    @Test
    void shouldStampEachRecordWithItsScheduleAndStopAtCount() {
        PacedQuoteSource source = new PacedQuoteSource(3, 1_000_000);
        UnsafeBuffer record = new UnsafeBuffer(new byte[QuoteRecord.LENGTH]);
        long lastIntended = Long.MIN_VALUE;
        for (long id = 0; id < 3; id++) {
            assertThat(source.next(record)).isTrue();
            assertThat(record.getLong(QuoteRecord.ID)).isEqualTo(id);
            assertThat(record.getLong(QuoteRecord.SENT_NANOS)).isGreaterThanOrEqualTo(
                record.getLong(QuoteRecord.INTENDED_NANOS));
            assertThat(record.getLong(QuoteRecord.INTENDED_NANOS)).isGreaterThan(lastIntended);
            lastIntended = record.getLong(QuoteRecord.INTENDED_NANOS);
        }
        assertThat(source.next(record)).isFalse();
    }

    /** The schedule follows the rate exactly: 3 M/s puts record 3,000 at 1 ms, not at 999 us (a 333 ns step). */
    @Test
    void shouldScheduleAtTheExactRate() {
        PacedQuoteSource source = new PacedQuoteSource(3_001, 3_000_000);
        UnsafeBuffer record = new UnsafeBuffer(new byte[QuoteRecord.LENGTH]);
        assertThat(source.next(record)).isTrue();
        long first = record.getLong(QuoteRecord.INTENDED_NANOS);
        for (int i = 1; i <= 3_000; i++) {
            assertThat(source.next(record)).isTrue();
        }
        assertThat(record.getLong(QuoteRecord.INTENDED_NANOS) - first).isEqualTo(1_000_000L);
    }

    @Test
    void shouldCountARecordWithAWrongResultAsWrongAndNotRecordIt() {
        LatencyRecorder recorder = new LatencyRecorder(0);
        UnsafeBuffer r = new UnsafeBuffer(new byte[QuoteRecord.LENGTH]);
        r.putLong(QuoteRecord.ID, 0);
        QuoteStages.price(r);
        QuoteStages.risk(r);
        recorder.accept(r);
        r.putLong(QuoteRecord.ID, 1);
        r.putLong(QuoteRecord.NOTIONAL, 42); // not priced: wrong
        recorder.accept(r);
        assertThat(recorder.received()).isEqualTo(1);
        assertThat(recorder.wrong()).isEqualTo(1);
        assertThat(recorder.fromIntended().getTotalCount()).isEqualTo(1);
    }

    @Test
    void shouldCountASkippedRecordOnceAndJudgeTheOnesAfterItOnTheirOwn() {
        LatencyRecorder recorder = new LatencyRecorder(0);
        UnsafeBuffer r = new UnsafeBuffer(new byte[QuoteRecord.LENGTH]);
        for (long id : new long[] {0, 1, 3, 4, 5, 5, 6}) { // 2 lost, 5 delivered twice
            r.putLong(QuoteRecord.ID, id);
            QuoteStages.price(r);
            QuoteStages.risk(r);
            recorder.accept(r);
        }
        assertThat(recorder.wrong()).as("the record after the gap and the repeat").isEqualTo(2);
        assertThat(recorder.received()).isEqualTo(5);
    }
}
