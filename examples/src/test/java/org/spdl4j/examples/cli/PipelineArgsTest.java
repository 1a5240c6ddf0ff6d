package org.spdl4j.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.spdl4j.examples.image.ImageLoaderOptions;
import org.spdl4j.media.RandomResizedCrop;
import org.spdl4j.offheap.tensor.BatchDescriptor;
import org.spdl4j.offheap.tensor.DType;
import org.spdl4j.offheap.tensor.ImageLayout;

/** The option parser's ranges are the pipeline's. */
class PipelineArgsTest {
    @Test
    void shouldAcceptTheLargestBatchTheLoaderTakesAndNoLarger() {
        for (ImageLoaderOptions o : new ImageLoaderOptions[] {ImageLoaderOptions.defaults(),
                ImageLoaderOptions.defaults().withAugmentation(RandomResizedCrop.imagenet(), 1)}) {
            int max = PipelineArgs.maxBatchSize(o);
            assertThat(max).isEqualTo(14266); // in the --help footer
            assertThat(BatchDescriptor.images(max, ImageLayout.NHWC, o.cropSize(), o.cropSize(), 3, DType.U8)
                .batchSize()).isEqualTo(max);
            assertThatThrownBy(() -> BatchDescriptor.images(max + 1, ImageLayout.NHWC, o.cropSize(), o.cropSize(), 3,
                DType.U8)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("exceeds 2 GiB");
        }
    }

    @Test
    void shouldReplaceAnOldConfigWholeAndLeaveNothingElseBeside(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("my.properties");
        Files.writeString(file, "batch.size=999\nread.concurrency=7\n# an older, longer config, to be replaced whole\n");

        PipelineArgs.write(ImageLoaderOptions.defaults(), file, "from a test");

        String text = Files.readString(file);
        assertThat(text).contains("batch.size=" + ImageLoaderOptions.defaults().batchSize() + "\n")
            .doesNotContain("999").doesNotContain("older").endsWith("augment=false\n");
        try (Stream<Path> files = Files.list(dir)) {
            assertThat(files).as("the temporary file was moved into place").containsExactly(file);
        }
    }
}
