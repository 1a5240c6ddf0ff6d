package org.spdl4j.examples.image;

import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import org.spdl4j.engine.source.FolderDataset;

/**
 * A folder of images as the command line reads it: class sub-folders ({@code DIR/<class>/<image>}, labelled by
 * their sorted names), or, when no sub-folder holds an image, the images directly in it as one unlabelled class.
 * Only files with one of the {@link #EXTENSIONS} are taken; hidden files are skipped.
 *
 * <p><b>Cost:</b> {@link #scan} walks the folder once and blocks on the file system.
 */
public final class ImageFolder {
    /** Image file extensions a folder scan picks up (case-insensitive): the formats FFmpeg's image decoders read. */
    public static final Set<String> EXTENSIONS = Set.of("jpg", "jpeg", "png", "webp", "bmp");

    private ImageFolder() {
    }

    /**
     * Scans a folder: its class sub-folders, else its own images.
     *
     * @param dir the folder
     * @return the images, empty when there are none in either form
     * @throws java.io.UncheckedIOException when the folder cannot be read; the message names the path
     */
    public static FolderDataset scan(Path dir) {
        FolderDataset classes = FolderDataset.scan(dir, EXTENSIONS);
        return classes.size() > 0 ? classes : FolderDataset.scanFlat(dir, EXTENSIONS);
    }

    /** {@return the extensions, sorted and comma-separated, for messages} */
    public static String extensionList() {
        return String.join(", ", new TreeSet<>(EXTENSIONS));
    }
}
