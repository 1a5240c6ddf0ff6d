package org.spdl4j.media;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Fuzzes the native decode path: valid images (JPEG, PNG, WebP, BMP), video (MPEG-4 in MP4, VP9 in WebM) and audio
 * (WAV) mutated at random (flips, truncations, splices, overwrites, duplications). Every mutant must decode or fail
 * with a {@link MediaException} naming it, within a per-item limit; the JVM must not crash (surefire's forked JVM
 * dying fails the build); FFmpeg objects all freed and resident memory flat.
 *
 * <p>Memory: each run decodes the same mutant sequence twice. The first pass reaches every high-water mark (FFmpeg
 * keeps frame pools sized to the largest frame a cached decoder saw, malloc keeps its arenas); the second pass sees
 * exactly the same inputs, so any resident growth across it is a leak.
 *
 * <p>Bounded in the default run (about 10 s on 2 cores); {@code @Tag("long")} runs 20 times more. Seeds are fixed
 * ({@code -Dspdl4j.fuzz.seed=N} to change); a failure names the iteration and saves the input under
 * {@code target/fuzz-failures/}. Each test method has a preemptive timeout, so a hang fails instead of stalling.
 */
class NativeDecodeFuzzTest {
    private static final long SEED = Long.getLong("spdl4j.fuzz.seed", 20261101L);
    private static final long PER_ITEM_MILLIS = 5_000;
    private static final long RSS_GROWTH_LIMIT_KIB = 16 * 1024;
    private static final ImageSpec IMAGE = ImageSpec.exact(32, 32, PixelFormat.RGB24);
    private static final ImageSpec FRAME = ImageSpec.exact(32, 24, PixelFormat.GRAY8);
    private static final AudioSpec AUDIO = new AudioSpec(16_000, 1, false, 16_000);
    private static final MediaLimits LIMITS = new MediaLimits(4096L * 4096, 16, 60, 1 << 20);

    @TempDir
    static Path dir;
    static List<byte[]> images;
    static List<byte[]> videos;
    static List<byte[]> audio;

    @BeforeAll
    static void encodeSeeds() throws IOException {
        images = BadImageInputTest.goodSamples().stream().map(BadImageInputTest.Sample::bytes).toList();
        Path mp4 = dir.resolve("seed.mp4");
        FfmpegTestEncoder.video(mp4, "mpeg4", 64, 48, 12, 25, 4);
        Path webm = dir.resolve("seed.webm");
        FfmpegTestEncoder.video(webm, "libvpx-vp9", 64, 48, 8, 25, 4);
        videos = List.of(Files.readAllBytes(mp4), Files.readAllBytes(webm));
        audio = List.of(AudioDecoderTest.wav(8_000, 0.25), AudioDecoderTest.wav(22_050, 0.1));
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void shouldDecodeOrRejectEveryMutatedImage() throws IOException {
        fuzzImages(10_000);
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void shouldDecodeOrRejectEveryMutatedVideo() throws IOException {
        fuzzVideos(1_500);
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void shouldDecodeOrRejectEveryMutatedAudioFile() throws IOException {
        fuzzAudio(1_500);
    }

    @Test
    @Tag("long")
    @Timeout(value = 3600, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void shouldSurviveALongFuzzOfEveryFormat() throws IOException {
        fuzzImages(200_000);
        fuzzVideos(30_000);
        fuzzAudio(30_000);
    }

    private static void fuzzImages(int iterations) throws IOException {
        UnsafeBuffer dst = new UnsafeBuffer(ByteBuffer.allocateDirect(IMAGE.bytes()));
        FuzzRun run = new FuzzRun("image", PER_ITEM_MILLIS);
        // Each input ends at an inaccessible page: reading past it (our AVIO callback, the reduced-scale JPEG decoder,
        // the sniffer) faults at once instead of reading stale bytes of a larger buffer.
        try (GuardedInput src = new GuardedInput(1 << 20);
             SingleThreadImageDecoder decoder = new SingleThreadImageDecoder(LIMITS)) {
            twoPasses(run, SEED, images, iterations, (bytes, label) -> {
                long at = src.atEnd(bytes);
                decoder.decode(at, bytes.length, label, IMAGE, dst.addressOffset(), dst.capacity());
            });
        }
        assertAllFreed(run);
    }

    private static void fuzzVideos(int iterations) throws IOException {
        UnsafeBuffer dst = new UnsafeBuffer(ByteBuffer.allocateDirect(8 * FRAME.bytes()));
        FuzzRun run = new FuzzRun("video", PER_ITEM_MILLIS);
        twoPasses(run, SEED + 1, videos, iterations, (bytes, label) -> {
            Path file = dir.resolve(label);
            Files.write(file, bytes);
            try (SingleThreadVideoReader reader = SingleThreadVideoReader.open(file, LIMITS)) {
                for (int chunk = 0; chunk < 3; chunk++) {
                    if (reader.readEvery(1, 8, FRAME, dst.addressOffset(), dst.capacity()) == 0) {
                        break;
                    }
                }
                reader.readFramesAt(new double[] {0.2, 0.0}, FRAME, dst.addressOffset(), dst.capacity());
            } finally {
                Files.delete(file);
            }
        });
        assertAllFreed(run);
    }

    private static void fuzzAudio(int iterations) throws IOException {
        UnsafeBuffer dst = new UnsafeBuffer(ByteBuffer.allocateDirect((int) AUDIO.bytes()));
        FuzzRun run = new FuzzRun("audio", PER_ITEM_MILLIS);
        twoPasses(run, SEED + 2, audio, iterations, (bytes, label) -> {
            Path file = dir.resolve(label);
            Files.write(file, bytes);
            try {
                AudioDecoder.decodeFile(file, AUDIO, LIMITS, dst.addressOffset(), dst.capacity());
            } finally {
                Files.delete(file);
            }
        });
        assertAllFreed(run);
    }

    /** Runs the same mutant sequence twice; native memory in use must not grow across the second pass. */
    private static void twoPasses(FuzzRun run, long seed, List<byte[]> seeds, int iterations, FuzzRun.Decode decode)
            throws IOException {
        long rssAfterFirstPass = 0;
        for (int pass = 0; pass < 2; pass++) {
            Mutator mutator = new Mutator(seed, seeds);
            for (int i = 0; i < iterations; i++) {
                run.check(i, mutator.next(), decode);
            }
            if (pass == 0) {
                rssAfterFirstPass = rssAfterPass();
            }
        }
        assertFlat(run, rssAfterFirstPass);
    }

    private static long rssAfterPass() throws IOException {
        return NativeHeap.footprintKib(); // native memory in use, not RSS: a growing Java heap does not count
    }

    private static void assertFlat(FuzzRun run, long rssAfterFirstPass) throws IOException {
        long growth = rssAfterPass() - rssAfterFirstPass;
        assertThat(run.problems()).as(run.summary()).isEmpty();
        assertThat(growth).as("%s over the second pass of the same inputs, KiB (%s)", NativeHeap.footprintName(),
                run.summary()).isLessThan(RSS_GROWTH_LIMIT_KIB);
        assertThat(run.rejected()).as("the mutations did break inputs: %s", run.summary()).isPositive();
    }

    private static void assertAllFreed(FuzzRun run) {
        assertThat(NativeResourceCounter.outstanding()).as("%s; %s", NativeResourceCounter.describe(), run.summary())
                .isZero();
    }
}
