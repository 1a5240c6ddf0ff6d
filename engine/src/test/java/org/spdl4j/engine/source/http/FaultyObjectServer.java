package org.spdl4j.engine.source.http;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

/**
 * A loopback HTTP server serving {@code /obj/<i>} whose behaviour depends on {@code i % 6} and the attempt number:
 * 0 ok (i % 12 == 6: first attempt dropped before any response), 1: 500 twice then ok, 2: first attempt too slow,
 * 3: first attempt dropped mid-body, 4: always 503, 5: 404. Bodies are {@link #payload}; some are chunked.
 */
final class FaultyObjectServer implements AutoCloseable {
    final ConcurrentHashMap<Integer, AtomicInteger> attempts = new ConcurrentHashMap<>();
    final AtomicInteger total = new AtomicInteger();
    final AtomicInteger concurrent = new AtomicInteger();
    final AtomicInteger peakConcurrent = new AtomicInteger();
    static {
        // The JDK server writes headers and body separately; with Nagle on, the client's delayed ACK adds ~40 ms
        // to every response. Read once when the server class loads, so it is set before the first server starts.
        System.setProperty("sun.net.httpserver.nodelay", "true");
    }

    private final HttpServer server;
    private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
    private final long slowMillis;
    private final long fixedDelayMillis;

    FaultyObjectServer(long slowMillis, long fixedDelayMillis) throws IOException {
        this.slowMillis = slowMillis;
        this.fixedDelayMillis = fixedDelayMillis;
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 256);
        server.setExecutor(executor);
        server.createContext("/obj/", this::handle);
        server.start();
    }

    URI uri(int i) {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/obj/" + i);
    }

    static byte[] payload(int i) {
        int size = i == 7 || i == 12 ? 200_000 : 1000 + 37 * i; // 12: chunked, grows past 64 KiB
        byte[] b = new byte[size];
        for (int j = 0; j < size; j++) {
            b[j] = (byte) (i * 31 + j * 7);
        }
        return b;
    }

    private void handle(HttpExchange ex) throws IOException {
        int now = concurrent.incrementAndGet();
        peakConcurrent.accumulateAndGet(now, Math::max);
        boolean counted = true;
        try {
            total.incrementAndGet();
            String path = ex.getRequestURI().getPath();
            int i = Integer.parseInt(path.substring(path.lastIndexOf('/') + 1));
            int attempt = attempts.computeIfAbsent(i, k -> new AtomicInteger()).incrementAndGet();
            ex.getRequestBody().readAllBytes();
            if (fixedDelayMillis > 0) {
                Thread.sleep(fixedDelayMillis);
            }
            byte[] body = payload(i);
            // A request stops counting as concurrent before its response is written: once the client has the last
            // byte it may start the next request at once, before this handler's finally block would run.
            concurrent.decrementAndGet();
            counted = false;
            switch (i % 6) {
                case 0 -> {
                    if (i % 12 == 6 && attempt == 1) {
                        ex.close(); // no response at all: the connection is closed under the client
                        return;
                    }
                    send(ex, 200, body, i % 2 == 0);
                }
                case 1 -> send(ex, attempt <= 2 ? 500 : 200, attempt <= 2 ? new byte[0] : body, false);
                case 2 -> {
                    if (attempt == 1) {
                        Thread.sleep(slowMillis);
                    }
                    send(ex, 200, body, false);
                }
                case 3 -> {
                    if (attempt == 1) {
                        ex.sendResponseHeaders(200, body.length);
                        OutputStream out = ex.getResponseBody();
                        out.write(body, 0, body.length / 2);
                        out.flush();
                        ex.close(); // fewer bytes than Content-Length: the server drops the connection
                        return;
                    }
                    send(ex, 200, body, true);
                }
                case 4 -> send(ex, 503, new byte[0], false);
                default -> send(ex, 404, new byte[0], false);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException e) {
            // the client went away (a cancelled slow attempt): nothing to do
        } finally {
            if (counted) {
                concurrent.decrementAndGet();
            }
            ex.close();
        }
    }

    private static void send(HttpExchange ex, int status, byte[] body, boolean chunked) throws IOException {
        ex.sendResponseHeaders(status, body.length == 0 ? -1 : chunked ? 0 : body.length);
        if (body.length > 0) {
            try (OutputStream out = ex.getResponseBody()) {
                out.write(body);
            }
        }
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
