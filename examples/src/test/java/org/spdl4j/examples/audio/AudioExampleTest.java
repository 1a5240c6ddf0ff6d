package org.spdl4j.examples.audio;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.spdl4j.examples.slots.ExampleCommands;
import org.spdl4j.examples.slots.SlotBatchLoader;
import org.spdl4j.examples.slots.SlotLoaderOptions;
import org.spdl4j.media.AudioSpec;
import org.spdl4j.media.MediaLimits;
import org.spdl4j.offheap.DirectMemoryAllocator;
import org.spdl4j.offheap.batch.Batch;
import org.spdl4j.offheap.tensor.BatchDescriptor;
import org.spdl4j.offheap.tensor.DType;

@Timeout(60)
class AudioExampleTest {
    private static final int RATE = 16000;
    private static final int N = 16000;

    @TempDir
    Path dir;

    @Test
    void shouldResampleEveryToneToItsPitchAndLengthAndPadWithSilence() throws Exception {
        List<Path> files = SampleTones.ensure(dir, 6);
        BatchDescriptor layout = BatchDescriptor.of(4, DType.F32, 2, N);
        UnsafeBuffer view = new UnsafeBuffer();
        int checked = 0;
        try (SlotBatchLoader<Path> loader = new SlotBatchLoader<>("audio-test", files, layout,
            new AudioClipWriter(new AudioSpec(RATE, 2, false, N), MediaLimits.DEFAULT), p -> 0, p -> { },
            SlotLoaderOptions.defaults().withFillConcurrency(2), DirectMemoryAllocator.INSTANCE)) {
            for (Batch b : loader) {
                try (b) {
                    for (int i = 0; i < b.size(); i++) {
                        int k = (int) b.sequence(i);
                        view.wrap(b.sampleAddress(i), layout.sampleBytes());
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
