package org.spdl4j.examples.classify;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.spdl4j.engine.source.FolderDataset;

/** The shard writer's names and header numbers are ASCII whatever the JVM's default locale. */
class TarShardWriterTest {
    @TempDir
    Path dir;

    @Test
    void shouldNameShardsAndMembersInAsciiDigitsWhenTheDefaultLocaleWritesOtherDigits() throws Exception {
        Path images = Files.createDirectories(dir.resolve("img/cls"));
        for (int i = 0; i < 3; i++) {
            Files.write(images.resolve(i + ".JPG"), new byte[] {(byte) 0xFF, (byte) 0xD8, (byte) i});
        }
        FolderDataset dataset = FolderDataset.scan(dir.resolve("img"), Set.of("jpg"));
        assertThat(dataset.size()).isEqualTo(3);
        Locale saved = Locale.getDefault();
        Locale savedDisplay = Locale.getDefault(Locale.Category.DISPLAY);
        Locale savedFormat = Locale.getDefault(Locale.Category.FORMAT);
        List<Path> shards;
        Locale.setDefault(Locale.forLanguageTag("ar-EG"));
        try {
            assertThat(String.format("%08d", 1)).as("the locale formats other digits, else this proves nothing")
                .isNotEqualTo("00000001");
            shards = TarShardWriter.write(dataset, dir.resolve("tar"), 8);
        } finally {
            Locale.setDefault(saved);
            Locale.setDefault(Locale.Category.DISPLAY, savedDisplay);
            Locale.setDefault(Locale.Category.FORMAT, savedFormat);
        }
        assertThat(shards).extracting(p -> p.getFileName().toString()).containsExactly("shard-000000.tar");
        assertThat(memberNames(Files.readAllBytes(shards.get(0)))).containsExactly("00000000.jpg", "00000000.cls",
            "00000001.jpg", "00000001.cls", "00000002.jpg", "00000002.cls");
    }

    /** The member names of a ustar archive, in order (sizes read from the octal header field). */
    private static List<String> memberNames(byte[] tar) {
        List<String> names = new ArrayList<>();
        int at = 0;
        while (at + 512 <= tar.length && tar[at] != 0) {
            int end = at;
            while (end < at + 100 && tar[end] != 0) {
                end++;
            }
            names.add(new String(tar, at, end - at, StandardCharsets.US_ASCII));
            String size = new String(tar, at + 124, 11, StandardCharsets.US_ASCII);
            assertThat(size).matches("[0-7]{11}");
            at += 512 + (int) ((Long.parseLong(size, 8) + 511) / 512 * 512);
        }
        return names;
    }
}
