package org.spdl4j.examples.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.spdl4j.engine.OutputOrder;
import org.spdl4j.engine.source.http.HttpFetchSettings;
import org.spdl4j.examples.sample.SampleImages;
import org.spdl4j.examples.slots.SlotLoaderOptions;
import org.spdl4j.offheap.batch.Batch;

/** Images over 1 MB, fetched in list order: they share the two largest slabs of the loader's body pool. */
@Timeout(180)
class UrlImageLoaderLargeBodiesTest {
    /** Over the 1 MB class: each body takes one of the two largest slabs. */
    private static final int BODY = 1_500_000;

    @TempDir
    Path images;

    /**
     * Images 1 and 2 arrive while image 0 waits on the server. They took both large slabs and, finished, waited in the
     * fetch stage behind image 0, which waited for a slab until the pool's acquire timeout (60 s): image 0 was dropped.
     * In list order, image 0 takes its slab first. The test opens image 0's gate once the younger two hold the slabs,
     * or after 5 s (with turns they never take them first; the wait only gives the old code time to).
     */
    @Test
    void shouldNotDropALargeImageWhileYoungerLargeImagesHoldTheLargestSlabs() throws Exception {
        SampleImages.generate(images, 1, 7);
        byte[] jpeg;
        try (Stream<Path> files = Files.walk(images)) {
            jpeg = Files.readAllBytes(files.filter(p -> p.toString().endsWith(".jpg")).findFirst().orElseThrow());
        }
        byte[] body = Arrays.copyOf(jpeg, BODY); // the image, then zeros past its end
        CountDownLatch firstMayAnswer = new CountDownLatch(1);
        ExecutorService handlers = Executors.newVirtualThreadPerTaskExecutor();
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
        server.setExecutor(handlers);
        server.createContext("/big/", ex -> serve(ex, body, firstMayAnswer));
        server.start();
        try {
            List<UrlList.Entry> urls = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                urls.add(new UrlList.Entry(URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/big/"
                    + i), i));
            }
            HttpFetchSettings settings = HttpFetchSettings.defaults().withMaxInFlight(4)
                .withRetries(1, Duration.ofSeconds(120), Duration.ofMillis(5));
            try (UrlImageLoader loader = new UrlImageLoader("urls-large", urls, 32, 40, 3,
                    SlotLoaderOptions.defaults().withFillConcurrency(1), OutputOrder.INPUT, settings)) {
                CompletableFuture<Integer> images = CompletableFuture.supplyAsync(() -> {
                    int n = 0;
                    for (Batch batch : loader) {
                        n += batch.size();
                        batch.close();
                    }
                    return n;
                }, Executors.newVirtualThreadPerTaskExecutor());
                long giveUp = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
                while (loader.leasesInUse() < 2 && System.nanoTime() < giveUp) {
                    Thread.sleep(10);
                }
                firstMayAnswer.countDown();
                int delivered = images.get(150, TimeUnit.SECONDS);
                assertThat(loader.fetchFailures()).as("images not fetched: " + loader.firstFailure()).isZero();
                assertThat(delivered + loader.failedImages()).isEqualTo(3);
                assertThat(loader.leasesInUse()).isZero();
            }
        } finally {
            firstMayAnswer.countDown();
            server.stop(0);
            handlers.shutdownNow();
        }
    }

    private static void serve(HttpExchange ex, byte[] body, CountDownLatch firstMayAnswer) throws IOException {
        try (ex) {
            if (ex.getRequestURI().getPath().endsWith("/0")) {
                firstMayAnswer.await();
            }
            ex.sendResponseHeaders(200, body.length);
            try (OutputStream out = ex.getResponseBody()) {
                out.write(body);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException e) {
            // the client went away (the loader closed)
        }
    }
}
