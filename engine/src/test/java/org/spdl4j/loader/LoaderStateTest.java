package org.spdl4j.loader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.spdl4j.offheap.batch.Batch;
import org.spdl4j.offheap.batch.BatchTransfer;

class LoaderStateTest {
    @Test
    void shouldEncodeRangesCompactlyAndReadThemBack() {
        LoaderState s = new LoaderState(42, 1, 4, 3, Map.of(
            3L, new LoaderState.Mark(1024, new long[] {1030, 1032, 1033, 1034, 1040}),
            4L, new LoaderState.Mark(0, new long[] {5})));
        assertThat(s.encode()).isEqualTo("spdl4j-loader/1 seed=42 rank=1/4 epoch=3 3:1024+1030,1032-1034,1040 4:0+5");
        assertThat(LoaderState.parse(s.encode())).isEqualTo(s);
    }

    @Test
    void shouldRecordTheSourcesFingerprintAndReadStatesWithoutOne() {
        LoaderState s = new LoaderState(42, 0, 1, 1, Map.of(1L, new LoaderState.Mark(7, new long[0])))
            .withSource(0x9c1f04e2b7a3d615L);
        assertThat(s.encode()).isEqualTo("spdl4j-loader/1 seed=42 rank=0/1 epoch=1 source=9c1f04e2b7a3d615 1:7");
        assertThat(LoaderState.parse(s.encode())).isEqualTo(s);
        assertThat(LoaderState.parse("spdl4j-loader/1 seed=42 rank=0/1 epoch=1 1:7").source()).isZero();
    }

    @Test
    void shouldRefuseToResumeOverOtherSamples(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws Exception {
        for (int i = 0; i < 12; i++) {
            java.nio.file.Files.writeString(dir.resolve("s" + i + ".bin"), "id:s" + i);
        }
        java.util.function.Supplier<LoaderBuilder<org.spdl4j.offheap.batch.Batch>> recipe = () -> Loader.builder()
            .name("changed").source(SampleSource.folder(dir, java.util.Set.of("bin"))).decoder(new BytesDecoder())
            .batchSize(4);
        LoaderState saved = LoaderState.parse(LoaderRun.of(recipe.get(), 1).state.encode());
        assertThat(saved.source()).isNotZero();
        assertThat(LoaderRun.of(recipe.get().resume(saved), Integer.MAX_VALUE).keys).hasSize(8); // the same files
        assertThatThrownBy(() -> recipe.get().shuffle(false).resume(saved).build())
            .hasMessageContaining("other shuffle setting (this loader's is off)");
        java.nio.file.Files.delete(dir.resolve("s3.bin"));
        assertThatThrownBy(() -> recipe.get().resume(saved).build()).isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("saved over other samples than folder " + dir).hasMessageContaining("start afresh");
        java.nio.file.Files.writeString(dir.resolve("s3-renamed.bin"), "id:s3");
        assertThatThrownBy(() -> recipe.get().resume(saved).build()).hasMessageContaining("other samples");
    }

    @Test
    void shouldRefuseToResumeOverATarShardRewrittenWithOtherSamples(@org.junit.jupiter.api.io.TempDir
            java.nio.file.Path dir) throws Exception {
        java.nio.file.Path shard = dir.resolve("data.tar");
        writeShard(shard, 12);
        java.util.function.Supplier<LoaderBuilder<org.spdl4j.offheap.batch.Batch>> recipe = () -> Loader.builder()
            .name("rewritten").source(SampleSource.tarShards(shard)).decoder(new BytesDecoder()).batchSize(4);
        LoaderState saved = LoaderState.parse(LoaderRun.of(recipe.get(), 1).state.encode());
        assertThat(LoaderRun.of(recipe.get().resume(saved), Integer.MAX_VALUE).keys).hasSize(8);
        writeShard(shard, 5);
        assertThatThrownBy(() -> recipe.get().resume(saved).build()).hasMessageContaining("other samples");
    }

    private static void writeShard(java.nio.file.Path shard, int samples) throws java.io.IOException {
        org.spdl4j.engine.source.tar.TestTarWriter tar = new org.spdl4j.engine.source.tar.TestTarWriter();
        for (int i = 0; i < samples; i++) {
            tar.add("s" + i + ".bin", ("id:s" + i).getBytes(java.nio.charset.StandardCharsets.UTF_8));
        }
        java.nio.file.Files.write(shard, tar.finish());
    }

    @Test
    void shouldRefuseARangeTooLargeToBeALoadersWithoutAllocatingIt() {
        assertThatThrownBy(() -> LoaderState.parse("spdl4j-loader/1 seed=1 rank=0/1 epoch=0 0:5+10-3000000000"))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("10-3000000000");
    }

    @Test
    void shouldRejectPositionsBelowTheWatermark() {
        assertThatThrownBy(() -> new LoaderState.Mark(10, new long[] {3}))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("above it");
    }

    @Test
    void shouldNameTheTextItCannotRead() {
        assertThatThrownBy(() -> LoaderState.parse("spdl4j-source/1 seed=1 epoch=0 position=3"))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("spdl4j-source/1");
    }

    @Test
    void shouldCloseTheDecoderAndTransferWhenTheLoaderRefusesItsState(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("a.bin"), "id:a");
        BytesDecoder decoder = new BytesDecoder();
        boolean[] transferClosed = {false};
        BatchTransfer<Batch> transfer = new BatchTransfer<>() {
            @Override
            public CompletionStage<Batch> transfer(Batch batch) {
                return CompletableFuture.completedFuture(batch);
            }

            @Override
            public int maxInFlight() {
                return 1;
            }

            @Override
            public void close() {
                transferClosed[0] = true;
            }
        };
        // a settled position more than 2^31 past the watermark: more than the loader tracks
        LoaderState far = LoaderState.parse("spdl4j-loader/1 seed=0 rank=0/1 epoch=0 0:0+3000000000");
        assertThatThrownBy(() -> Loader.builder().name("refused").source(SampleSource.of(List.of(
                SampleEntry.file(file, 0)))).decoder(decoder).transfer(transfer).resume(far).build())
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("3000000000");
        assertThat(decoder.closed).as("decoder closed").isTrue();
        assertThat(transferClosed[0]).as("transfer closed").isTrue();
    }
}
