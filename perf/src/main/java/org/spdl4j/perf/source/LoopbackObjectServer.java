package org.spdl4j.perf.source;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import com.sun.net.httpserver.HttpServer;

/** A loopback HTTP server answering every GET with a fixed body after a fixed delay (one virtual thread each). */
final class LoopbackObjectServer implements AutoCloseable {
    static {
        // The JDK server writes headers and body separately; with Nagle on, the client's delayed ACK adds ~40 ms
        // to every response. Read once when the server class loads, so it is set before the first server starts.
        System.setProperty("sun.net.httpserver.nodelay", "true");
    }

    private final HttpServer server;
    private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();

    LoopbackObjectServer(long delayMillis, int bodyBytes) throws IOException {
        byte[] body = new byte[bodyBytes];
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 1024);
        server.setExecutor(executor);
        server.createContext("/", ex -> {
            try {
                ex.getRequestBody().readAllBytes();
                Thread.sleep(delayMillis);
                ex.sendResponseHeaders(200, body.length);
                try (OutputStream out = ex.getResponseBody()) {
                    out.write(body);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                ex.close();
            }
        });
        server.start();
    }

    URI uri(int i) {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/obj/" + i);
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
