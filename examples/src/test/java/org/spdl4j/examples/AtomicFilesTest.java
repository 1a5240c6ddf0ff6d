package org.spdl4j.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AtomicFilesTest {

    private static List<Path> list(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.toList();
        }
    }

    @Test
    void shouldWriteThroughAFileBesideTheTargetWithItsExtension(@TempDir Path dir) throws Exception {
        Path target = dir.resolve("clip-007.mp4");
        List<Path> seen = new ArrayList<>();

        AtomicFiles.write(target, tmp -> {
            seen.add(tmp);
            assertThat(Files.exists(target)).as("the target appears only once written").isFalse();
            Files.writeString(tmp, "whole");
        });

        assertThat(seen).singleElement().satisfies(tmp -> {
            assertThat(tmp.getParent()).isEqualTo(dir.toAbsolutePath());
            assertThat(tmp.getFileName().toString()).endsWith(".mp4").isNotEqualTo("clip-007.mp4");
        });
        assertThat(Files.readString(target)).isEqualTo("whole");
        assertThat(list(dir)).containsExactly(target);
    }

    @Test
    void shouldLeaveTheOldTargetAndNoTemporaryFileWhenTheWriterFails(@TempDir Path dir) throws Exception {
        Path target = dir.resolve("my.properties");
        Files.writeString(target, "batch.size=32\n");

        assertThatThrownBy(() -> AtomicFiles.write(target, tmp -> {
            Files.writeString(tmp, "batch.size=3"); // cut short
            throw new IOException("disk full");
        })).hasMessage("disk full");

        assertThat(Files.readString(target)).isEqualTo("batch.size=32\n");
        assertThat(list(dir)).containsExactly(target);
    }
}
