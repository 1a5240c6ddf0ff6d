package org.spdl4j.engine.source;

import java.nio.file.Path;

/**
 * A file to read as one sample: its path, its key, its label. A cheap description; {@link FileSampleReader} reads the
 * bytes.
 *
 * @param path  the file
 * @param key   the sample key (the path relative to the dataset root, with {@code /} separators)
 * @param label the class label, or {@link Sample#NO_LABEL}
 */
public record FileItem(Path path, String key, int label) {
}
