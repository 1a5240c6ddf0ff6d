package org.spdl4j.loader;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.spdl4j.engine.OutputOrder;
import org.spdl4j.offheap.batch.Batch;

/**
 * A run in its own JVM for {@link LoaderResumeTest}: rebuilds the test data's source of one kind, resumes from the
 * state in {@code -Dresume.state} (a file), delivers the rest and writes each delivered key, one per line, to
 * {@code -Dresume.keys}.
 */
public final class ResumeChild {
    private ResumeChild() {
    }

    /**
     * Runs it.
     *
     * @param args unused
     * @throws Exception on any failure (the parent sees a non-zero exit and the output)
     */
    public static void main(String[] args) throws Exception {
        Path root = Path.of(System.getProperty("resume.root"));
        LoaderData.Kind kind = LoaderData.Kind.valueOf(System.getProperty("resume.kind"));
        OutputOrder order = OutputOrder.valueOf(System.getProperty("resume.order"));
        LoaderState state = LoaderState.parse(Files.readString(Path.of(System.getProperty("resume.state"))));
        List<String> keys = new ArrayList<>();
        try (LoaderData data = new LoaderData(root, LoaderResumeTest.COUNT);
             Loader<Batch> loader = LoaderResumeTest.recipe(data, kind, order).resume(state).build()) {
            for (LoadedBatch<Batch> batch : loader) {
                try (batch) {
                    for (int i = 0; i < batch.size(); i++) {
                        keys.add(batch.key(i));
                    }
                }
            }
        }
        Files.write(Path.of(System.getProperty("resume.keys")), keys);
    }
}
