package org.spdl4j.examples.clicklog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

class FeatureStagesTest {
    @Test
    void shouldNormalizeCountsByLogAndTheLogStatisticsAndMissingOnesToZero() {
        assertThat(FeatureStages.normalized(0)).isCloseTo(-FeatureStages.LOG_MEAN / FeatureStages.LOG_STD,
                within(1e-6f));
        assertThat(FeatureStages.normalized(33_000)).isCloseTo((float) ((Math.log(33_001) - 10.44) / 3.35),
                within(1e-5f));
        assertThat(FeatureStages.normalized(ClickRowDescriptor.MISSING)).isZero();
    }

    @Test
    void shouldRewriteDenseCountsAsFloatsInPlaceAndLeaveTheRestOfTheRow() {
        UnsafeBuffer row = sentRow(42);
        byte[] before = new byte[ClickRowDescriptor.LENGTH];
        row.getBytes(0, before);
        assertThat(FeatureStages.normalize(row)).isTrue();
        for (int i = 0; i < ClickRowDescriptor.DENSE_COUNT; i++) {
            assertThat(row.getFloat(ClickRowDescriptor.dense(i)))
                    .isEqualTo(FeatureStages.normalized(SyntheticClickLog.dense(42, i)));
        }
        byte[] after = new byte[ClickRowDescriptor.DENSE];
        row.getBytes(0, after);
        assertThat(after).as("every field before the dense features")
                .isEqualTo(Arrays.copyOf(before, ClickRowDescriptor.DENSE));
    }

    @Test
    void shouldHashIdsToBucketsInPlaceWithinEachTable() {
        UnsafeBuffer row = sentRow(7);
        assertThat(FeatureStages.hash(row)).isTrue();
        long user = row.getLong(ClickRowDescriptor.USER);
        assertThat(user).isEqualTo(FeatureStages.bucket(FeatureStages.USER_FIELD, SyntheticClickLog.user(7)))
                .isBetween(0L, FeatureStages.buckets(FeatureStages.USER_FIELD) - 1L);
        for (int k = 0; k < ClickRowDescriptor.CATEGORICAL_COUNT; k++) {
            assertThat(row.getInt(ClickRowDescriptor.categorical(k)))
                    .isEqualTo(FeatureStages.bucket(2 + k, SyntheticClickLog.categorical(7, k)))
                    .isBetween(0, FeatureStages.buckets(2 + k) - 1);
        }
        assertThat(row.getInt(ClickRowDescriptor.LABEL)).isEqualTo(SyntheticClickLog.label(7));
    }

    @Test
    void shouldSpreadIdsOverTheTableAndSaltEachFieldDifferently() {
        Set<Integer> buckets = new HashSet<>();
        int sameInTwoFields = 0;
        for (long id = 0; id < 1_000; id++) {
            buckets.add(FeatureStages.bucket(2, id));
            sameInTwoFields += FeatureStages.bucket(2, id) == FeatureStages.bucket(3, id) ? 1 : 0;
        }
        assertThat(buckets).as("1,000 ids into 1,024 buckets").hasSizeGreaterThan(550);
        assertThat(sameInTwoFields).isLessThan(10);
    }

    @Test
    void shouldDrawLabelsThatDependOnTheFeatures() {
        int clicks = 0;
        int popularClicks = 0;
        int popular = 0;
        for (long r = 0; r < 100_000; r++) {
            int y = SyntheticClickLog.label(r);
            clicks += y;
            if (SyntheticClickLog.item(r) < SyntheticClickLog.POPULAR_ITEMS) {
                popular++;
                popularClicks += y;
            }
        }
        assertThat(clicks / 100_000.0).isBetween(0.2, 0.5);
        assertThat((double) popularClicks / popular).as("popular items' click rate")
                .isGreaterThan(clicks / 100_000.0 + 0.1);
    }

    /** {@return row r as the source writes it (the source numbers its rows from 0)} */
    private static UnsafeBuffer sentRow(long r) {
        UnsafeBuffer row = new UnsafeBuffer(new byte[ClickRowDescriptor.LENGTH]);
        PacedClickSource source = new PacedClickSource(r + 1, 0);
        for (long i = 0; i <= r; i++) {
            source.next(row);
        }
        return row;
    }
}
