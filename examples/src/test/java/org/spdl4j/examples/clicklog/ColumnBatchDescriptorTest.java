package org.spdl4j.examples.clicklog;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ColumnBatchDescriptorTest {
    @ParameterizedTest
    @ValueSource(ints = {1, 7, 16, 1024})
    void shouldLayColumnsOneAfterAnotherEachOnACacheLine(int batchSize) {
        long end = 0;
        for (int c = 0; c < ColumnBatchDescriptor.COLUMNS; c++) {
            long at = ColumnBatchDescriptor.columnOffset(c, batchSize);
            assertThat(at % ColumnBatchDescriptor.ALIGNMENT).as("column %d", c).isZero();
            assertThat(at).as("column %d starts after the one before ends", c).isGreaterThanOrEqualTo(end);
            end = at + (long) ColumnBatchDescriptor.width(c) * batchSize;
        }
        assertThat(ColumnBatchDescriptor.batchBytes(batchSize)).isGreaterThanOrEqualTo(end)
                .isLessThan(end + ColumnBatchDescriptor.ALIGNMENT);
        assertThat(ColumnBatchDescriptor.batchBytes(batchSize) % ColumnBatchDescriptor.ALIGNMENT).isZero();
    }

    @ParameterizedTest
    @ValueSource(ints = {1024})
    void shouldHoldTwentyOneColumns(int batchSize) {
        assertThat(ColumnBatchDescriptor.COLUMNS).isEqualTo(21);
        assertThat(ColumnBatchDescriptor.batchBytes(batchSize)).isEqualTo(8L * batchSize + 20L * 4 * batchSize);
    }
}
