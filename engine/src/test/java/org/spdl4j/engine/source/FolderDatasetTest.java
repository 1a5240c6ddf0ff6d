package org.spdl4j.engine.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FolderDatasetTest {
    @TempDir
    Path root;

    private void write(String rel, String content) throws IOException {
        Path p = root.resolve(rel);
        Files.createDirectories(p.getParent());
        Files.writeString(p, content);
    }

    @Test
    void shouldLabelClassFoldersInSortedOrderAndWalkDeterministically() throws IOException {
        write("zebra/b.jpg", "z-b");
        write("zebra/a.JPG", "z-a");
        write("ant/sub/x.jpg", "a-x");
        write("ant/c.jpg", "a-c");
        write("ant/.hidden.jpg", "no");
        write("ant/notes.txt", "no");
        write("loose.jpg", "no");
        write(".git/x.jpg", "no");
        FolderDataset d = FolderDataset.scan(root, Set.of("jpg"));
        assertThat(d.classNames()).containsExactly("ant", "zebra");
        List<String> keys = new ArrayList<>();
        List<Integer> labels = new ArrayList<>();
        for (long i = 0; i < d.size(); i++) {
            keys.add(d.get(i).key());
            labels.add(d.get(i).label());
        }
        assertThat(keys).containsExactly("ant/c.jpg", "ant/sub/x.jpg", "zebra/a.JPG", "zebra/b.jpg");
        assertThat(labels).containsExactly(0, 0, 1, 1);
        assertThat(FolderDataset.scan(root, Set.of()).size()).isEqualTo(5); // notes.txt too
    }

    @Test
    void shouldReadFilesIntoAllocatorBuffersThatCloseGivesBack() throws IOException {
        write("cat/1.png", "pixels-1");
        CountingAllocator alloc = new CountingAllocator();
        FolderDataset d = FolderDataset.scan(root, Set.of());
        try (Sample s = new FileSampleReader(alloc).apply(d.get(0))) {
            assertThat(s.key()).isEqualTo("cat/1.png");
            assertThat(s.label()).isEqualTo(0);
            assertThat(new String(s.field("png").toByteArray(), StandardCharsets.UTF_8)).isEqualTo("pixels-1");
            assertThat(s.field("png").bytes().isDirect()).isTrue();
            assertThat(alloc.outstanding()).isEqualTo(1);
        }
        assertThat(alloc.outstanding()).isZero();
    }

    @Test
    void shouldNameTheFileThatCannotBeRead() {
        FileItem missing = new FileItem(root.resolve("nope.jpg"), "nope.jpg", 0);
        CountingAllocator alloc = new CountingAllocator();
        assertThatThrownBy(() -> new FileSampleReader(alloc).apply(missing)).isInstanceOf(UncheckedIOException.class)
                .hasMessageContaining("nope.jpg");
        assertThat(alloc.outstanding()).isZero();
    }

    @Test
    void shouldReadAFileListWithLabels() throws IOException {
        write("imgs/a.jpg", "A");
        Path list = root.resolve("list.txt");
        Files.writeString(list, "# comment\nimgs/a.jpg\t3\n\nimgs/b.jpg\n");
        FileListDataset d = FileListDataset.read(list);
        assertThat(d.size()).isEqualTo(2);
        assertThat(d.get(0)).isEqualTo(new FileItem(root.toAbsolutePath().resolve("imgs/a.jpg"), "imgs/a.jpg", 3));
        assertThat(d.get(1).label()).isEqualTo(Sample.NO_LABEL);
        Files.writeString(list, "imgs/a.jpg\tcat\n");
        assertThatThrownBy(() -> FileListDataset.read(list)).hasMessageContaining("list.txt:1");
    }
}
