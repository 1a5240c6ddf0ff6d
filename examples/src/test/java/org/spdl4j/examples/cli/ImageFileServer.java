package org.spdl4j.examples.cli;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
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
import java.util.stream.Stream;

/**
 * A loopback-only HTTP server (127.0.0.1, ephemeral port) serving the files of one folder at {@code /img/<relative
 * path>}; anything else is a 404. Counts requests and the peak of requests handled at once. Handlers run on virtual
 * threads; the accept backlog is bounded.
 */
public final class ImageFileServer implements AutoCloseable {
    static {
        // the JDK server writes headers and body separately: without this, Nagle + delayed ACK add ~40 ms a response
        System.setProperty("sun.net.httpserver.nodelay", "true");
    }

    /** Requests answered so far. */
    public final AtomicInteger requests = new AtomicInteger();
    /** Requests answered 404. */
    public final AtomicInteger notFound = new AtomicInteger();
    /** The most requests handled at once. */
    public final AtomicInteger peakConcurrent = new AtomicInteger();
    private final AtomicInteger concurrent = new AtomicInteger();
    private final Path root;
    private final long delayMillis;
    private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
    private final HttpServer server;

    /**
     * Starts serving.
     *
     * @param root        the folder served
     * @param delayMillis a pause before each response (to make requests overlap), or 0
     * @throws IOException when the socket cannot be bound
     */
    public ImageFileServer(Path root, long delayMillis) throws IOException {
        this.root = root.toAbsolutePath().normalize();
        this.delayMillis = delayMillis;
        this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
        server.setExecutor(executor);
        server.createContext("/", this::handle);
        server.start();
    }

    /** {@return the URL of a path under the served folder (it need not exist)} */
    public String url(String relative) {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/img/" + relative.replace('\\', '/');
    }

    /**
     * Writes a URL list of every {@code .jpg} under the folder (sorted), each with a label, plus the extra lines.
     *
     * @param list  the list file to write
     * @param label label of the i-th image
     * @param extra lines appended as they are
     * @return the number of images listed
     * @throws IOException when the folder cannot be walked or the list written
     */
    public int writeList(Path list, java.util.function.IntUnaryOperator label, String... extra) throws IOException {
        List<String> lines = new ArrayList<>();
        try (Stream<Path> files = Files.walk(root)) {
            List<Path> jpgs = files.filter(p -> p.toString().endsWith(".jpg")).sorted().toList();
            for (int i = 0; i < jpgs.size(); i++) {
                lines.add(url(root.relativize(jpgs.get(i)).toString()) + "\t" + label.applyAsInt(i));
            }
        }
        int images = lines.size();
        lines.addAll(List.of(extra));
        Files.write(list, lines);
        return images;
    }

    private void handle(HttpExchange ex) throws IOException {
        int now = concurrent.incrementAndGet();
        peakConcurrent.accumulateAndGet(now, Math::max);
        try (ex) {
            requests.incrementAndGet();
            String path = ex.getRequestURI().getPath();
            Path file = path.startsWith("/img/") ? root.resolve(path.substring(5)).normalize() : null;
            if (delayMillis > 0) {
                Thread.sleep(delayMillis);
            }
            if (file == null || !file.startsWith(root) || !Files.isRegularFile(file)) {
                notFound.incrementAndGet();
                concurrent.decrementAndGet();
                ex.sendResponseHeaders(404, -1);
                return;
            }
            byte[] body = Files.readAllBytes(file);
            concurrent.decrementAndGet(); // before the body goes out: the client may start its next request at once
            ex.getResponseHeaders().set("Content-Type", "image/jpeg");
            ex.sendResponseHeaders(200, body.length);
            try (OutputStream out = ex.getResponseBody()) {
                out.write(body);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            concurrent.decrementAndGet();
        }
    }

    @Override
    public void close() {
        server.stop(0);
        executor.close();
    }
}
