package org.spdl4j.examples.video;

import java.nio.file.Path;
import org.spdl4j.examples.slots.SlotWriter;
import org.spdl4j.media.ImageSpec;
import org.spdl4j.media.MediaException;
import org.spdl4j.media.MediaLimits;
import org.spdl4j.media.SingleThreadVideoReader;

/**
 * Decodes a clip's {@code T} uniformly sampled frames ({@link UniformFrameSampling}) straight into its batch slot,
 * a {@code [T, H, W, C]} uint8 tensor: each frame is written by one scaler pass at {@code slot + t * frameBytes}.
 *
 * <p><b>Threading:</b> any number of threads; each call opens its own {@link SingleThreadVideoReader} (a video file
 * needs its own demuxer and decoder) and closes it before returning, on every path. <b>Allocation:</b> a small index
 * array per clip (per clip, not per frame: cheap beside opening a demuxer); frames themselves go to the slot.
 */
public final class ClipFrameWriter implements SlotWriter<Path> {
    private final int frames;
    private final ImageSpec frameSpec;
    private final MediaLimits limits;

    /**
     * Creates the writer.
     *
     * @param frames    T, frames per clip
     * @param frameSpec size and pixel format of each frame
     * @param limits    checked against each clip's header
     */
    public ClipFrameWriter(int frames, ImageSpec frameSpec, MediaLimits limits) {
        this.frames = frames;
        this.frameSpec = frameSpec;
        this.limits = limits;
    }

    /** {@return bytes of one clip sample: T x H x W x C} */
    public int sampleBytes() {
        return frames * frameSpec.bytes();
    }

    @Override
    public void write(Path clip, long address, int length) {
        try (SingleThreadVideoReader reader = SingleThreadVideoReader.open(clip, limits)) {
            long frameCount = reader.info().frameCount();
            if (frameCount < 1) {
                throw new MediaException(clip.toString(), "frame count unknown (no duration or rate in the header)");
            }
            long[] indices = UniformFrameSampling.indices(frameCount, new long[frames]);
            int written = reader.readFrames(indices, frameSpec, address, length);
            if (written != frames) {
                throw new MediaException(clip.toString(), "decoded " + written + " of " + frames + " frames");
            }
        }
    }
}
