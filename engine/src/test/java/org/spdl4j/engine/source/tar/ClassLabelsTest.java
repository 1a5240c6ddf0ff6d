package org.spdl4j.engine.source.tar;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.spdl4j.engine.source.CloseableIterator;
import org.spdl4j.engine.source.Sample;
import org.spdl4j.loader.SampleSource;

/** {@code .cls} members holding class names: labelled by a class list, or by the order the names are first seen. */
class ClassLabelsTest {
    @TempDir
    Path dir;

    private static byte[] text(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** Two shards: a: class01, class00, class01; b: class02, class00. */
    private List<String> shards() throws Exception {
        Path a = dir.resolve("a.tar");
        Path b = dir.resolve("b.tar");
        Files.write(a, new TestTarWriter().add("0.jpg", new byte[10]).add("0.cls", text("class01\n"))
            .add("1.jpg", new byte[10]).add("1.cls", text("class00")).add("2.jpg", new byte[10])
            .add("2.cls", text(" class01 ")).finish());
        Files.write(b, new TestTarWriter().add("3.jpg", new byte[10]).add("3.cls", text("class02"))
            .add("4.jpg", new byte[10]).add("4.cls", text("class00")).finish());
        return List.of(a.toString(), b.toString());
    }

    private static List<Integer> labels(WebDatasetSource source) {
        List<Integer> labels = new ArrayList<>();
        try (CloseableIterator<Sample> it = source.open(0, 0)) {
            while (it.hasNext()) {
                try (Sample s = it.next()) {
                    labels.add(s.label());
                }
            }
        }
        return labels;
    }

    @Test
    void shouldLabelClassNamesInTheOrderFirstSeenWithoutAList() throws Exception {
        WebDatasetSource source = WebDatasetSource.localFiles(shards());
        assertThat(labels(source)).containsExactly(0, 1, 0, 2, 1);
        assertThat(labels(source)).as("the same names keep their labels in the next epoch")
            .containsExactly(0, 1, 0, 2, 1);
    }

    @Test
    void shouldLabelByTheClassListAndWarnOncePerShardNamingTheMemberOfANameNotInIt() throws Exception {
        Path list = Files.writeString(dir.resolve("classes.txt"), "# the classes\nclass00\nclass01\n\n");
        WebDatasetSource source = WebDatasetSource.localFiles(shards()).withClassLabels(ClassLabels.read(list));
        PrintStream err = System.err;
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        System.setErr(new PrintStream(log, true, StandardCharsets.UTF_8)); // slf4j-simple writes to System.err
        List<Integer> labels;
        try {
            labels = labels(source);
        } finally {
            System.setErr(err);
        }
        assertThat(labels).containsExactly(1, 0, 1, -1, 0);
        String text = log.toString(StandardCharsets.UTF_8);
        assertThat(text).contains("b.tar': member '3.cls' ('class02') gives no label")
            .contains("add the class to the class list");
        assertThat(text.split("gives no label", -1)).hasSize(2); // once
    }

    @Test
    void shouldRefuseABadClassListAndAClassListForOtherSources() throws Exception {
        assertThatThrownBy(() -> ClassLabels.of(List.of("a", "b", "a"))).hasMessageContaining("'a' is given twice");
        Path empty = Files.writeString(dir.resolve("empty.txt"), "\n# nothing\n");
        assertThatThrownBy(() -> ClassLabels.read(empty)).hasMessageContaining(empty + ": no class name");
        Files.createDirectories(dir.resolve("f/c"));
        Files.write(dir.resolve("f/c/x.jpg"), new byte[1]);
        assertThatThrownBy(() -> SampleSource.folder(dir.resolve("f")).classes(List.of("c")))
            .isInstanceOf(IllegalStateException.class).hasMessageContaining("tar shards");
        assertThat(SampleSource.tarShards(Path.of(shards().get(0))).classes(List.of("class00"))).isNotNull();
    }
}
