package org.spdl4j.examples.clicklog;

import static org.assertj.core.api.Assertions.assertThat;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

class PacedClickSourceTest {
    @Test
    void shouldWriteEachRowsFieldsAndScheduleAndStopAtCount() {
        PacedClickSource source = new PacedClickSource(3, 1_000_000);
        UnsafeBuffer row = new UnsafeBuffer(new byte[ClickRowDescriptor.LENGTH]);
        long lastIntended = Long.MIN_VALUE;
        for (long r = 0; r < 3; r++) {
            assertThat(source.next(row)).isTrue();
            assertThat(row.getLong(ClickRowDescriptor.ROW)).isEqualTo(r);
            assertThat(row.getLong(ClickRowDescriptor.USER)).isEqualTo(SyntheticClickLog.user(r));
            assertThat(row.getLong(ClickRowDescriptor.ITEM)).isEqualTo(SyntheticClickLog.item(r));
            assertThat(row.getInt(ClickRowDescriptor.categorical(3))).isEqualTo(SyntheticClickLog.categorical(r, 3));
            assertThat(row.getInt(ClickRowDescriptor.dense(12))).isEqualTo(SyntheticClickLog.dense(r, 12));
            assertThat(row.getInt(ClickRowDescriptor.LABEL)).isEqualTo(SyntheticClickLog.label(r));
            assertThat(row.getLong(ClickRowDescriptor.SENT_NANOS))
                    .isGreaterThanOrEqualTo(row.getLong(ClickRowDescriptor.INTENDED_NANOS));
            assertThat(row.getLong(ClickRowDescriptor.INTENDED_NANOS)).isGreaterThan(lastIntended);
            lastIntended = row.getLong(ClickRowDescriptor.INTENDED_NANOS);
        }
        assertThat(source.next(row)).isFalse();
    }

    /** The schedule follows the rate exactly: 3 M/s puts row 3,000 at 1 ms, not at 999 us (a 333 ns step). */
    @Test
    void shouldScheduleAtTheExactRate() {
        PacedClickSource source = new PacedClickSource(3_001, 3_000_000);
        UnsafeBuffer row = new UnsafeBuffer(new byte[ClickRowDescriptor.LENGTH]);
        assertThat(source.next(row)).isTrue();
        long first = row.getLong(ClickRowDescriptor.INTENDED_NANOS);
        for (int i = 1; i <= 3_000; i++) {
            assertThat(source.next(row)).isTrue();
        }
        assertThat(row.getLong(ClickRowDescriptor.INTENDED_NANOS) - first).isEqualTo(1_000_000L);
    }

    @Test
    void shouldScheduleEachRowWhenItIsSentWhenUnpaced() {
        PacedClickSource source = new PacedClickSource(2, 0);
        UnsafeBuffer row = new UnsafeBuffer(new byte[ClickRowDescriptor.LENGTH]);
        assertThat(source.next(row)).isTrue();
        assertThat(source.next(row)).isTrue();
        assertThat(row.getLong(ClickRowDescriptor.INTENDED_NANOS))
                .isEqualTo(row.getLong(ClickRowDescriptor.SENT_NANOS));
        assertThat(source.next(row)).isFalse();
    }
}
