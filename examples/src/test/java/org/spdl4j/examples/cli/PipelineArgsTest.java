package org.spdl4j.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.spdl4j.offheap.tensor.BatchDescriptor;
import org.spdl4j.offheap.tensor.DType;

/** The option parser's ranges are the loader's. */
class PipelineArgsTest {
    @Test
    void shouldAcceptTheLargestBatchTheLoaderTakesAndNoLarger() {
        assertThat(PipelineArgs.maxBatchSize(MediaOption.image)).isEqualTo(14266); // in the --help footer
        for (MediaOption media : MediaOption.values()) {
            int max = PipelineArgs.maxBatchSize(media);
            long[] shape;
            try (var decoder = media.decoder(false)) {
                shape = decoder.sampleShape();
                DType dtype = decoder.dtype();
                assertThat(BatchDescriptor.of(max, dtype, shape).batchSize()).as(media.name()).isEqualTo(max);
                assertThatThrownBy(() -> BatchDescriptor.of(max + 1, dtype, shape)).as(media.name())
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("2 GiB");
            }
        }
    }

    @Test
    void shouldReplaceAnOldConfigWholeAndLeaveNothingElseBeside(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("my.properties");
        Files.writeString(file, "batch.size=999\nread.concurrency=7\n# an older, longer config, to be replaced whole\n");

        PipelineArgs.write(PipelineSettings.defaults(), file, "from a test");

        String text = Files.readString(file);
        assertThat(text).contains("batch.size=" + PipelineSettings.defaults().batchSize() + "\n")
            .doesNotContain("999").doesNotContain("older").endsWith("augment=false\n");
        try (Stream<Path> files = Files.list(dir)) {
            assertThat(files).as("the temporary file was moved into place").containsExactly(file);
        }
    }
}
