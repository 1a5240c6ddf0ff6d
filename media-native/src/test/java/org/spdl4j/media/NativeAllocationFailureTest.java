package org.spdl4j.media;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.spdl4j.offheap.testing.NoLeftoversExtension;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every native allocation a decoder or reader makes through {@link NativeAllocations} is made to fail in turn (the
 * seam returns null for it): each failure must be an error naming the input and what failed, with every native object
 * allocated before it freed.
 */
@Timeout(60)
@ExtendWith(NoLeftoversExtension.class)
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
        final int failures = failEachAllocationInTurn(wav.toString(),
                () -> AudioDecoder.decodeFile(wav, spec, MediaLimits.DEFAULT, dst.addressOffset(), spec.bytes()));
        // codec context, packet, frame, output plane pointers, two channel layouts
        assertThat(failures).as("allocations made to fail").isGreaterThanOrEqualTo(6);
    }

    @Test
    void shouldFreeEverythingAndNameTheFileWhenAVideoReaderAllocationFails() {
        final Path mp4 = dir.resolve("clip.mp4");
        FfmpegTestEncoder.video(mp4, "mpeg4", 64, 48, 4, 25, 4);
        final ImageSpec spec = ImageSpec.exact(32, 24, PixelFormat.RGB24);
        final UnsafeBuffer dst = TestImages.nativeBuffer(2 * spec.bytes());
        final int failures = failEachAllocationInTurn(mp4.toString(), () -> {
            try (SingleThreadVideoReader r = SingleThreadVideoReader.open(mp4, MediaLimits.DEFAULT)) {
                assertThat(r.readEvery(1, 2, spec, dst.addressOffset(), 2L * spec.bytes())).isEqualTo(2);
            }
        });
        // codec context, packet, two frames
        assertThat(failures).as("allocations made to fail").isGreaterThanOrEqualTo(4);
    }

    @Test
    void shouldFreeEverythingWhenAnImageDecoderAllocationFails() {
        final byte[] jpeg = TestImages.jpeg(TestImages.photo(64, 48, 5), 0.9f, false);
        final ImageSpec spec = ImageSpec.exact(32, 24, PixelFormat.RGB24);
        final UnsafeBuffer dst = TestImages.nativeBuffer(spec.bytes());
        final int failures = failEachAllocationInTurn("a new", () -> {
            try (SingleThreadImageDecoder d = new SingleThreadImageDecoder(MediaLimits.DEFAULT, true)) {
                d.decode(TestImages.offHeap(jpeg), 0, jpeg.length, "test.jpg", spec, dst, 0);
            }
        });
        // I/O descriptor, four scaler arrays, the reduced-scale decoder's frame, packet, frame
        assertThat(failures).as("allocations made to fail").isGreaterThanOrEqualTo(8);
    }

    /**
     * Runs {@code operation} with its first, second, ... allocation failing, until it runs with none failing.
     *
     * @return how many runs had an allocation fail
     */
    static int failEachAllocationInTurn(final String label, final Runnable operation) {
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
            assertThat(thrown).as("allocation %d failed", n).isNotNull().hasMessageContaining(label)
                    .hasMessageContaining("failed");
        }
    }
}
