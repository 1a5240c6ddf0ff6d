package org.spdl4j.cuda;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class SizeClassesTest {
    @Test
    void shouldPutAnImageBatchInTheFiveMebibyteClass() {
        assertThat(SizeClasses.sizeOf(32L * 224 * 224 * 3)).isEqualTo(5L << 20);
    }

    @Test
    void shouldGiveExactPowersOfTwoTheirOwnClass() {
        assertThat(SizeClasses.sizeOf(64L << 20)).isEqualTo(64L << 20);
        assertThat(SizeClasses.sizeOf(512)).isEqualTo(512);
        assertThat(SizeClasses.sizeOf(1)).isEqualTo(SizeClasses.MIN_CLASS_BYTES);
    }

    @Test
    void shouldWasteAtMostAQuarterAndMapEachClassToOneIndex() {
        SplittableRandom random = new SplittableRandom(3);
        for (int i = 0; i < 100_000; i++) {
            long bytes = 1 + random.nextLong(1L << random.nextInt(1, 50));
            long size = SizeClasses.sizeOf(bytes);
            int index = SizeClasses.indexOf(bytes);
            assertThat(size).isGreaterThanOrEqualTo(bytes);
            assertThat(size <= SizeClasses.MIN_CLASS_BYTES || size <= bytes + bytes / 4).as("%d -> %d", bytes, size).isTrue();
            assertThat(index).isBetween(0, SizeClasses.COUNT - 1);
            assertThat(SizeClasses.indexOf(size)).as("the class size is in its own class").isEqualTo(index);
            assertThat(SizeClasses.sizeOf(size)).isEqualTo(size);
        }
    }

    @Test
    void shouldOrderClassesBySize() {
        long previousSize = 0;
        int previousIndex = -1;
        for (long bytes = 1; bytes < (1L << 40); bytes = SizeClasses.sizeOf(bytes) + 1) {
            assertThat(SizeClasses.indexOf(bytes)).isEqualTo(previousIndex + 1);
            assertThat(SizeClasses.sizeOf(bytes)).isGreaterThan(previousSize);
            previousIndex = SizeClasses.indexOf(bytes);
            previousSize = SizeClasses.sizeOf(bytes);
        }
        assertThat(SizeClasses.indexOf(Long.MAX_VALUE)).isEqualTo(SizeClasses.COUNT - 1);
    }
}
