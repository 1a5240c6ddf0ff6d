package org.spdl4j.media;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Every native allocation a decoder or reader makes through {@link NativeAllocations} is made to fail in turn (the
 * seam returns null for it): each failure must be an error naming the input and what failed, with every native object
 * allocated before it freed.
 */
@Timeout(60)
class NativeAllocationFailureTest {
    @TempDir
    static Path dir;

    @AfterEach
    void disarm() {
        NativeAllocations.reset();
    }

    @Test
    void shouldFreeEverythingAndNameTheFileWhenAnAudioDecodeAllocationFails() throws IOException {
        final Path wav = dir.resolve("tones.wav");
        Files.write(wav, AudioDecoderTest.wav(8_000, 0.25));
        final AudioSpec spec = new AudioSpec(16_000, 1, false, 8_000);
        final UnsafeBuffer dst = TestImages.nativeBuffer((int) spec.bytes());
        final int failures = failEachAllocationInTurn(List.of(wav.toString()),
                () -> AudioDecoder.decodeFile(wav, spec, MediaLimits.DEFAULT, dst.addressOffset(), spec.bytes()));
        // the file's options, codec context, packet, frame, output plane pointers, two channel layouts
        assertThat(failures).as("allocations made to fail").isGreaterThanOrEqualTo(7);
    }

    @Test
    void shouldFreeEverythingAndNameTheFileWhenAVideoReaderAllocationFails() {
        final Path mp4 = dir.resolve("clip.mp4");
        FfmpegTestEncoder.video(mp4, "mpeg4", 64, 48, 4, 25, 4);
        final ImageSpec spec = ImageSpec.exact(32, 24, PixelFormat.RGB24);
        final UnsafeBuffer dst = TestImages.nativeBuffer(2 * spec.bytes());
        final int failures = failEachAllocationInTurn(List.of(mp4.toString()), () -> {
            try (SingleThreadVideoReader r = SingleThreadVideoReader.open(mp4, MediaLimits.DEFAULT)) {
                assertThat(r.readEvery(1, 2, spec, dst.addressOffset(), 2L * spec.bytes())).isEqualTo(2);
            }
        });
        // the file's options, codec context, packet, two frames, four scaler arrays
        assertThat(failures).as("allocations made to fail").isGreaterThanOrEqualTo(9);
    }

    @Test
    void shouldFreeEverythingWhenAnImageDecoderAllocationFails() {
        final byte[] jpeg = TestImages.jpeg(TestImages.photo(64, 48, 5), 0.9f, false);
        final ImageSpec spec = ImageSpec.exact(32, 24, PixelFormat.RGB24);
        final UnsafeBuffer dst = TestImages.nativeBuffer(spec.bytes());
        final int failures = failEachAllocationInTurn(List.of("a new", "test.jpg"), () -> {
            try (SingleThreadImageDecoder d = new SingleThreadImageDecoder(MediaLimits.DEFAULT, true)) {
                d.decode(TestImages.offHeap(jpeg), 0, jpeg.length, "test.jpg", spec, dst, 0);
            }
        });
        // I/O descriptor, four scaler arrays, the reduced-scale decoder's frame, packet, frame (a JPEG goes to the
        // decoder as one packet: no input, no input options)
        assertThat(failures).as("allocations made to fail").isGreaterThanOrEqualTo(8);
    }

    /**
     * The protocol whitelist keeps a playlist-like input from opening other files or URLs: when it cannot be set
     * (av_dict_set fails), the input must not be opened without it.
     */
    @Test
    void shouldNotOpenAnInputWhoseProtocolWhitelistCouldNotBeSet() throws IOException {
        // a PNG: it goes through the demuxer (a JPEG goes to its decoder as one packet, with no input to open)
        final byte[] png = TestImages.encode(TestImages.photo(64, 48, 6), "png");
        final ImageSpec image = ImageSpec.exact(32, 24, PixelFormat.RGB24);
        final UnsafeBuffer imageDst = TestImages.nativeBuffer(image.bytes());
        try (SingleThreadImageDecoder d = new SingleThreadImageDecoder(MediaLimits.DEFAULT, false)) {
            NativeAllocations.failNth(0); // the first allocation of the decode: the options of the in-memory input
            assertThatThrownBy(() -> d.decode(TestImages.offHeap(png), 0, png.length, "memory.png", image,
                    imageDst, 0)).isInstanceOf(MediaException.class).hasMessageStartingWith("memory.png: ")
                    .hasMessageContaining("av_dict_set(protocol_whitelist)");
            assertThat(NativeAllocations.armed()).as("the failure happened").isFalse();
            d.decode(TestImages.offHeap(png), 0, png.length, "memory.png", image, imageDst, 0); // still usable
        }
        final Path wav = dir.resolve("whitelist.wav");
        Files.write(wav, AudioDecoderTest.wav(8_000, 0.25));
        final AudioSpec audio = new AudioSpec(8_000, 1, false, 4_000);
        final UnsafeBuffer audioDst = TestImages.nativeBuffer((int) audio.bytes());
        NativeAllocations.failNth(0); // the first allocation of the decode: the options of the file input
        assertThatThrownBy(() -> AudioDecoder.decodeFile(wav, audio, MediaLimits.DEFAULT, audioDst.addressOffset(),
                audio.bytes())).isInstanceOf(MediaException.class).hasMessageStartingWith(wav + ": ")
                .hasMessageContaining("av_dict_set(protocol_whitelist)");
        assertThat(NativeAllocations.armed()).as("the failure happened").isFalse();
        assertThat(NativeResourceCounter.outstanding()).as(NativeResourceCounter.describe()).isZero();
    }

    /**
     * Runs {@code operation} with its first, second, ... allocation failing, until it runs with none failing.
     *
     * @param labels each error must name one of these (the input, or the object being created)
     * @return how many runs had an allocation fail
     */
    static int failEachAllocationInTurn(final List<String> labels, final Runnable operation) {
        for (int n = 0; ; n++) {
            final long before = NativeResourceCounter.outstanding();
            NativeAllocations.failNth(n);
            Throwable thrown = null;
            try {
                operation.run();
            } catch (final OutOfMemoryError | MediaException e) {
                thrown = e;
            }
            final boolean noneFailed = NativeAllocations.armed();
            NativeAllocations.reset();
            assertThat(NativeResourceCounter.outstanding()).as("native objects left after allocation %d failed: %s",
                    n, NativeResourceCounter.describe()).isEqualTo(before);
            if (noneFailed) {
                assertThat(thrown).as("a run without failed allocations").isNull();
                return n;
            }
            assertThat(thrown).as("allocation %d failed", n).isNotNull().hasMessageContaining("failed");
            assertThat(labels).as("allocation %d failed: %s", n, thrown.getMessage())
                    .anyMatch(thrown.getMessage()::contains);
        }
    }
}
