package org.spdl4j.media;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.spdl4j.offheap.batch.EncodedSample;
import org.spdl4j.offheap.batch.SlotDecoder;
import org.spdl4j.offheap.tensor.DType;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * The video decode step of a loader: T uniformly sampled frames of a clip in its slot, the right frames (each test
 * clip draws its frame index as 8 black/white bands), the same whether the clip is a local file or its bytes in
 * memory (MP4, WebM and MPEG-TS, whose seeks read the bytes back and forth), and, through {@link SlotDecoderContract},
 * bad input named by its key and no native leftovers.
 */
@Timeout(120)
class VideoClipDecoderTest extends SlotDecoderContract {
    private static final int W = 160;
    private static final int H = 96;
    private static final int FPS = 25;
    private static final int T = 8;
    private static final ImageSpec FRAME = ImageSpec.exact(W, H, PixelFormat.RGB24);

    @TempDir
    static Path dir;
    /** 300 frames (12 s) in GOPs of 12: sampled frames are 1.5 s apart, so reaching each takes a seek. */
    static Path mp4;
    static Path webm;
    static Path ts;
    static byte[] mp4Bytes;

    @BeforeAll
    static void encodeClips() throws IOException {
        mp4 = dir.resolve("index.mp4");
        FfmpegTestEncoder.video(mp4, "mpeg4", W, H, 300, FPS, 12);
        webm = dir.resolve("index.webm");
        FfmpegTestEncoder.video(webm, "libvpx-vp9", W, H, 80, FPS, 12);
        ts = dir.resolve("index.ts");
        FfmpegTestEncoder.video(ts, "mpeg2video", W, H, 150, FPS, 30);
        mp4Bytes = Files.readAllBytes(mp4);
    }

    @Override
    SlotDecoder newDecoder() {
        return VideoClipDecoder.of(T, FRAME);
    }

    @Override
    byte[] goodInput() {
        return mp4Bytes;
    }

    @Override
    byte[][] badInputs() {
        final byte[] random = new byte[mp4Bytes.length];
        new java.util.Random(5).nextBytes(random);
        return new byte[][] {Arrays.copyOf(mp4Bytes, mp4Bytes.length / 2), Arrays.copyOf(mp4Bytes, 64), random,
            AudioDecoderTest.wav(16_000, 0.5)};
    }

    private static Path clip(final String ext) {
        return switch (ext) {
            case "mp4" -> mp4;
            case "webm" -> webm;
            default -> ts;
        };
    }

    private static byte[] decode(final SlotDecoder d, final EncodedSample sample) {
        final int bytes = slotBytes(d);
        final UnsafeBuffer slot = fencedSlot(bytes);
        d.decode(sample, slot.addressOffset(), bytes);
        return TestImages.bytes(slot, bytes);
    }

    private static int[] frameIndices(final byte[] clip, final int frames, final ImageSpec spec) {
        final int[] out = new int[frames];
        for (int t = 0; t < frames; t++) {
            out[t] = FfmpegTestEncoder.frameIndex(clip, t * spec.bytes(), spec.width(), spec.height(),
                    spec.format().channels());
        }
        return out;
    }

    /** {@return the frames uniform sampling picks from the clip's declared frame count, each mod 256} */
    private static int[] expectedIndices(final Path clip, final int frames) {
        final long count;
        try (SingleThreadVideoReader r = SingleThreadVideoReader.open(clip, MediaLimits.DEFAULT)) {
            count = r.info().frameCount();
        }
        return Arrays.stream(UniformFrameSampling.indices(count, new long[frames])).mapToInt(i -> (int) (i % 256))
                .toArray();
    }

    @Test
    void shouldDescribeTFramesOfTheFrameSpec() {
        try (SlotDecoder d = VideoClipDecoder.of(T, FRAME)) {
            assertThat(d.dtype()).isEqualTo(DType.U8);
            assertThat(d.sampleShape()).containsExactly(T, H, W, 3);
            assertThat(d.readsFiles()).isTrue();
        }
        assertThatThrownBy(() -> VideoClipDecoder.of(0, FRAME)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> VideoClipDecoder.of(T + 1, FRAME, new MediaLimits(1 << 24, T, 60, 1 << 20)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("1.." + T);
        assertThatThrownBy(() -> VideoClipDecoder.of(T,
                ImageSpec.randomResizedCrop(64, RandomResizedCrop.imagenet(), PixelFormat.RGB24)))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @ParameterizedTest
    @ValueSource(strings = {"mp4", "webm", "ts"})
    void shouldDecodeTheSameUniformFramesFromMemoryAsFromTheFile(final String ext) throws IOException {
        final Path clip = clip(ext);
        try (SlotDecoder d = VideoClipDecoder.of(T, FRAME)) {
            final byte[] fromFile = decode(d, TestSample.file("clips/" + ext, clip));
            final byte[] fromMemory = decode(d, TestSample.inMemory("shard@" + ext, Files.readAllBytes(clip), 0));
            assertThat(frameIndices(fromFile, T, FRAME)).as("frames from the file")
                    .containsExactly(expectedIndices(clip, T));
            assertThat(fromMemory).as("frames from memory equal those from the file").isEqualTo(fromFile);
        }
    }

    @Test
    void shouldDecodeGrayFramesOfAnotherSize() {
        final ImageSpec gray = ImageSpec.exact(80, 48, PixelFormat.GRAY8);
        try (SlotDecoder d = VideoClipDecoder.of(3, gray)) {
            assertThat(d.sampleShape()).containsExactly(3, 48, 80, 1);
            final byte[] out = decode(d, TestSample.inMemory("gray", mp4Bytes, 0));
            assertThat(frameIndices(out, 3, gray)).containsExactly(expectedIndices(mp4, 3));
        }
    }

    /** A reader over bytes in memory seeks back and forth, and reopens the same bytes where a seek fails. */
    @Test
    void shouldSeekBackAndForthOverBytesInMemory() {
        final UnsafeBuffer bytes = TestImages.offHeap(mp4Bytes);
        final ImageSpec gray = ImageSpec.exact(W, H, PixelFormat.GRAY8);
        final UnsafeBuffer dst = TestImages.nativeBuffer(2 * gray.bytes());
        try (SingleThreadVideoReader r = SingleThreadVideoReader.open(bytes.addressOffset(), mp4Bytes.length, "mem",
                MediaLimits.DEFAULT)) {
            assertThat(r.info().frameCount()).isEqualTo(300);
            for (final long[] request : new long[][] {{250}, {10}, {280, 40}, {130}}) {
                r.readFrames(request, gray, dst.addressOffset(), dst.capacity());
                final byte[] out = TestImages.bytes(dst, request.length * gray.bytes());
                for (int t = 0; t < request.length; t++) {
                    assertThat(FfmpegTestEncoder.frameIndex(out, t * gray.bytes(), W, H, 1)).as("index %d", request[t])
                            .isEqualTo((int) (request[t] % 256));
                }
            }
            assertThat(r.seeks).as("seeks over the bytes").isGreaterThanOrEqualTo(4);
            r.failNextSeeks = 1; // as an input that cannot seek: back to the start by opening the bytes again
            r.readFrames(new long[] {5}, gray, dst.addressOffset(), dst.capacity());
            assertThat(FfmpegTestEncoder.frameIndex(TestImages.bytes(dst, gray.bytes()), 0, W, H, 1)).isEqualTo(5);
            assertThat(r.reopens).isEqualTo(1);
        }
    }

    @Test
    void shouldNameTheKeyOfABrokenFile() throws IOException {
        final Path broken = dir.resolve("broken.mp4");
        Files.write(broken, Arrays.copyOf(mp4Bytes, mp4Bytes.length / 2));
        try (SlotDecoder d = VideoClipDecoder.of(T, FRAME)) {
            final int bytes = slotBytes(d);
            final UnsafeBuffer slot = fencedSlot(bytes);
            final MediaException e = catchThrowableOfType(MediaException.class,
                    () -> d.decode(TestSample.file("videos/broken.mp4", broken), slot.addressOffset(), bytes));
            assertThat(e).isNotNull();
            assertThat(e.input()).isEqualTo("videos/broken.mp4");
            final MediaException missing = catchThrowableOfType(MediaException.class, () -> d.decode(
                    TestSample.file("videos/missing.mp4", dir.resolve("missing.mp4")), slot.addressOffset(), bytes));
            assertThat(missing).isNotNull();
            assertThat(missing.input()).isEqualTo("videos/missing.mp4");
        }
    }

    /**
     * A clip cut short (its header still says 300 frames, the data stops mid-stream) is not delivered as its last
     * decodable frame repeated in every later slot: the sample fails, naming the cut.
     */
    @Test
    void shouldRefuseAClipCutShortInsteadOfRepeatingItsLastFrame() throws IOException {
        final Path mkv = dir.resolve("whole.mkv");
        FfmpegTestEncoder.video(mkv, "mpeg4", W, H, 100, FPS, 12);
        final byte[] whole = Files.readAllBytes(mkv);
        final byte[] cut = Arrays.copyOf(whole, whole.length * 6 / 10 + 7); // mid-packet
        try (SlotDecoder d = newDecoder()) {
            final int bytes = T * FRAME.bytes();
            final UnsafeBuffer slot = new UnsafeBuffer(ByteBuffer.allocateDirect(bytes));
            d.decode(TestSample.inMemory("whole.mkv", whole, 0), slot.addressOffset(), bytes); // the whole clip reads
            final MediaException e = catchThrowableOfType(MediaException.class,
                    () -> d.decode(TestSample.inMemory("cut.mkv", cut, 0), slot.addressOffset(), bytes));
            assertThat(e).as("a clip cut at 60%% decoded as a sample").isNotNull();
            assertThat(e.getMessage()).contains("truncated or corrupt");
        }
    }
}
