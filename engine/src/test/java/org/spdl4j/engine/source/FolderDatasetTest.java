package org.spdl4j.engine.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
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
    void shouldListAFlatFolderAsOneUnlabelledClassSortedByName() throws IOException {
        write("b.JPG", "b");
        write("a.jpg", "a");
        write(".hidden.jpg", "no");
        write("notes.txt", "no");
        write("sub/c.jpg", "no: a flat folder's sub-folders are not entered");
        FolderDataset d = FolderDataset.scanFlat(root, Set.of("jpg"));
        assertThat(d.classNames()).isEmpty();
        assertThat(d.size()).isEqualTo(2);
        assertThat(d.get(0)).isEqualTo(new FileItem(root.resolve("a.jpg"), "a.jpg", Sample.NO_LABEL));
        assertThat(d.get(1)).isEqualTo(new FileItem(root.resolve("b.JPG"), "b.JPG", Sample.NO_LABEL));
        assertThat(FolderDataset.scan(root, Set.of("jpg")).size()).as("scan: class sub-folders only").isEqualTo(1);
    }

    /**
     * A subset built of links (`ln -s /imagenet/train/n01440764 subset/`) keeps its files: class folders that are
     * symbolic links, and linked folders inside a class, are walked like real ones.
     */
    @Test
    void shouldFollowSymlinkedClassFoldersAndSubFolders(@TempDir Path elsewhere) throws IOException {
        Files.createDirectories(elsewhere.resolve("cats/more"));
        Files.writeString(elsewhere.resolve("cats/1.jpg"), "c1");
        Files.writeString(elsewhere.resolve("cats/more/2.jpg"), "c2");
        Files.createDirectories(elsewhere.resolve("extra"));
        Files.writeString(elsewhere.resolve("extra/3.jpg"), "d3");
        write("dogs/0.jpg", "d0");
        Files.createSymbolicLink(root.resolve("cats"), elsewhere.resolve("cats"));
        Files.createSymbolicLink(root.resolve("dogs/extra"), elsewhere.resolve("extra"));
        FolderDataset d = FolderDataset.scan(root, Set.of("jpg"));
        assertThat(d.classNames()).containsExactly("cats", "dogs");
        List<String> keys = new ArrayList<>();
        for (long i = 0; i < d.size(); i++) {
            keys.add(d.get(i).key());
        }
        assertThat(keys).containsExactly("cats/1.jpg", "cats/more/2.jpg", "dogs/0.jpg", "dogs/extra/3.jpg");
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

    /** A pool too small (or exhausted) for a file: the error names the file, as every other read error does. */
    @Test
    void shouldNameTheFileWhenNoBufferCanHoldIt() throws IOException {
        Path big = Files.write(root.resolve("big.jpg"), new byte[4096]);
        SampleAllocator refusing = new SampleAllocator() {
            @Override
            public ByteBuffer allocate(int size) {
                throw new IllegalArgumentException("pool 'tiny': " + size + " B is larger than its largest slab");
            }

            @Override
            public void release(ByteBuffer buffer) {
                throw new AssertionError("nothing was handed out");
            }
        };

        assertThatThrownBy(() -> new FileSampleReader(refusing).apply(new FileItem(big, "big.jpg", 0)))
                .hasMessageContaining(big.toString()).hasMessageContaining("larger than its largest slab");
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

    /** Class folders are walked several at once; the result is in class order, as a one-by-one walk gives it. */
    @Test
    void shouldWalkManyClassFoldersAtOnceAndKeepClassOrder() throws IOException {
        int classes = 3 * FolderDataset.SCAN_THREADS + 5;
        List<String> expected = new ArrayList<>();
        for (int c = 0; c < classes; c++) {
            String name = String.format("c%03d", c);
            for (int f = (c * 7) % 5; f >= 0; f--) { // 1 to 5 files, written in reverse order
                write(name + "/f" + f + ".jpg", name);
            }
            for (int f = 0; f <= (c * 7) % 5; f++) {
                expected.add(name + "/f" + f + ".jpg");
            }
        }
        FolderDataset d = FolderDataset.scan(root, Set.of("jpg"));

        assertThat(d.classNames()).hasSize(classes).isSorted();
        List<String> keys = new ArrayList<>();
        for (long i = 0; i < d.size(); i++) {
            FileItem item = d.get(i);
            keys.add(item.key());
            assertThat(d.classNames().get(item.label())).isEqualTo(item.key().substring(0, 4));
        }
        assertThat(keys).containsExactlyElementsOf(expected);
        // The walkers end with the scan (shut down, idle: they exit at once).
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (Thread.getAllStackTraces().keySet().stream().anyMatch(t -> t.getName().startsWith("spdl4j-folder-scan"))
                && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        assertThat(Thread.getAllStackTraces().keySet()).noneMatch(t -> t.getName().startsWith("spdl4j-folder-scan"));
    }

    /** A walk that fails in one class folder (a link cycle) fails the scan, naming the root and the cause. */
    @Test
    void shouldNameTheFailureOfOneClassFolderAmongMany() throws IOException {
        for (int c = 0; c < 2 * FolderDataset.SCAN_THREADS; c++) {
            write(String.format("c%02d/a.jpg", c), "x");
        }
        Files.createSymbolicLink(root.resolve("c05/loop"), root.resolve("c05"));

        assertThatThrownBy(() -> FolderDataset.scan(root, Set.of("jpg")))
            .isInstanceOf(UncheckedIOException.class)
            .hasMessageContaining("cannot walk dataset folder " + root)
            .hasMessageContaining("c05");
    }

    @Test
    void shouldWarnNamingWhatItLeavesOutThatIsNotARegularFile() throws Exception {
        Path odd = root.resolve("odd");
        Files.createDirectories(odd.resolve("b"));
        Files.write(odd.resolve("b/good.jpg"), new byte[] {1});
        Files.createSymbolicLink(odd.resolve("b/dangling.jpg"), odd.resolve("b/nowhere.jpg"));
        Process mkfifo = new ProcessBuilder("mkfifo", odd.resolve("b/fifo.jpg").toString()).start();
        assertThat(mkfifo.waitFor()).isZero();
        java.io.PrintStream err = System.err;
        java.io.ByteArrayOutputStream log = new java.io.ByteArrayOutputStream();
        System.setErr(new java.io.PrintStream(log, true, StandardCharsets.UTF_8)); // slf4j-simple writes to System.err
        FolderDataset d;
        try {
            d = FolderDataset.scan(odd, Set.of("jpg"));
        } finally {
            System.setErr(err);
        }
        assertThat(d.size()).isOne();
        assertThat(log.toString(StandardCharsets.UTF_8)).contains("2 entries left out, not regular files")
            .contains("b/dangling.jpg (a link to nothing)").contains("b/fifo.jpg (not a regular file");
    }

    @Test
    void shouldSayAMissingFolderIsMissing() {
        assertThatThrownBy(() -> FolderDataset.scan(root.resolve("nope"), Set.of("jpg")))
            .isInstanceOf(UncheckedIOException.class).hasMessage("dataset folder " + root.resolve("nope")
                + ": no such folder");
        assertThatThrownBy(() -> FolderDataset.scanFlat(root.resolve("nope"), Set.of("jpg")))
            .hasMessageContaining("no such folder");
    }
}
