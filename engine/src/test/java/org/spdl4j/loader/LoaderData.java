package org.spdl4j.loader;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.spdl4j.engine.source.tar.TestTarWriter;

/**
 * Test datasets of small "samples" whose bytes name them ({@code id:<name>}), a third of them bad (every third:
 * alternately an empty file, which fails to read, and bytes starting with BAD, which fail to decode), laid out as a
 * folder with class sub-folders, a path list, tar shards and a URL list on a loopback HTTP server.
 */
final class LoaderData implements AutoCloseable {
    enum Kind { FOLDER, PATH_LIST, TAR, URLS }

    final Path root;
    final int count;
    /** Expected content by key, good samples only; keys as the given source kind names them. */
    private final Map<String, String> folderGood = new LinkedHashMap<>();
    private final List<String> names = new ArrayList<>();
    private HttpServer server;

    LoaderData(Path root, int count) throws IOException {
        this.root = root;
        this.count = count;
        Path folder = root.resolve("folder");
        for (int i = 0; i < count; i++) {
            String cls = "c" + (i % 2);
            String name = String.format("s%03d", i);
            Path file = folder.resolve(cls).resolve(name + ".bin");
            Files.createDirectories(file.getParent());
            byte[] bytes = content(i, name);
            Files.write(file, bytes);
            names.add(cls + "/" + name);
            if (good(i)) {
                folderGood.put(cls + "/" + name + ".bin", new String(bytes, StandardCharsets.UTF_8));
            }
        }
    }

    static boolean good(int i) {
        return i % 3 != 2;
    }

    private static byte[] content(int i, String name) {
        if (good(i)) {
            return ("id:" + name).getBytes(StandardCharsets.UTF_8);
        }
        return (i / 3) % 2 == 0 ? new byte[0] : ("BAD:" + name).getBytes(StandardCharsets.UTF_8);
    }

    /** {@return the source of a kind} */
    SampleSource source(Kind kind) throws IOException {
        return switch (kind) {
            case FOLDER -> SampleSource.folder(root.resolve("folder"), java.util.Set.of("bin"));
            case PATH_LIST -> SampleSource.list(pathList());
            case TAR -> SampleSource.tarShards(shards(3));
            case URLS -> SampleSource.list(urlList());
        };
    }

    /** {@return the good samples' expected content by the key the kind gives them} */
    Map<String, String> expected(Kind kind) {
        Map<String, String> out = new LinkedHashMap<>();
        for (int i = 0; i < count; i++) {
            if (!good(i)) {
                continue;
            }
            String rel = names.get(i) + ".bin";
            String content = folderGood.get(rel);
            String key = switch (kind) {
                case FOLDER -> rel;
                case PATH_LIST -> root.resolve("folder").resolve(rel).toString();
                case TAR -> root.resolve("shards").resolve("shard-" + (i % 3) + ".tar") + "@" + names.get(i);
                case URLS -> base() + rel;
            };
            out.put(key, content);
        }
        return out;
    }

    private Path pathList() throws IOException {
        Path list = root.resolve("list.txt");
        if (!Files.exists(list)) {
            StringBuilder b = new StringBuilder();
            for (int i = 0; i < count; i++) {
                b.append(root.resolve("folder").resolve(names.get(i) + ".bin")).append('\t').append(i % 2).append('\n');
            }
            Files.writeString(list, b);
        }
        return list;
    }

    private List<Path> shards(int n) throws IOException {
        Path dir = root.resolve("shards");
        List<Path> out = new ArrayList<>();
        if (!Files.exists(dir)) {
            Files.createDirectories(dir);
            TestTarWriter[] tars = new TestTarWriter[n];
            for (int s = 0; s < n; s++) {
                tars[s] = new TestTarWriter();
            }
            for (int i = 0; i < count; i++) {
                byte[] bytes = Files.readAllBytes(root.resolve("folder").resolve(names.get(i) + ".bin"));
                // member names without the class folder: shard@sNNN
                String base = names.get(i);
                tars[i % n].add(base + ".bin", bytes).add(base + ".cls",
                    String.valueOf(i % 2).getBytes(StandardCharsets.US_ASCII));
            }
            for (int s = 0; s < n; s++) {
                Files.write(dir.resolve("shard-" + s + ".tar"), tars[s].finish());
            }
        }
        for (int s = 0; s < n; s++) {
            out.add(dir.resolve("shard-" + s + ".tar"));
        }
        return out;
    }

    private Path urlList() throws IOException {
        Path list = root.resolve("urls.txt");
        if (!Files.exists(list)) {
            StringBuilder b = new StringBuilder();
            for (int i = 0; i < count; i++) {
                b.append(base()).append(names.get(i)).append(".bin\t").append(i % 2).append('\n');
            }
            Files.writeString(list, b);
        }
        return list;
    }

    /** The loopback server's base URL, started on first use: serves the folder's files, 404 for the rest. */
    private synchronized String base() {
        if (server == null) {
            try {
                server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            Path folder = root.resolve("folder");
            server.createContext("/", ex -> {
                Path file = folder.resolve(ex.getRequestURI().getPath().substring(1));
                byte[] body = Files.isRegularFile(file) ? Files.readAllBytes(file) : null;
                if (body == null || body.length == 0) {
                    ex.sendResponseHeaders(404, -1); // an empty sample fails to fetch, as it fails to read
                } else {
                    ex.sendResponseHeaders(200, body.length);
                    ex.getResponseBody().write(body);
                }
                ex.close();
            });
            server.setExecutor(java.util.concurrent.Executors.newFixedThreadPool(4));
            server.start();
        }
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/";
    }

    @Override
    public void close() {
        if (server != null) {
            server.stop(0);
        }
    }
}
