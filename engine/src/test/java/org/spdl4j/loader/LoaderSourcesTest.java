package org.spdl4j.loader;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.spdl4j.engine.OutputOrder;
import org.spdl4j.engine.stats.StageStats;
import org.spdl4j.offheap.batch.Batch;

/**
 * Every source kind, both orders, one and three epochs, with a third of the samples bad: each good sample is
 * delivered exactly once per epoch, its slot holds its own bytes and its key and label, and the bad ones are counted
 * on the stage that failed them.
 */
class LoaderSourcesTest {
    @TempDir
    static Path dir;
    static LoaderData data;

    @BeforeAll
    static void data() throws Exception {
        data = new LoaderData(dir, 30);
    }

    @AfterAll
    static void stop() {
        data.close();
    }

    static List<Arguments> cells() {
        List<Arguments> out = new ArrayList<>();
        for (LoaderData.Kind kind : LoaderData.Kind.values()) {
            for (OutputOrder order : OutputOrder.values()) {
                for (int epochs : new int[] {1, 3}) {
                    out.add(Arguments.of(kind, order, epochs));
                }
            }
        }
        return out;
    }

    @ParameterizedTest(name = "{0} {1} epochs={2}")
    @MethodSource("cells")
    void shouldDeliverEveryGoodSampleOncePerEpoch(LoaderData.Kind kind, OutputOrder order, int epochs)
            throws Exception {
        Map<String, String> expected = data.expected(kind);
        Map<Long, List<String>> byEpoch = new HashMap<>();
        BytesDecoder decoder = new BytesDecoder();
        long failures;
        List<StageStats> stats;
        try (Loader<Batch> loader = Loader.builder().name("t-" + kind.name().toLowerCase()).source(data.source(kind))
                .decoder(decoder).batchSize(4).epochs(epochs).seed(5).order(order).readConcurrency(4)
                .decodeConcurrency(2).build()) {
            for (LoadedBatch<Batch> batch : loader) {
                try (batch) {
                    for (int i = 0; i < batch.size(); i++) {
                        String key = batch.key(i);
                        UnsafeBuffer slot = new UnsafeBuffer(batch.data().sampleAddress(i), BytesDecoder.WIDTH);
                        assertThat(BytesDecoder.text(slot)).as("slot of %s", key).isEqualTo(expected.get(key));
                        assertThat(batch.labels().asByteBuffer().order(java.nio.ByteOrder.nativeOrder())
                            .getInt(i * 4)).isEqualTo(batch.label(i));
                        byEpoch.computeIfAbsent(batch.epoch(i), e -> new ArrayList<>()).add(key);
                    }
                }
            }
            failures = loader.failures();
            stats = loader.stats();
        }
        assertThat(decoder.closed).isTrue();
        assertThat(byEpoch.keySet()).hasSize(epochs);
        for (List<String> keys : byEpoch.values()) {
            assertThat(keys).containsExactlyInAnyOrderElementsOf(expected.keySet());
        }
        long bad = (long) (data.count - expected.size()) * epochs;
        assertThat(failures).isEqualTo(bad);
        long decodeFailed = stats.stream().filter(s -> s.stage().equals(Loader.DECODE_STAGE))
            .mapToLong(StageStats::failures).sum();
        assertThat(decodeFailed).as("undecodable samples in the decode stage's failed column").isPositive();
    }
}
