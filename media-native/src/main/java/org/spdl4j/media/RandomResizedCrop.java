package org.spdl4j.media;

import org.spdl4j.offheap.batch.SampleSeeds;

/**
 * Immutable description of the training transform torchvision calls {@code RandomResizedCrop(size, scale, ratio)}
 * followed by {@code RandomHorizontalFlip(p)}: each image gets a random source rectangle, resized to the output
 * size (the aspect ratio is not kept), mirrored left to right with probability {@code flipProbability}. Used through
 * {@link ImageSpec#randomResizedCrop}; the decoder then places the crop, picks the reduced JPEG scale from the
 * crop's own downscale factor and mirrors the destination rows in place.
 *
 * <p><b>The choice</b> (torchvision's algorithm): up to {@value #TRIES} tries of an area fraction uniform in
 * {@code [minScale, maxScale]} and an aspect ratio (w/h) log-uniform in {@code [minRatio, maxRatio]}; the first whose
 * rounded {@code w x h} fits inside the image is placed uniformly at random. If none fits, the fallback is the
 * centred crop of the image's own aspect ratio clamped to {@code [minRatio, maxRatio]}. Sizes round half to even, as
 * Python's {@code round}.
 *
 * <p><b>Randomness</b> comes only from the 64-bit seed given per image (see {@link SampleSeeds}): a SplitMix64 stream
 * in local variables, so the choice is a pure function of {@code (width, height, seed)}, costs no allocation and
 * shares nothing between threads. The flip is drawn first, so changing {@code flipProbability} keeps every crop.
 * The random numbers differ from torch's, so crops match torchvision's distribution, not its exact draws.
 *
 * <p>Thread safe (immutable).
 *
 * @param minScale smallest crop area as a fraction of the image area, in {@code (0, maxScale]}
 * @param maxScale largest crop area fraction, in {@code [minScale, 1]}
 * @param minRatio smallest aspect ratio (width / height), {@code > 0}
 * @param maxRatio largest aspect ratio, {@code >= minRatio}
 * @param flipProbability probability of mirroring the output left to right, in {@code [0, 1]}
 */
public record RandomResizedCrop(double minScale, double maxScale, double minRatio, double maxRatio,
                                double flipProbability) {
    /** Random draws of size and ratio before falling back to the centred crop (torchvision: 10). */
    public static final int TRIES = 10;
    private static final long GOLDEN_GAMMA = 0x9E3779B97F4A7C15L;
    private static final double UNIT = 0x1.0p-53;

    /**
     * Validates the description.
     *
     * @param minScale smallest area fraction
     * @param maxScale largest area fraction
     * @param minRatio smallest aspect ratio
     * @param maxRatio largest aspect ratio
     * @param flipProbability probability of a mirrored output
     */
    public RandomResizedCrop {
        if (!(minScale > 0 && minScale <= maxScale && maxScale <= 1)) {
            throw new IllegalArgumentException("scale range [" + minScale + ", " + maxScale
                    + "] must satisfy 0 < min <= max <= 1");
        }
        if (!(minRatio > 0 && minRatio <= maxRatio && Double.isFinite(maxRatio))) {
            throw new IllegalArgumentException("ratio range [" + minRatio + ", " + maxRatio
                    + "] must satisfy 0 < min <= max < infinity");
        }
        if (!(flipProbability >= 0 && flipProbability <= 1)) {
            throw new IllegalArgumentException("flipProbability must be in [0, 1]: " + flipProbability);
        }
    }

    /** {@return ImageNet training's defaults: scale [0.08, 1], ratio [3/4, 4/3], horizontal flip with p = 0.5} */
    public static RandomResizedCrop imagenet() {
        return new RandomResizedCrop(0.08, 1.0, 3.0 / 4.0, 4.0 / 3.0, 0.5);
    }

    /**
     * Same crop ranges with another flip probability (0: never mirror, 1: always).
     *
     * @param p probability of mirroring, in {@code [0, 1]}
     * @return a new description
     */
    public RandomResizedCrop withFlipProbability(final double p) {
        return new RandomResizedCrop(minScale, maxScale, minRatio, maxRatio, p);
    }

    /**
     * The crop chosen for a {@code width x height} image and a seed: what the decoder uses, as a value.
     * Allocates the result; the decoder itself uses the allocation-free form.
     *
     * @param width source width in pixels (the full-size image, before any reduced-scale decode)
     * @param height source height in pixels
     * @param seed the image's seed
     * @return the rectangle and flip
     */
    public CropRect choose(final int width, final int height, final long seed) {
        final ScalePlan plan = new ScalePlan();
        choose(width, height, seed, plan);
        return new CropRect(plan.cropX, plan.cropY, plan.cropW, plan.cropH, plan.flip, plan.cropFallback);
    }

    /**
     * Chooses the crop into {@code plan}'s crop fields. No allocation.
     *
     * @param width source width
     * @param height source height
     * @param seed the image's seed
     * @param plan receives the crop
     */
    void choose(final int width, final int height, final long seed, final ScalePlan plan) {
        if (width <= 0 || height <= 0) {
            throw new IllegalArgumentException("source size " + width + "x" + height + " must be positive");
        }
        long state = seed; // SplitMix64: the state advances by the golden gamma, each output is mix64(state)
        state += GOLDEN_GAMMA;
        final boolean flip = unit(state) < flipProbability;
        final double area = (double) width * height;
        final double logMin = Math.log(minRatio);
        final double logMax = Math.log(maxRatio);
        for (int t = 0; t < TRIES; t++) {
            state += GOLDEN_GAMMA;
            final double targetArea = area * (minScale + (maxScale - minScale) * unit(state));
            state += GOLDEN_GAMMA;
            final double ratio = Math.exp(logMin + (logMax - logMin) * unit(state));
            final long w = (long) Math.rint(Math.sqrt(targetArea * ratio));
            final long h = (long) Math.rint(Math.sqrt(targetArea / ratio));
            if (w > 0 && w <= width && h > 0 && h <= height) {
                state += GOLDEN_GAMMA;
                final int y = below(state, height - (int) h + 1);
                state += GOLDEN_GAMMA;
                final int x = below(state, width - (int) w + 1);
                plan.setCrop(x, y, (int) w, (int) h, flip, false);
                return;
            }
        }
        final double inRatio = (double) width / height;
        long w = width;
        long h = height;
        if (inRatio < minRatio) {
            h = Math.max(1, Math.min(height, (long) Math.rint(width / minRatio)));
        } else if (inRatio > maxRatio) {
            w = Math.max(1, Math.min(width, (long) Math.rint(height * maxRatio)));
        }
        plan.setCrop((int) ((width - w) / 2), (int) ((height - h) / 2), (int) w, (int) h, flip, true);
    }

    /** A uniform double in [0, 1) from the stream state: its top 53 mixed bits. */
    private static double unit(final long state) {
        return (SampleSeeds.mix64(state) >>> 11) * UNIT;
    }

    /** A uniform int in [0, n), n >= 1: 31 mixed bits scaled by n (bias below 2^-31 * n, immaterial here). */
    private static int below(final long state, final int n) {
        return (int) (((SampleSeeds.mix64(state) >>> 33) * n) >>> 31);
    }
}
