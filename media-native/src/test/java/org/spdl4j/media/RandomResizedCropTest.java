package org.spdl4j.media;

import org.spdl4j.offheap.batch.SampleSeeds;
import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/**
 * The crop choice as a pure function: inside the image, within the scale and ratio ranges when a draw fitted,
 * torchvision's fallback otherwise, deterministic per seed, and distributed as the algorithm implies. The expected
 * means are computed here by numerical integration of the algorithm's definition (not by running it): with
 * {@code a} the image's aspect ratio, a draw of area fraction {@code s} and ratio {@code r} fits iff
 * {@code s <= min(a / r, r / a)} (up to rounding), so with {@code p} the chance a draw fits and {@code m} the
 * expected value of {@code f(s, r)} over fitting draws, the first fit of 10 gives {@code m (1 - (1 - p)^10)} plus the
 * fallback's value times {@code (1 - p)^10}.
 */
class RandomResizedCropTest {
    private static final RandomResizedCrop IMAGENET = RandomResizedCrop.imagenet();
    private static final int SEEDS = 10_000;

    @Test
    void shouldStayInsideTheImageForAnySizeAndSeed() {
        final int[][] sizes = {{1, 1}, {2, 1}, {7, 5}, {3, 1000}, {1000, 3}, {640, 480}, {4000, 3000}, {65_000, 2}};
        for (final int[] size : sizes) {
            for (long seed = 0; seed < 2_000; seed++) {
                final CropRect c = IMAGENET.choose(size[0], size[1], SampleSeeds.of(7, 0, seed));
                assertThat(c.width()).as("%s", c).isBetween(1, size[0]);
                assertThat(c.height()).as("%s", c).isBetween(1, size[1]);
                assertThat(c.x()).as("%s", c).isBetween(0, size[0] - c.width());
                assertThat(c.y()).as("%s", c).isBetween(0, size[1] - c.height());
            }
        }
    }

    @Test
    void shouldRespectScaleAndRatioBoundsWhenADrawFits() {
        final int w = 640;
        final int h = 480;
        final double area = (double) w * h;
        int fitted = 0;
        for (long seed = 0; seed < SEEDS; seed++) {
            final CropRect c = IMAGENET.choose(w, h, seed);
            if (c.fallback()) {
                continue;
            }
            fitted++;
            // each side is a rounded real number: allow half a pixel either way
            assertThat((c.width() + 0.5) * (c.height() + 0.5)).as("%s", c).isGreaterThanOrEqualTo(0.08 * area);
            assertThat((c.width() - 0.5) * (c.height() - 0.5)).as("%s", c).isLessThanOrEqualTo(1.0 * area);
            assertThat((c.width() + 0.5) / (c.height() - 0.5)).as("%s", c).isGreaterThanOrEqualTo(3.0 / 4);
            assertThat((c.width() - 0.5) / (c.height() + 0.5)).as("%s", c).isLessThanOrEqualTo(4.0 / 3);
        }
        assertThat(fitted).as("draws that fit a 4:3 image").isGreaterThan(SEEDS * 9 / 10);
    }

    @Test
    void shouldFallBackToTheCentredCropOfTheClampedRatio() {
        final RandomResizedCrop large = new RandomResizedCrop(0.9, 1.0, 3.0 / 4, 4.0 / 3, 0);
        for (long seed = 0; seed < 100; seed++) {
            // 4:1 is wider than 4/3: no draw of 90-100% area fits; height kept, width = round(1000 * 4/3) = 1333
            assertThat(large.choose(4000, 1000, seed)).isEqualTo(new CropRect(1333, 0, 1333, 1000, false, true));
            // 1:4 is narrower than 3/4: width kept, height = round(1000 / 0.75) = 1333
            assertThat(large.choose(1000, 4000, seed)).isEqualTo(new CropRect(0, 1333, 1000, 1333, false, true));
        }
        // a 1x1 image can only be its own crop (every draw rounds to 0 or fits; either way the whole pixel)
        assertThat(IMAGENET.withFlipProbability(0).choose(1, 1, 3)).extracting(CropRect::x, CropRect::y,
                CropRect::width, CropRect::height).containsExactly(0, 0, 1, 1);
    }

    @Test
    void shouldBeDeterministicPerSeedAndVaryAcrossSeeds() {
        final Set<CropRect> distinct = new HashSet<>();
        for (long seed = 0; seed < SEEDS; seed++) {
            final CropRect c = IMAGENET.choose(1024, 768, SampleSeeds.of(42, 3, seed));
            assertThat(IMAGENET.choose(1024, 768, SampleSeeds.of(42, 3, seed))).isEqualTo(c);
            distinct.add(c);
        }
        assertThat(distinct).as("distinct crops of 10k seeds").hasSizeGreaterThan(SEEDS * 98 / 100);
    }

    @Test
    void shouldKeepTheCropWhenOnlyTheFlipProbabilityChanges() {
        for (long seed = 0; seed < 1_000; seed++) {
            final CropRect never = IMAGENET.withFlipProbability(0).choose(800, 600, seed);
            final CropRect always = IMAGENET.withFlipProbability(1).choose(800, 600, seed);
            assertThat(never.flip()).isFalse();
            assertThat(always.flip()).isTrue();
            assertThat(always).isEqualTo(new CropRect(never.x(), never.y(), never.width(), never.height(), true,
                    never.fallback()));
        }
    }

    @Test
    void shouldFlipHalfTheTime() {
        int flips = 0;
        for (long seed = 0; seed < SEEDS; seed++) {
            flips += IMAGENET.choose(500, 375, SampleSeeds.of(1, 0, seed)).flip() ? 1 : 0;
        }
        // binomial(10k, 0.5): sd 50, so +-250 is 5 sd
        assertThat(flips).isBetween(SEEDS / 2 - 250, SEEDS / 2 + 250);
    }

    @Test
    void shouldMatchTheAreaRatioAndPlacementDistributionOfTheAlgorithm() {
        for (final int[] size : new int[][] {{1000, 1000}, {640, 480}}) {
            final int w = size[0];
            final int h = size[1];
            final double[] expected = expectedMeans((double) w / h, 0.08, 1.0, 3.0 / 4, 4.0 / 3);
            double areaSum = 0;
            double logRatioSum = 0;
            double placementSum = 0;
            int fitted = 0;
            int placed = 0;
            for (long seed = 0; seed < SEEDS; seed++) {
                final CropRect c = IMAGENET.choose(w, h, SampleSeeds.of(11, 0, seed));
                areaSum += c.areaFraction(w, h);
                if (!c.fallback()) {
                    fitted++;
                    logRatioSum += Math.log((double) c.width() / c.height());
                }
                if (c.width() < w) {
                    placed++;
                    placementSum += (double) c.x() / (w - c.width());
                }
            }
            // sd of the area fraction is about 0.26: its mean over 10k seeds has sd 0.0026; 0.012 allows for that
            // and for the rounding of w and h the integration ignores
            assertThat(areaSum / SEEDS).as("mean area fraction, %dx%d", w, h).isCloseTo(expected[0], within(0.012));
            assertThat(logRatioSum / fitted).as("mean log(w/h) of fitted crops, %dx%d", w, h)
                    .isCloseTo(expected[1], within(0.01));
            assertThat(placementSum / placed).as("mean relative x, %dx%d", w, h).isCloseTo(0.5, within(0.01));
        }
    }

    /**
     * {mean area fraction, mean log ratio of fitted crops} for an image of aspect ratio {@code a} whose fallback is
     * the whole image (a within the ratio range), by a midpoint rule over (s, log r).
     */
    private static double[] expectedMeans(final double a, final double sMin, final double sMax, final double rMin,
                                          final double rMax) {
        final int n = 1000;
        final double tMin = Math.log(rMin);
        final double tMax = Math.log(rMax);
        double fit = 0;
        double areaIfFit = 0;
        double logRatioIfFit = 0;
        for (int i = 0; i < n; i++) {
            final double s = sMin + (sMax - sMin) * (i + 0.5) / n;
            for (int j = 0; j < n; j++) {
                final double t = tMin + (tMax - tMin) * (j + 0.5) / n;
                final double r = Math.exp(t);
                if (s <= Math.min(a / r, r / a)) {
                    fit++;
                    areaIfFit += s;
                    logRatioIfFit += t;
                }
            }
        }
        final double p = fit / ((double) n * n);
        final double allMissed = Math.pow(1 - p, RandomResizedCrop.TRIES);
        final double meanArea = areaIfFit / fit * (1 - allMissed) + 1.0 * allMissed;
        return new double[] {meanArea, logRatioIfFit / fit};
    }

    @Test
    void shouldGiveDistinctSeedsToDistinctSamplesAndEpochs() {
        final Set<Long> seeds = new HashSet<>();
        for (long epoch = 0; epoch < 4; epoch++) {
            for (long sample = 0; sample < 5_000; sample++) {
                seeds.add(SampleSeeds.of(0, epoch, sample));
            }
        }
        assertThat(seeds).hasSize(20_000);
        // Equal keys give equal ids whatever String instance carries them (content, not identity).
        assertThat(SampleSeeds.keyId("train/n01440764/a.JPEG"))
                .isEqualTo(SampleSeeds.keyId(new StringBuilder("train/n01440764/").append("a.JPEG").toString()))
                .isNotEqualTo(SampleSeeds.keyId("train/n01440764/b.JPEG"));
        assertThat(SampleSeeds.of(1, 0, 5)).isNotEqualTo(SampleSeeds.of(2, 0, 5));
    }

    @Test
    void shouldRejectInvalidRanges() {
        assertThatThrownBy(() -> new RandomResizedCrop(0, 1, 0.75, 1.33, 0.5)).hasMessageContaining("scale");
        assertThatThrownBy(() -> new RandomResizedCrop(0.5, 0.4, 0.75, 1.33, 0.5)).hasMessageContaining("scale");
        assertThatThrownBy(() -> new RandomResizedCrop(0.08, 1.1, 0.75, 1.33, 0.5)).hasMessageContaining("scale");
        assertThatThrownBy(() -> new RandomResizedCrop(0.08, 1, 1.5, 1.33, 0.5)).hasMessageContaining("ratio");
        assertThatThrownBy(() -> new RandomResizedCrop(0.08, 1, 0.75, 1.33, 1.5)).hasMessageContaining("flip");
        assertThatThrownBy(() -> IMAGENET.choose(0, 10, 1)).isInstanceOf(IllegalArgumentException.class);
    }
}
