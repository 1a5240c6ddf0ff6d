package org.spdl4j.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.spdl4j.engine.source.FolderDataset;
import org.spdl4j.examples.audio.SampleTones;
import org.spdl4j.examples.classify.TarShardWriter;
import org.spdl4j.examples.video.SampleClips;
import org.spdl4j.loader.SampleSource;

/** {@code run --media video|audio}: folders and tar shards of clips through the video and audio decoders. */
@Timeout(120)
class MediaRunTest {
    @TempDir
    Path work;

    @Test
    void shouldLoadAFolderAndTarShardsOfVideoClips() throws Exception {
        Path clips = work.resolve("clips");
        SampleClips.ensure(clips, 5, 160, 96, 24, 24);
        CommandLineTest.Run r = RunResumeTest.run("run", "--media", "video", "--data", clips.toString(),
            "--batch-size", "2", "--no-progress");
        assertThat(r.status()).as(r.out() + r.err()).isZero();
        assertThat(r.out()).contains("5 clips x 1 epoch(s)", "files opened by the decoder",
            "video: 8 frames per clip at 112x112 RGB", "throughput: 5 clips in 3 batches", "clips/s",
            "0 failed to read or decode");

        Path shards = Files.createDirectories(work.resolve("clip-shards"));
        TarShardWriter.write(FolderDataset.scanFlat(clips, SampleSource.VIDEO_EXTENSIONS), shards, 3);
        CommandLineTest.Run t = RunResumeTest.run("run", "--media", "video", "--data", shards.toString(),
            "--batch-size", "2", "--epochs", "2", "--device", "host", "--no-progress");
        assertThat(t.status()).as(t.out() + t.err()).isZero();
        assertThat(t.out()).contains("2 tar shard(s)", "throughput: 10 clips in 5 batches", "0 failed to read or decode");
    }

    @Test
    void shouldLoadAFolderOfAudioClips() throws Exception {
        Path tones = work.resolve("tones");
        SampleTones.ensure(tones, 4);
        CommandLineTest.Run r = RunResumeTest.run("run", "--media", "audio", "--data", tones.toString(),
            "--batch-size", "3", "--no-progress", "--keys", work.resolve("keys.txt").toString());
        assertThat(r.status()).as(r.out() + r.err()).isZero();
        assertThat(r.out()).contains("audio: 1 s at 16000 Hz mono", "throughput: 4 clips in 2 batches",
            "0 failed to read or decode");
        assertThat(Files.readAllLines(work.resolve("keys.txt"))).hasSize(4)
            .allSatisfy(l -> assertThat(l).matches("tone-00[0-3]\\.wav\t-1"));
    }

    @Test
    void shouldRefuseTheImageTransformAndTheImageSampleForClips() throws Exception {
        Path tones = work.resolve("tones");
        SampleTones.ensure(tones, 1);
        CommandLineTest.Run augment = RunResumeTest.run("run", "--media", "audio", "--data", tones.toString(),
            "--augment");
        assertThat(augment.status()).isEqualTo(Spdl4jCommand.EXIT_USAGE);
        assertThat(augment.err()).startsWith("spdl4j: --augment is the image training transform");

        CommandLineTest.Run sample = RunResumeTest.run("run", "--media", "video");
        assertThat(sample.status()).isEqualTo(Spdl4jCommand.EXIT_USAGE);
        assertThat(sample.err()).startsWith("spdl4j: --media video needs --data");

        CommandLineTest.Run none = RunResumeTest.run("run", "--media", "video", "--data", tones.toString());
        assertThat(none.status()).isEqualTo(Spdl4jCommand.EXIT_USAGE);
        assertThat(none.err()).contains("no clips (avi, mkv, mov, mp4, webm) in it");
    }
}
