package org.spdl4j.loader;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.agrona.concurrent.UnsafeBuffer;
import org.spdl4j.offheap.batch.Batch;

/**
 * What a loader of {@link BytesDecoder} slots delivered, run to its end or for a number of batches: keys in delivery
 * order, every delivery (key, slot text, label), and the state and failure count after; for the loader and S3 tests.
 */
public final class LoaderRun {
    /**
     * One delivered sample.
     *
     * @param key   its key
     * @param text  its slot as {@link BytesDecoder#text} reads it
     * @param label its label
     */
    public record Delivered(String key, String text, int label) {
    }

    /** Keys in delivery order (repeated across epochs). */
    public final List<String> keys = new ArrayList<>();
    /** Every delivery, in order. */
    public final List<Delivered> delivered = new ArrayList<>();
    /** Slot text by key (the last delivery's). */
    public final Map<String, String> texts = new LinkedHashMap<>();
    /** Label by key (the last delivery's). */
    public final Map<String, Integer> labels = new LinkedHashMap<>();
    /** The loader's state after the run. */
    public LoaderState state;
    /** The loader's failure count after the run. */
    public long failures;

    private LoaderRun() {
    }

    /**
     * Builds and runs a loader, closing it after.
     *
     * @param recipe  the loader's recipe
     * @param batches the most batches to take ({@link Integer#MAX_VALUE}: all)
     * @return what it delivered
     */
    public static LoaderRun of(LoaderBuilder<Batch> recipe, int batches) {
        LoaderRun r = new LoaderRun();
        try (Loader<Batch> loader = recipe.build()) {
            int n = 0;
            for (LoadedBatch<Batch> batch : loader) {
                try (batch) {
                    for (int i = 0; i < batch.size(); i++) {
                        String key = batch.key(i);
                        String text = BytesDecoder.text(new UnsafeBuffer(batch.data().sampleAddress(i),
                            BytesDecoder.WIDTH));
                        r.keys.add(key);
                        r.delivered.add(new Delivered(key, text, batch.label(i)));
                        r.texts.put(key, text);
                        r.labels.put(key, batch.label(i));
                    }
                }
                if (++n == batches) {
                    break;
                }
            }
            r.state = loader.state();
            r.failures = loader.failures();
        }
        return r;
    }
}
