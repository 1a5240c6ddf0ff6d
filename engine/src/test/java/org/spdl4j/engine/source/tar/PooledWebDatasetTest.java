package org.spdl4j.engine.source.tar;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.nio.channels.Channels;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.spdl4j.engine.source.PooledSampleAllocator;
import org.spdl4j.engine.source.Sample;
import org.spdl4j.offheap.BufferPool;
import org.spdl4j.offheap.PoolConfig;
import org.spdl4j.offheap.testing.PoolLeakExtension;

/** WebDataset shards read into pooled off-heap slabs: bytes exact, every lease back when samples close. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
@ExtendWith(PoolLeakExtension.class)
class PooledWebDatasetTest {
    private static WebDatasetSampleIterator open(byte[] tar, PooledSampleAllocator allocator) {
        return new WebDatasetSampleIterator(new TarStreamReader("pooled.tar", Channels.newChannel(
                new ByteArrayInputStream(tar))), allocator);
    }

    @Test
    void shouldReadEveryMemberIntoThePoolAndReturnItWhenTheSamplesClose() throws Exception {
        TestTarWriter tar = new TestTarWriter();
        for (int i = 0; i < 6; i++) {
            String key = String.format("s%04d", i);
            tar.add(key + ".jpg", WebDatasetSampleIteratorTest.payload(i, 500 + 3000 * i));
            tar.add(key + ".cls", String.valueOf(i % 3).getBytes(StandardCharsets.US_ASCII));
            tar.add(key + ".txt", new byte[0]); // an empty member: no slab spent on it
        }
        try (BufferPool pool = BufferPool.open(PoolConfig.builder("tar").sizeClass(4096, 8).sizeClass(16 * 1024, 4)
                .build())) {
            List<Sample> samples = new ArrayList<>();
            try (WebDatasetSampleIterator it = open(tar.finish(), new PooledSampleAllocator(pool))) {
                while (it.hasNext()) {
                    samples.add(it.next());
                }
            }
            assertThat(samples).hasSize(6);
            assertThat(pool.inUse()).as("jpg + cls per open sample").isEqualTo(12);
            for (int i = 0; i < 6; i++) {
                Sample s = samples.get(i);
                assertThat(s.field("jpg").toByteArray()).isEqualTo(WebDatasetSampleIteratorTest.payload(i, 500 + 3000 * i));
                assertThat(s.field("jpg").bytes().isDirect()).isTrue();
                assertThat(s.label()).isEqualTo(i % 3);
                assertThat(s.field("txt").length()).isZero();
            }
            samples.forEach(Sample::close);
            assertThat(pool.inUse()).as("pool full once the samples are closed").isZero();
        }
    }

    @Test
    void shouldGiveBackTheLeasesOfAPartlyReadSampleWhenTheShardIsTruncated() throws Exception {
        byte[] whole = new TestTarWriter().add("a.jpg", WebDatasetSampleIteratorTest.payload(1, 3000))
                .add("a.png", WebDatasetSampleIteratorTest.payload(2, 3000)).finish();
        byte[] truncated = Arrays.copyOf(whole, 512 + 3072 + 512 + 1000); // second member's data cut short
        try (BufferPool pool = BufferPool.open(PoolConfig.builder("tar-truncated").sizeClass(4096, 4)
                .acquireTimeout(Duration.ofMillis(100)).build());
             WebDatasetSampleIterator it = open(truncated, new PooledSampleAllocator(pool))) {
            assertThatThrownBy(() -> {
                while (it.hasNext()) {
                    it.next().close();
                }
            }).isInstanceOf(RuntimeException.class);
            assertThat(pool.inUse()).as("the half-read sample's field went back to the pool").isZero();
        }
    }
}
