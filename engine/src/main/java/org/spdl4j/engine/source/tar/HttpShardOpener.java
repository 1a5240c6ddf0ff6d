package org.spdl4j.engine.source.tar;

import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.channels.Channels;
import java.nio.channels.ReadableByteChannel;
import java.time.Duration;

/**
 * Opens shards named by http(s) URL as one streaming GET each (the JDK's {@link HttpClient}): the body is read as the
 * tar reader asks for it, so a shard of any size takes no more memory than the reader's buffer. Not seekable: a
 * resume reads through the members it passes over. Compressed shards are told by their names as for files.
 *
 * <p>Deadlines: the connection and the response headers are bounded here; the body's reads are bounded by the loader
 * (its read timeout closes a stream that makes no progress). An answer other than 200 fails the shard, naming the URL
 * and the status.
 *
 * <p><b>Threading:</b> thread-safe; the client's threads are the JDK's (daemon).
 */
public final class HttpShardOpener implements ShardOpener {
    private final HttpClient client;
    private final Duration headersTimeout;

    /**
     * Creates an opener.
     *
     * @param connectTimeout the longest a connection may take
     * @param headersTimeout the longest the response headers may take
     */
    public HttpShardOpener(Duration connectTimeout, Duration headersTimeout) {
        this.client = HttpClient.newBuilder().connectTimeout(connectTimeout)
            .followRedirects(HttpClient.Redirect.NORMAL).build();
        this.headersTimeout = headersTimeout;
    }

    /** {@return an opener with a 10 s connect and a 60 s headers deadline} */
    public static HttpShardOpener defaults() {
        return new HttpShardOpener(Duration.ofSeconds(10), Duration.ofSeconds(60));
    }

    @Override
    public ReadableByteChannel open(String shard) throws IOException {
        HttpRequest request = HttpRequest.newBuilder(URI.create(shard)).timeout(headersTimeout).GET().build();
        HttpResponse<InputStream> response;
        try {
            response = client.send(request, HttpResponse.BodyHandlers.ofInputStream());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("GET " + shard + " interrupted");
        } catch (IOException e) {
            throw new IOException("GET " + shard + " failed: " + e + " (check the URL, the server and the network)", e);
        }
        if (response.statusCode() != 200) {
            response.body().close();
            throw new IOException("GET " + shard + ": HTTP " + response.statusCode()
                + (response.statusCode() == 404 ? " (no such shard: check the URL list)" : ""));
        }
        return Channels.newChannel(response.body());
    }
}
