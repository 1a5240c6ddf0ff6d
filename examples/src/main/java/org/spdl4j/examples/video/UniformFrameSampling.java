package org.spdl4j.examples.video;

/**
 * Which frames of a clip make its sample: {@code T} frames spread evenly over the clip, frame {@code t} being the
 * middle of the {@code t}-th of {@code T} equal segments (the usual "uniform" clip sampling of video classifiers).
 * Stateless; allocates nothing.
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
     */
    public static long[] indices(long frameCount, long[] into) {
        if (frameCount < 1) {
            throw new IllegalArgumentException("a clip needs at least one frame, got " + frameCount);
        }
        int t = into.length;
        for (int i = 0; i < t; i++) {
            into[i] = Math.min(frameCount - 1, (2L * i + 1) * frameCount / (2L * t));
        }
        return into;
    }
}
