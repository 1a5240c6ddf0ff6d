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
import org.spdl4j.examples.slots.ExampleCommands;
import org.spdl4j.examples.slots.SlotBatchLoader;
import org.spdl4j.examples.slots.SlotLoaderOptions;
import org.spdl4j.media.ImageSpec;
import org.spdl4j.media.MediaLimits;
import org.spdl4j.media.PixelFormat;
import org.spdl4j.offheap.DirectMemoryAllocator;
import org.spdl4j.offheap.batch.Batch;
import org.spdl4j.offheap.tensor.BatchDescriptor;
import org.spdl4j.offheap.tensor.DType;

@Timeout(60)
class VideoClipExampleTest {
    private static final int FRAMES = 24;
    private static final int T = 4;

    @TempDir
    Path dir;

    @Test
    void shouldPutTheUniformlySampledFramesOfEachClipIntoItsSlot() throws Exception {
        List<Path> clips = SampleClips.ensure(dir, 6, 160, 96, FRAMES, 24);
        ImageSpec frame = ImageSpec.exact(64, 64, PixelFormat.RGB24);
        BatchDescriptor layout = BatchDescriptor.of(4, DType.U8, T, 64, 64, 3);
        List<Long> seen = new ArrayList<>();
        try (SlotBatchLoader<Path> loader = new SlotBatchLoader<>("video-test", clips, layout,
            new ClipFrameWriter(T, frame, MediaLimits.DEFAULT), p -> 0, p -> { },
            SlotLoaderOptions.defaults().withFillConcurrency(2), DirectMemoryAllocator.INSTANCE)) {
            for (Batch b : loader) {
                try (b) {
                    for (int i = 0; i < b.size(); i++) {
                        int k = (int) b.sequence(i);
                        seen.add(b.sequence(i));
                        long[] expected = UniformFrameSampling.indices(SampleClips.framesOf(k, FRAMES), new long[T]);
                        assertThat(VideoClipExample.indicesOf(b, i, frame))
                            .as("clip %d", k).isEqualTo(Arrays.toString(Arrays.stream(expected).mapToInt(x -> (int) x)
                                .toArray()));
                    }
                }
            }
            assertThat(loader.fillFailures()).isZero();
        }
        assertThat(seen).containsExactlyInAnyOrder(0L, 1L, 2L, 3L, 4L, 5L);
    }

    @Test
    void shouldSpreadFramesEvenlyAndRepeatWhenTheClipIsShort() {
        assertThat(UniformFrameSampling.indices(40, new long[4])).containsExactly(5, 15, 25, 35);
        assertThat(UniformFrameSampling.indices(2, new long[4])).containsExactly(0, 0, 1, 1);
    }

    @Test
    void shouldRunFromTheCommandLineAndCountEveryClip() throws Exception {
        SampleClips.ensure(dir, 5, 160, 96, FRAMES, 24);
        StringWriter out = new StringWriter();
        int code = ExampleCommands.execute(new VideoClipExample(), new PrintWriter(out), new PrintWriter(out),
            "--data", dir.toString(), "--frames", "3", "--size", "32", "--batch", "2");
        assertThat(code).as(out.toString()).isZero();
        assertThat(out.toString()).contains("5 clips (0 failed) in 3 batches").contains("fill");
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
