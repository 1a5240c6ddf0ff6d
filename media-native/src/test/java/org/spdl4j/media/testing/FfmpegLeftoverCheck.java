package org.spdl4j.media.testing;

import org.spdl4j.media.NativeResourceCounter;
import org.spdl4j.offheap.testing.LeftoverCheck;

/**
 * Every FFmpeg object (format, I/O and codec contexts, frames, packets, scalers, resamplers) a test class allocated
 * must be freed: {@link NativeResourceCounter} back to where it was before the class. Registered as a service, so
 * {@code NoLeftoversExtension} runs it wherever media-native's test classes are on the class path.
 */
public final class FfmpegLeftoverCheck implements LeftoverCheck {
    private long baseline;

    /** Created by the service loader. */
    public FfmpegLeftoverCheck() {
    }

    @Override
    public void before() {
        baseline = NativeResourceCounter.outstanding();
    }

    @Override
    public String leftovers() {
        long now = NativeResourceCounter.outstanding();
        return now <= baseline ? null : (now - baseline) + " FFmpeg object(s) not freed: "
                + NativeResourceCounter.describe();
    }
}
