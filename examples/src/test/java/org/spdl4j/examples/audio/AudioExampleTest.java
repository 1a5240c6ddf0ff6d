package org.spdl4j.examples.audio;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.spdl4j.examples.common.ExampleCommands;
import org.spdl4j.loader.LoadedBatch;
import org.spdl4j.loader.Loader;
import org.spdl4j.loader.SampleSource;
import org.spdl4j.media.AudioClipDecoder;
import org.spdl4j.media.AudioSpec;
import org.spdl4j.offheap.batch.Batch;

@Timeout(60)
class AudioExampleTest {
    private static final int RATE = 16000;
    private static final int N = 16000;

    @TempDir
    Path dir;

    @Test
    void shouldResampleEveryToneToItsPitchAndLengthAndPadWithSilence() throws Exception {
        SampleTones.ensure(dir, 6);
        AudioSpec spec = new AudioSpec(RATE, 2, false, N);
        UnsafeBuffer view = new UnsafeBuffer();
        int checked = 0;
        try (Loader<Batch> loader = Loader.builder().name("audio-test")
                .source(SampleSource.folder(dir, SampleSource.AUDIO_EXTENSIONS)).decoder(AudioClipDecoder.of(spec))
                .batchSize(4).decodeConcurrency(2).build()) {
            for (LoadedBatch<Batch> b : loader) {
                try (b) {
                    for (int i = 0; i < b.size(); i++) {
                        int k = Integer.parseInt(b.key(i).replaceAll("\\D", "")); // tone-003.wav: 3
                        view.wrap(b.data().sampleAddress(i), (int) spec.bytes());
                        for (int c = 0; c < 2; c++) { // mono sources are upmixed: both rows hold the tone
                            ToneStats t = ToneStats.of(view, c * N * Float.BYTES, N, RATE);
                            assertThat(t.pitchHz()).as("file %d ch %d", k, c)
                                .isCloseTo(SampleTones.frequencyOf(k), within(SampleTones.frequencyOf(k) * 0.03));
                            double expectedSamples = Math.min(N, SampleTones.secondsOf(k) * RATE);
                            assertThat((double) t.samples()).as("file %d length", k)
                                .isCloseTo(expectedSamples, within(RATE * 0.01));
                            assertThat(t.rms()).isGreaterThan(0.1);
                        }
                        checked++;
                    }
                }
            }
        }
        assertThat(checked).isEqualTo(6);
    }

    @Test
    void shouldRunFromTheCommandLineOnGeneratedTones() throws Exception {
        SampleTones.ensure(dir, 4);
        StringWriter out = new StringWriter();
        int code = ExampleCommands.execute(new AudioExample(), new PrintWriter(out), new PrintWriter(out),
            "--data", dir.toString(), "--batch", "3", "--seconds", "0.5");
        assertThat(code).as(out.toString()).isZero();
        assertThat(out.toString()).contains("4 files (0 failed)").contains("tone-003.wav");
    }

    @Test
    void shouldRejectZeroThreadsWithUsageExitCode() {
        StringWriter err = new StringWriter();
        int code = ExampleCommands.execute(new AudioExample(), new PrintWriter(new StringWriter()),
            new PrintWriter(err), "--threads", "0");
        assertThat(code).isEqualTo(2);
        assertThat(err.toString()).contains("--threads >= 1");
    }
}
