package org.spdl4j.media;

import java.nio.file.Path;
import java.util.Objects;
import org.spdl4j.offheap.batch.EncodedSample;
import org.spdl4j.offheap.batch.SlotDecoder;
import org.spdl4j.offheap.tensor.DType;

/**
 * A loader's video decode step: a clip's {@code T} uniformly sampled frames ({@link UniformFrameSampling} over the
 * frame count the header declares) straight into the sample's batch slot, a {@code [T, H, W, C]} uint8 tensor; frame
 * {@code t} is written by one scaler pass at {@code slot + t * frameSpec.bytes()}. The frames are reached by seeking
 * to the keyframe before each and decoding forward ({@link SingleThreadVideoReader}).
 *
 * <p><b>Input:</b> {@link #readsFiles()} is true: a local file is opened by its {@link EncodedSample#path()} (when
 * {@link EncodedSample#length()} is 0), so seeking reads only what it needs; bytes already in memory (a tar member, a
 * fetched URL: {@code length() > 0}) are read in place, seeking over them as over the file.
 *
 * <p><b>Threading:</b> any number of threads at once: each call opens its own demuxer, decoder and scaler (a clip needs
 * its own anyway) and frees them before it returns, on every path, so {@link #close()} has nothing to free.
 * <b>Allocation:</b> per clip, the reader's native contexts and a few small arrays (frame indices and times), none per
 * frame. <b>Ownership:</b> the sample's bytes stay the caller's, read during the call only. <b>Failures:</b>
 * {@link MediaException} naming {@link EncodedSample#key()} for input that is corrupt, not a video, over the
 * {@link MediaLimits}, without a frame count in its header, or neither in memory nor in a file.
 */
public final class VideoClipDecoder implements SlotDecoder {
    private final int frames;
    private final ImageSpec frameSpec;
    private final MediaLimits limits;

    private VideoClipDecoder(final int frames, final ImageSpec frameSpec, final MediaLimits limits) {
        this.frameSpec = Objects.requireNonNull(frameSpec, "frameSpec");
        this.limits = Objects.requireNonNull(limits, "limits");
        if (frames < 1 || frames > limits.maxFrames()) {
            throw new IllegalArgumentException("frames per clip must be 1.." + limits.maxFrames() + ": " + frames);
        }
        if (frameSpec.mode() == ResizeMode.RANDOM_RESIZED_CROP) {
            throw new IllegalArgumentException("RANDOM_RESIZED_CROP is an image transform; for video frames use EXACT,"
                    + " SHORT_SIDE_CENTER_CROP or PAD");
        }
        if ((long) frames * frameSpec.bytes() > Integer.MAX_VALUE) {
            throw new IllegalArgumentException(frames + " frames of " + frameSpec.bytes() + " bytes exceed 2 GiB");
        }
        this.frames = frames;
        FFmpeg.init();
    }

    /**
     * {@code frames} frames per clip, each decoded to {@code frameSpec}, under {@link MediaLimits#DEFAULT}: e.g.
     * {@code of(8, ImageSpec.exact(112, 112, PixelFormat.RGB24))} for {@code [8, 112, 112, 3]}.
     *
     * @param frames T, frames per clip, 1 to the limits' {@code maxFrames}
     * @param frameSpec size and pixel format of each frame; not the random crop (a per-image transform)
     * @return the decoder
     */
    public static VideoClipDecoder of(final int frames, final ImageSpec frameSpec) {
        return of(frames, frameSpec, MediaLimits.DEFAULT);
    }

    /**
     * {@code frames} frames per clip, each decoded to {@code frameSpec}, under given limits.
     *
     * @param frames T, frames per clip, 1 to {@code limits.maxFrames()}
     * @param frameSpec size and pixel format of each frame; not the random crop (a per-image transform)
     * @param limits checked against each clip's header (pixels, duration)
     * @return the decoder
     */
    public static VideoClipDecoder of(final int frames, final ImageSpec frameSpec, final MediaLimits limits) {
        return new VideoClipDecoder(frames, frameSpec, limits);
    }

    /** {@return T, frames per clip} */
    public int frames() {
        return frames;
    }

    /** {@return the size and pixel format of each frame} */
    public ImageSpec frameSpec() {
        return frameSpec;
    }

    @Override
    public DType dtype() {
        return DType.U8;
    }

    /** {@return {@code [T, height, width, channels]}, a fresh array} */
    @Override
    public long[] sampleShape() {
        return new long[] {frames, frameSpec.height(), frameSpec.width(), frameSpec.format().channels()};
    }

    /** {@return true: a local clip is opened by its path, not copied into memory first} */
    @Override
    public boolean readsFiles() {
        return true;
    }

    @Override
    public void decode(final EncodedSample sample, final long destination, final int length) {
        final String key = sample.key();
        try (SingleThreadVideoReader reader = open(sample, key)) {
            final long frameCount = reader.info().frameCount();
            if (frameCount < 1) {
                throw new MediaException(key, "frame count unknown (no duration or rate in the header)");
            }
            final long[] indices = UniformFrameSampling.indices(frameCount, new long[frames]);
            final int written = reader.readFrames(indices, frameSpec, destination, length);
            if (written != frames) {
                throw new MediaException(key, "decoded " + written + " of " + frames + " frames");
            }
        }
    }

    private SingleThreadVideoReader open(final EncodedSample sample, final String key) {
        final int bytes = sample.length();
        if (bytes > 0) {
            return SingleThreadVideoReader.open(sample.address(), bytes, key, limits);
        }
        final Path path = sample.path();
        if (path == null) {
            throw new MediaException(key, "empty input: no bytes and no local file");
        }
        return SingleThreadVideoReader.open(path, key, limits);
    }
}
