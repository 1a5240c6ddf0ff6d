package org.spdl4j.examples.video;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.spdl4j.examples.common.ExampleCommands;
import org.spdl4j.loader.LoadedBatch;
import org.spdl4j.loader.Loader;
import org.spdl4j.loader.SampleSource;
import org.spdl4j.media.ImageSpec;
import org.spdl4j.media.PixelFormat;
import org.spdl4j.media.UniformFrameSampling;
import org.spdl4j.media.VideoClipDecoder;
import org.spdl4j.offheap.batch.Batch;

@Timeout(60)
class VideoClipExampleTest {
    private static final int FRAMES = 24;
    private static final int T = 4;

    @TempDir
    Path dir;

    @Test
    void shouldPutTheUniformlySampledFramesOfEachClipIntoItsSlot() throws Exception {
        SampleClips.ensure(dir, 6, 160, 96, FRAMES, 24);
        ImageSpec frame = ImageSpec.exact(64, 64, PixelFormat.RGB24);
        List<Integer> seen = new ArrayList<>();
        try (Loader<Batch> loader = Loader.builder().name("video-test")
                .source(SampleSource.folder(dir, SampleSource.VIDEO_EXTENSIONS)).decoder(VideoClipDecoder.of(T, frame))
                .batchSize(4).decodeConcurrency(2).build()) {
            for (LoadedBatch<Batch> b : loader) {
                try (b) {
                    for (int i = 0; i < b.size(); i++) {
                        int k = Integer.parseInt(b.key(i).replaceAll("\\D*(\\d+)\\..*", "$1")); // clip-003.mp4: 3
                        seen.add(k);
                        long[] expected = UniformFrameSampling.indices(SampleClips.framesOf(k, FRAMES), new long[T]);
                        assertThat(VideoClipExample.indicesOf(b.data(), i, frame))
                            .as("clip %d", k).isEqualTo(Arrays.toString(Arrays.stream(expected).mapToInt(x -> (int) x)
                                .toArray()));
                    }
                }
            }
            assertThat(loader.failures()).isZero();
        }
        assertThat(seen).containsExactlyInAnyOrder(0, 1, 2, 3, 4, 5);
    }

    @Test
    void shouldRunFromTheCommandLineAndCountEveryClip() throws Exception {
        SampleClips.ensure(dir, 5, 160, 96, FRAMES, 24);
        StringWriter out = new StringWriter();
        int code = ExampleCommands.execute(new VideoClipExample(), new PrintWriter(out), new PrintWriter(out),
            "--data", dir.toString(), "--frames", "3", "--size", "32", "--batch", "2");
        assertThat(code).as(out.toString()).isZero();
        assertThat(out.toString()).contains("5 clips (0 failed) in 3 batches").contains("decode");
    }

    @Test
    void shouldRejectAMissingFolderWithOneLine() {
        StringWriter err = new StringWriter();
        int code = ExampleCommands.execute(new VideoClipExample(), new PrintWriter(new StringWriter()),
            new PrintWriter(err), "--data", dir.resolve("nope").toString());
        assertThat(code).isEqualTo(1);
        assertThat(err.toString().strip()).contains("is not a folder").doesNotContain("\n").doesNotContain("at org.");
    }
}
