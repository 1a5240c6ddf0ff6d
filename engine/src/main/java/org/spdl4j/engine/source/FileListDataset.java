package org.spdl4j.engine.source;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A list of files, in the given order, optionally labelled.
 *
 * <p>Built from paths in memory ({@link #of}) or from a list file ({@link #read}): one entry per line,
 * {@code path} or {@code path<TAB>label}; relative paths are resolved against the list file's folder; blank lines and
 * lines starting with {@code #} are skipped. The key of an entry is its path as written.
 *
 * <p><b>Threading:</b> immutable and thread-safe. {@link #read} blocks on the file system.
 */
public final class FileListDataset implements IndexedDataset<FileItem> {
    private final List<FileItem> items;

    private FileListDataset(List<FileItem> items) {
        this.items = List.copyOf(items);
    }

    /**
     * A list of unlabelled files; the key of each is its path as given.
     *
     * @param paths the files, in order
     * @return the dataset
     */
    public static FileListDataset of(List<Path> paths) {
        List<FileItem> list = new ArrayList<>(paths.size());
        for (Path p : paths) {
            list.add(new FileItem(p, p.toString().replace('\\', '/'), Sample.NO_LABEL));
        }
        return new FileListDataset(list);
    }

    /**
     * Reads a list file.
     *
     * @param listFile the list file (UTF-8)
     * @return the dataset
     * @throws UncheckedIOException when the file cannot be read
     * @throws IllegalArgumentException when a label is not an integer; the message names the file and line
     */
    public static FileListDataset read(Path listFile) {
        List<String> lines;
        try {
            lines = Files.readAllLines(listFile, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read file list " + listFile + ": " + e.getMessage(), e);
        }
        Path base = listFile.toAbsolutePath().getParent();
        List<FileItem> list = new ArrayList<>(lines.size());
        for (int n = 0; n < lines.size(); n++) {
            String line = lines.get(n).strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            int tab = line.indexOf('\t');
            String path = tab < 0 ? line : line.substring(0, tab).strip();
            int label = Sample.NO_LABEL;
            if (tab >= 0) {
                try {
                    label = Integer.parseInt(line.substring(tab + 1).strip());
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException(listFile + ":" + (n + 1) + ": label is not an integer: '"
                            + line + "'", e);
                }
            }
            list.add(new FileItem(base.resolve(path), path, label));
        }
        return new FileListDataset(list);
    }

    @Override
    public long size() {
        return items.size();
    }

    @Override
    public FileItem get(long index) {
        return items.get(java.util.Objects.checkIndex((int) Math.min(index, Integer.MAX_VALUE), items.size()));
    }
}
