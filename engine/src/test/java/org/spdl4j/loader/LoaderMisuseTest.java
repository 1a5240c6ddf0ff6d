package org.spdl4j.loader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.spdl4j.offheap.batch.Batch;

/**
 * Mistakes a training loop makes, said at once instead of an empty epoch or a silent wait: a decoder given to a second
 * loader, batches never closed, a second loop over a finished loader, and a run in which every sample failed (logged).
 */
@Timeout(60)
class LoaderMisuseTest {
    @TempDir
    static Path dir;
    static SampleSource good;
    static SampleSource bad;

    @BeforeAll
    static void data() throws Exception {
        List<SampleEntry> goodOnes = new ArrayList<>();
        List<SampleEntry> badOnes = new ArrayList<>();
        for (int i = 0; i < 24; i++) {
            goodOnes.add(SampleEntry.file(Files.writeString(dir.resolve("g" + i + ".bin"), "id:g" + i), 0));
            badOnes.add(SampleEntry.file(Files.writeString(dir.resolve("b" + i + ".bin"), "BAD:b" + i), 0));
        }
        good = SampleSource.of(goodOnes);
        bad = SampleSource.of(badOnes);
    }

    @Test
    void shouldRefuseADecoderAlreadyGivenToAnotherLoader() {
        BytesDecoder shared = new BytesDecoder();
        try (Loader<Batch> first = Loader.builder().name("first").source(good).decoder(shared).build()) {
            assertThatThrownBy(() -> Loader.builder().name("second").source(good).decoder(shared).build())
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("given to loader 'first' already")
                .hasMessageContaining("give each loader its own");
            assertThat(shared.closed).as("left to the loader that owns it").isFalse();
            assertThat(first.iterator().hasNext()).isTrue();
        }
        assertThat(shared.closed).isTrue();
    }

    /** A decoder equal to another (a record) is still another decoder. */
    record EqualDecoder() implements org.spdl4j.offheap.batch.SlotDecoder {
        @Override
        public org.spdl4j.offheap.tensor.DType dtype() {
            return org.spdl4j.offheap.tensor.DType.U8;
        }

        @Override
        public long[] sampleShape() {
            return new long[] {1};
        }

        @Override
        public void decode(org.spdl4j.offheap.batch.EncodedSample sample, long destination, int length) {
            org.agrona.UnsafeApi.putByte(destination, (byte) 1);
        }
    }

    @Test
    void shouldTellDecodersApartByIdentityNotEquality() {
        try (Loader<Batch> a = Loader.builder().name("a").source(good).decoder(new EqualDecoder()).build();
             Loader<Batch> b = Loader.builder().name("b").source(good).decoder(new EqualDecoder()).build()) {
            assertThat(a.iterator().hasNext()).isTrue();
            assertThat(b.iterator().hasNext()).isTrue();
        }
    }

    @Test
    void shouldSayAtOnceWhenTheConsumerHoldsEveryBatch() {
        try (Loader<Batch> loader = Loader.builder().name("held").source(good).decoder(new BytesDecoder())
                .batchSize(2).batchesInFlight(3).build()) {
            List<LoadedBatch<Batch>> kept = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                kept.add(loader.iterator().next()); // never closed
            }
            assertThatThrownBy(() -> loader.iterator().hasNext()).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("holds all 3 of its batches unclosed").hasMessageContaining("try (batch)");
            kept.remove(0).close();
            assertThat(loader.iterator().hasNext()).as("one closed: the loader goes on").isTrue();
            kept.forEach(LoadedBatch::close);
        }
    }

    @Test
    void shouldEndNormallyWhenTheConsumerKeepsEveryBatchOfAShortRun() {
        try (Loader<Batch> loader = Loader.builder().name("kept").source(good).decoder(new BytesDecoder())
                .batchSize(8).batchesInFlight(3).build()) {
            List<LoadedBatch<Batch>> kept = new ArrayList<>();
            for (LoadedBatch<Batch> batch : loader) {
                kept.add(batch); // all 24 samples fit in the 3 batches: the loop ends, no batch is missing
            }
            assertThat(kept).hasSize(3);
            kept.forEach(LoadedBatch::close);
        }
    }

    @Test
    void shouldKeepABatchHeldPastTheLoadersCloseValidWithoutCallingItALeak() {
        java.io.PrintStream err = System.err;
        java.io.ByteArrayOutputStream log = new java.io.ByteArrayOutputStream();
        System.setErr(new java.io.PrintStream(log, true, java.nio.charset.StandardCharsets.UTF_8)); // slf4j-simple
        LoadedBatch<Batch> kept;
        try {
            try (Loader<Batch> loader = Loader.builder().name("outlived").source(good).decoder(new BytesDecoder())
                    .batchSize(8).build()) {
                kept = loader.iterator().next();
            }
        } finally {
            System.setErr(err);
        }
        assertThat(BytesDecoder.text(new org.agrona.concurrent.UnsafeBuffer(kept.data().sampleAddress(0),
            BytesDecoder.WIDTH))).startsWith("id:g");
        kept.close();
        assertThat(log.toString(java.nio.charset.StandardCharsets.UTF_8))
            .contains("closed while the consumer holds 1 of its batches").doesNotContain("LEAK");
    }

    @Test
    void shouldRefuseASecondLoopOverAFinishedLoader() {
        try (Loader<Batch> loader = Loader.builder().name("once").source(good).decoder(new BytesDecoder())
                .batchSize(8).build()) {
            int samples = 0;
            for (LoadedBatch<Batch> batch : loader) {
                try (batch) {
                    samples += batch.size();
                }
            }
            assertThat(samples).isEqualTo(24);
            assertThatThrownBy(loader::iterator).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("has delivered all its epochs (24 samples)").hasMessageContaining("epochs(n)");
        }
    }

    @Test
    void shouldSayLoudlyWhenEverySampleOfARunFailed() {
        java.io.PrintStream err = System.err;
        java.io.ByteArrayOutputStream log = new java.io.ByteArrayOutputStream();
        System.setErr(new java.io.PrintStream(log, true, java.nio.charset.StandardCharsets.UTF_8)); // slf4j-simple
        try (Loader<Batch> loader = Loader.builder().name("dead").source(bad).decoder(new BytesDecoder())
                .batchSize(8).build()) {
            assertThat(loader.iterator().hasNext()).isFalse();
        } finally {
            System.setErr(err);
        }
        assertThat(log.toString(java.nio.charset.StandardCharsets.UTF_8))
            .contains("loader 'dead' delivered no sample: all 24 failed").contains("a bad sample (test)");
    }
}
