package org.spdl4j.examples.cli;

import java.util.Locale;
import java.util.Set;
import org.spdl4j.loader.SampleSource;
import org.spdl4j.media.AudioClipDecoder;
import org.spdl4j.media.AudioSpec;
import org.spdl4j.media.ImageSlotDecoder;
import org.spdl4j.media.ImageSpec;
import org.spdl4j.media.PixelFormat;
import org.spdl4j.media.VideoClipDecoder;
import org.spdl4j.offheap.batch.SlotDecoder;

/**
 * {@code spdl4j run --media}: what a sample is, hence which files a folder holds and which decoder writes each sample
 * into its batch slot. The shapes are fixed, sensible defaults (named constants below):
 * <ul>
 *   <li>{@code image}: RGB {@code [224, 224, 3]} uint8: short side 256 + centre crop 224, or with {@code --augment}
 *       RandomResizedCrop(224) + flip.</li>
 *   <li>{@code video}: {@value #VIDEO_FRAMES} frames spread evenly over each clip, each resized to
 *       {@value #VIDEO_SIZE} x {@value #VIDEO_SIZE} RGB: {@code [8, 112, 112, 3]} uint8.</li>
 *   <li>{@code audio}: {@value #AUDIO_SECONDS} s at {@value #AUDIO_RATE} Hz mono, float32 planar
 *       {@code [1, 16000]}; shorter clips padded with silence, longer ones cut.</li>
 * </ul>
 */
enum MediaOption {
    /** Images (the default). */
    image,
    /** Video clips. */
    video,
    /** Audio clips. */
    audio;

    /** The short side before the centre crop. */
    static final int SHORT_SIDE = 256;
    /** The image crop's side (either transform). */
    static final int CROP = 224;
    /** Frames per video clip. */
    static final int VIDEO_FRAMES = 8;
    /** A video frame's height and width. */
    static final int VIDEO_SIZE = 112;
    /** Audio output rate, Hz. */
    static final int AUDIO_RATE = 16_000;
    /** Audio clip length, seconds. */
    static final int AUDIO_SECONDS = 1;

    /** {@return the file extensions a folder of this media holds} */
    Set<String> extensions() {
        return switch (this) {
            case image -> SampleSource.IMAGE_EXTENSIONS;
            case video -> SampleSource.VIDEO_EXTENSIONS;
            case audio -> SampleSource.AUDIO_EXTENSIONS;
        };
    }

    /**
     * {@return a new decoder for this media, owned by the caller (a loader closes it)}
     *
     * @param augment the image training transform (only images take it)
     */
    SlotDecoder decoder(boolean augment) {
        return switch (this) {
            case image -> augment ? ImageSlotDecoder.training(CROP) : ImageSlotDecoder.evaluation(SHORT_SIDE, CROP);
            case video -> VideoClipDecoder.of(VIDEO_FRAMES, frameSpec());
            case audio -> AudioClipDecoder.of(audioSpec());
        };
    }

    /** {@return bytes of one decoded sample: the largest batch is one slab of at most 2 GiB of them} */
    long sampleBytes() {
        return switch (this) {
            case image -> (long) CROP * CROP * 3;
            case video -> (long) VIDEO_FRAMES * frameSpec().bytes();
            case audio -> audioSpec().bytes();
        };
    }

    /** {@return what one sample is called in counts: images or clips} */
    String unit() {
        return this == image ? "images" : "clips";
    }

    /** {@return what one sample is called in rates: img or clips} */
    String rateUnit() {
        return this == image ? "img" : "clips";
    }

    /**
     * {@return the transform, for the run's header line}
     *
     * @param augment the image training transform
     * @param seed    its seed
     */
    String describe(boolean augment, long seed) {
        return switch (this) {
            case image -> augment ? "augmented (random resized crop " + CROP + " + flip, seed " + seed + ")"
                : "eval transform (resize " + SHORT_SIDE + ", center crop " + CROP + ")";
            case video -> String.format(Locale.ROOT, "video: %d frames per clip at %dx%d RGB", VIDEO_FRAMES,
                VIDEO_SIZE, VIDEO_SIZE);
            case audio -> String.format(Locale.ROOT, "audio: %d s at %d Hz mono, float32", AUDIO_SECONDS, AUDIO_RATE);
        };
    }

    private static ImageSpec frameSpec() {
        return ImageSpec.exact(VIDEO_SIZE, VIDEO_SIZE, PixelFormat.RGB24);
    }

    private static AudioSpec audioSpec() {
        return new AudioSpec(AUDIO_RATE, 1, false, AUDIO_RATE * AUDIO_SECONDS);
    }
}
