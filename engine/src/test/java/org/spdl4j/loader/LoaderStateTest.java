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
