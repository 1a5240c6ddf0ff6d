package org.spdl4j.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.spdl4j.examples.sample.SampleImages;

/**
 * {@code spdl4j run} over 2,000 URLs of a loopback server that stops answering after its first requests: the run ends
 * within seconds (the endpoint's circuit breaker fails the rest at once, and {@code --max-failures} stops the run),
 * with status 1, the endpoint named, the summary printed and the state saved.
 */
@Timeout(120)
class DeadServerRunTest {
    private static final int URLS = 2_000;
    private static final int SERVED = 48;

    static {
        System.setProperty("sun.net.httpserver.nodelay", "true");
    }

    @TempDir
    Path dir;

    private final AtomicInteger requests = new AtomicInteger();
    private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
    private HttpServer server;
    private String base;

    @BeforeEach
    void serve() throws Exception {
        Path images = dir.resolve("img");
        SampleImages.generate(images, 8, 5);
        List<byte[]> bodies = new ArrayList<>();
        try (var walk = Files.walk(images)) {
            for (Path p : walk.filter(f -> f.toString().endsWith(".jpg")).sorted().toList()) {
                bodies.add(Files.readAllBytes(p));
            }
        }
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
        server.setExecutor(executor);
        server.createContext("/", ex -> {
            try (ex) {
                int n = requests.incrementAndGet();
                if (n == SERVED) {
                    Thread.ofPlatform().start(() -> server.stop(0)); // the server dies: connections are refused
                }
                byte[] body = bodies.get(n % bodies.size());
                ex.sendResponseHeaders(200, body.length);
                try (OutputStream out = ex.getResponseBody()) {
                    out.write(body);
                }
            }
        });
        server.start();
        base = "http://127.0.0.1:" + server.getAddress().getPort();
    }

    @AfterEach
    void stop() {
        server.stop(0);
        executor.close();
    }

    private Path urlList() throws Exception {
        StringBuilder list = new StringBuilder();
        for (int i = 0; i < URLS; i++) {
            list.append(base).append("/img/").append(i).append(".jpg\n");
        }
        return Files.writeString(dir.resolve("urls.txt"), list);
    }

    @Test
    void shouldStopWithinSecondsNamingTheEndpointWhenTheServerDiesMidRun() throws Exception {
        Path urls = urlList();
        Path state = dir.resolve("run.state");
        long start = System.nanoTime();
        CommandLineTest.Run r = CommandLineTest.run("run", "--data", urls.toString(), "--max-failures", "10",
            "--no-progress", "--batch-size", "8", "--read-concurrency", "8", "--state", state.toString());
        long seconds = (System.nanoTime() - start) / 1_000_000_000L;
        assertThat(r.status()).as(r.out() + r.err()).isEqualTo(Spdl4jCommand.EXIT_FAILED);
        assertThat(seconds).as("run time, s").isLessThan(20);
        assertThat(r.err()).contains("--max-failures 10 spent").contains("stage 'read'")
            .contains("endpoint " + base + " is down");
        assertThat(r.out()).contains("stopped: --max-failures 10 spent").contains("state: " + state);
        assertThat(state).exists();
        assertThat(requests.get()).as("requests to the dead server").isLessThan(SERVED + 200);
    }

    @Test
    void shouldStopByTheDefaultPercentageToo() throws Exception {
        Path urls = urlList();
        long start = System.nanoTime();
        CommandLineTest.Run r = CommandLineTest.run("run", "--data", urls.toString(), "--no-progress",
            "--batch-size", "8", "--read-concurrency", "8");
        long seconds = (System.nanoTime() - start) / 1_000_000_000L;
        assertThat(r.status()).as(r.out() + r.err()).isEqualTo(Spdl4jCommand.EXIT_FAILED);
        assertThat(seconds).as("run time, s").isLessThan(20);
        assertThat(r.err()).contains("--max-failures 5% spent");
    }

}
