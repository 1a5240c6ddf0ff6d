package org.spdl4j.consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.awt.Color;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.spdl4j.engine.source.tar.TestTarWriter;
import org.spdl4j.loader.SampleSource;

/** A library user's program, built against the library artifacts alone, loads a folder and a tar shard. */
class CountClassesTest {
    @TempDir
    Path dir;

    @Test
    void shouldLoadAFolderAndATarShardWithTheLibraryAlone() throws Exception {
        TestTarWriter shard = new TestTarWriter();
        for (int c = 0; c < 2; c++) {
            Path classDir = Files.createDirectories(dir.resolve("images").resolve("class" + c));
            for (int i = 0; i < 3 + c; i++) {
                byte[] jpeg = jpeg(c == 0 ? Color.RED : Color.BLUE);
                Files.write(classDir.resolve("img" + i + ".jpg"), jpeg);
                shard.add("s" + c + i + ".jpg", jpeg).add("s" + c + i + ".cls", String.valueOf(c).getBytes());
            }
        }
        Files.write(Files.createDirectories(dir.resolve("shards")).resolve("train-0.tar"), shard.finish());

        assertThat(CountClasses.count(SampleSource.folder(dir.resolve("images")))).isEqualTo(Map.of(0, 3, 1, 4));
        assertThat(CountClasses.count(SampleSource.tarShards(dir.resolve("shards")))).isEqualTo(Map.of(0, 3, 1, 4));
    }

    @Test
    void shouldHaveNoExamplesOnItsClassPath() {
        assertThatThrownBy(() -> Class.forName("org.spdl4j.examples.cli.Spdl4jCommand"))
            .isInstanceOf(ClassNotFoundException.class);
        assertThatThrownBy(() -> Class.forName("picocli.CommandLine")).isInstanceOf(ClassNotFoundException.class);
    }

    private static byte[] jpeg(Color color) throws Exception {
        BufferedImage image = new BufferedImage(300, 260, BufferedImage.TYPE_INT_RGB);
        java.awt.Graphics2D g = image.createGraphics();
        g.setColor(color);
        g.fillRect(0, 0, 300, 260);
        g.dispose();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ImageIO.write(image, "jpg", out);
        return out.toByteArray();
    }
}
