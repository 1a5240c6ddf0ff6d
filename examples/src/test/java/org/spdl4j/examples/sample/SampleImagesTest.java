package org.spdl4j.examples.sample;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SampleImagesTest {

    /**
     * A folder left incomplete (a run cut short, no marker) is replaced whole, not written over: before the fix the
     * new images were written into it, so a reader could see the old run's half-written files and its strays.
     */
    @Test
    void shouldReplaceAnIncompleteFolderWholeAndLeaveNoTemporaryFolder(@TempDir Path home) throws IOException {
        Path dir = home.resolve("sample-12");
        Files.createDirectories(dir.resolve("cat"));
        Files.write(dir.resolve("cat").resolve("000999.jpg"), new byte[] {(byte) 0xFF, (byte) 0xD8}); // cut short

        SampleImages.ensure(dir, 12);

        assertThat(jpegs(dir)).hasSize(12).allSatisfy(p -> assertThat(ImageIO.read(p.toFile())).as("%s", p)
                .isNotNull());
        assertThat(siblings(home)).containsExactly(dir);
    }

    /** Two runs generating at once (the ranks of one node): both end with the same complete folder, nothing else. */
    @Test
    void shouldLetTwoRunsGenerateAtOnce(@TempDir Path home) throws Exception {
        Path dir = home.resolve("sample-40");

        CompletableFuture<Path> a = CompletableFuture.supplyAsync(() -> SampleImages.ensure(dir, 40),
                r -> Thread.ofPlatform().start(r));
        CompletableFuture<Path> b = CompletableFuture.supplyAsync(() -> SampleImages.ensure(dir, 40),
                r -> Thread.ofPlatform().start(r));

        assertThat(a.get()).isEqualTo(dir);
        assertThat(b.get()).isEqualTo(dir);
        assertThat(jpegs(dir)).hasSize(40).allSatisfy(p -> assertThat(ImageIO.read(p.toFile())).isNotNull());
        assertThat(siblings(home)).containsExactly(dir);
    }

    private static List<Path> jpegs(Path dir) throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(p -> p.toString().endsWith(".jpg")).toList();
        }
    }

    private static List<Path> siblings(Path home) throws IOException {
        try (Stream<Path> s = Files.list(home)) {
            return new ArrayList<>(s.toList());
        }
    }
}
