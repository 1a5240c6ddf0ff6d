package org.spdl4j.examples.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.spdl4j.engine.OutputOrder;
import org.spdl4j.engine.PipelineSpec;
import org.spdl4j.engine.StageSpec;
import org.spdl4j.engine.WaitPolicy;
import org.spdl4j.engine.source.http.HttpFetchSettings;
import org.spdl4j.examples.sample.SampleImages;
import org.spdl4j.examples.slots.FetchStage;
import org.spdl4j.examples.slots.SlotLoaderOptions;
import org.spdl4j.examples.testing.RingFill;
import org.spdl4j.offheap.BufferPool;
import org.spdl4j.offheap.PoolRegistry;
import org.spdl4j.offheap.batch.Batch;

@Timeout(120)
class UrlImageLoaderTest {
    @TempDir
    static Path images;

    @TempDir
    Path work;

    @BeforeAll
    static void sample() throws Exception {
        SampleImages.generate(images, 21, 5);
    }

    private static HttpFetchSettings settings(int inFlight) {
        return HttpFetchSettings.defaults().withMaxInFlight(inFlight)
            .withRetries(2, Duration.ofSeconds(10), Duration.ofMillis(5));
    }

    @Test
    void shouldFetchDecodeAndLabelEveryImageAndSkipOneThatIsNotFound() throws Exception {
        try (ImageFileServer server = new ImageFileServer(images, 20)) {
            Path list = work.resolve("urls.txt");
            int served = server.writeList(list, i -> 100 + i, server.url("missing.jpg") + "\t7");
            List<UrlList.Entry> urls = UrlList.read(list);
            long labelSum = 0;
            long count = 0;
            try (UrlImageLoader loader = new UrlImageLoader("urls", urls, 32, 40, 4, 2, settings(4))) {
                for (Batch batch : loader) {
                    assertThat(batch.descriptor().batchBytes()).isEqualTo(4L * 32 * 32 * 3);
                    for (int i = 0; i < batch.size(); i++) {
                        labelSum += loader.label(batch, i);
                    }
                    count += batch.size();
                    batch.close();
                }
                assertThat(count).isEqualTo(served);
                assertThat(labelSum).isEqualTo(served * 100L + (long) served * (served - 1) / 2); // labels 100..
                assertThat(loader.fetchFailures()).isEqualTo(1);
                assertThat(loader.failedImages()).isEqualTo(1);
                assertThat(loader.leasesInUse()).isZero();
                assertThat(loader.attemptsMade()).isEqualTo(served + 1); // a 404 is not retried
            }
            assertNoLivePools("urls");
            assertThat(server.notFound.get()).isEqualTo(1);
            assertThat(server.peakConcurrent.get()).isBetween(2, 4); // requests overlap, never more than asked
        }
    }

    @Test
    void shouldReturnEveryLeaseWhenClosedMidRun() throws Exception {
        try (ImageFileServer server = new ImageFileServer(images, 5)) {
            Path list = work.resolve("urls.txt");
            server.writeList(list, i -> i);
            UrlImageLoader loader = new UrlImageLoader("early", UrlList.read(list), 32, 40, 4, 1, settings(8));
            try (loader) {
                Batch first = loader.iterator().next();
                first.close();
                RingFill.awaitItemsInRings(loader.pipeline(), 2); // fetches in the rings for the close-time sweep
            }
            assertThat(loader.leasesInUse()).isZero();
            assertNoLivePools("early");
        }
    }

    /** A pool whose memory is still allocated after close had a lease that never came back. */
    private static void assertNoLivePools(String loader) {
        assertThat(PoolRegistry.livePools().stream().map(BufferPool::name).filter(n -> n.startsWith(loader + "-"))
            .toList()).as("pools still allocated after close: a lease was not returned").isEmpty();
    }

    @Test
    void shouldDetectAUrlListAndNameTheBadLine() throws Exception {
        Path urls = work.resolve("urls.txt");
        Files.writeString(urls, "\n  \nhttps://example.invalid/a.jpg\t3\nhttp://example.invalid/b.jpg\n");
        Path paths = work.resolve("paths.txt");
        Files.writeString(paths, "\n/data/a.jpg\t3\n");
        assertThat(UrlList.isUrlList(urls)).isTrue();
        assertThat(UrlList.isUrlList(paths)).isFalse();
        Path commented = work.resolve("commented.txt");
        Files.writeString(commented, "# my images\n\nhttps://example.invalid/a.jpg\n");
        assertThat(UrlList.isUrlList(commented)).as("a leading comment line is skipped").isTrue();
        assertThat(UrlList.read(urls)).extracting(UrlList.Entry::label).containsExactly(3, -1);
        Path bad = work.resolve("bad.txt");
        Files.writeString(bad, "http://example.invalid/a.jpg\tcat\n");
        assertThatThrownBy(() -> UrlList.read(bad)).isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("bad.txt:1").hasMessageContaining("'cat' is not an integer");
    }

    @Test
    void shouldFetchInTheGivenOrderAndWaitByTheGivenPolicy() {
        SlotLoaderOptions options = SlotLoaderOptions.defaults().withFillConcurrency(2)
            .withWaitPolicy(WaitPolicy.BUSY_SPIN);
        try (UrlImageLoader loader = new UrlImageLoader("urls-options", List.of(), 32, 40, 4, options,
                OutputOrder.INPUT, settings(3))) {
            PipelineSpec spec = loader.pipeline().spec();
            assertThat(spec.sourceWaitPolicy()).isEqualTo(WaitPolicy.BUSY_SPIN);
            assertThat(spec.sinkWaitPolicy()).isEqualTo(WaitPolicy.BUSY_SPIN);
            assertThat(spec.stages()).extracting(s -> s.options().waitPolicy()).containsOnly(WaitPolicy.BUSY_SPIN);
            StageSpec fetch = spec.stages().stream().filter(s -> s.name().equals(FetchStage.STAGE)).findFirst()
                .orElseThrow();
            assertThat(fetch.options().order()).isEqualTo(OutputOrder.INPUT);
            assertThat(fetch.options().concurrency()).isEqualTo(3);
        }
    }

    @Test
    void shouldFreeItsPoolAndHttpClientWhenTheBatchLayoutIsRefused() throws Exception {
        long selectorsBefore = httpSelectorThreads();
        assertThatThrownBy(() -> new UrlImageLoader("urls-refused", List.of(), 32, 40, 0,
                SlotLoaderOptions.defaults(), OutputOrder.COMPLETION, settings(2)))
            .isInstanceOf(IllegalArgumentException.class);
        assertThat(PoolRegistry.livePools()).extracting(BufferPool::name)
            .as("pools still allocated after the constructor failed").noneMatch(n -> n.startsWith("urls-refused"));
        // The HTTP client's selector thread ends shortly after shutdownNow; a client never shut down keeps it until
        // the collector finds the client (not within this test).
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (httpSelectorThreads() > selectorsBefore && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(httpSelectorThreads()).as("HTTP client selector threads").isLessThanOrEqualTo(selectorsBefore);
    }

    private static long httpSelectorThreads() {
        return Thread.getAllStackTraces().keySet().stream()
            .filter(t -> t.isAlive() && t.getName().startsWith("HttpClient-") && t.getName().endsWith("SelectorManager"))
            .count();
    }
}
