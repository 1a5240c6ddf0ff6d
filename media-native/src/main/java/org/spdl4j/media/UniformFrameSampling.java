package org.spdl4j.media;

/**
 * Which frames of a clip make its sample: {@code T} frames spread evenly over the clip, frame {@code t} being the
 * middle of the {@code t}-th of {@code T} equal segments (the usual "uniform" clip sampling of video classifiers).
 * E.g. 8 of 100 frames: 6, 18, 31, 43, 56, 68, 81, 93.
 *
 * <p>Thread safe (static, pure). Allocates nothing.
 */
public final class UniformFrameSampling {
    private UniformFrameSampling() {
    }

    /**
     * Fills {@code into} with {@code into.length} frame indices spread over {@code frameCount} frames.
     *
     * @param frameCount frames in the clip, at least 1
     * @param into       receives the indices, ascending (repeats when the clip has fewer frames than asked)
     * @return {@code into}
     * @throws IllegalArgumentException when {@code frameCount} is below 1
     */
    public static long[] indices(final long frameCount, final long[] into) {
        if (frameCount < 1) {
            throw new IllegalArgumentException("a clip needs at least one frame, got " + frameCount);
        }
        final int t = into.length;
        for (int i = 0; i < t; i++) {
            into[i] = Math.min(frameCount - 1, (2L * i + 1) * frameCount / (2L * t));
        }
        return into;
    }
}
