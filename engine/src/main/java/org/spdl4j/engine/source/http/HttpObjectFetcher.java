package org.spdl4j.engine.source.http;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

import org.spdl4j.engine.source.Sample;
import org.spdl4j.engine.source.SampleAllocator;
import org.spdl4j.engine.source.SampleField;

/**
 * Fetches HTTP(S) objects as one-field samples, asynchronously: the async function an engine pipe runs on a stream of
 * URIs ({@code fetcher::apply}). The field is named {@code "bytes"}; the sample key is the URI.
 *
 * <p><b>Flow control:</b> at most {@link HttpFetchSettings#maxInFlight()} objects are in progress at once (an object
 * holds its slot across its retries); more calls queue without blocking the caller. <b>Retries:</b> on a 5xx or 429
 * status, an I/O error (reset, dropped connection, refused connect) or an attempt past
 * {@link HttpFetchSettings#attemptTimeout()}, up to {@link HttpFetchSettings#maxAttempts()} attempts, waiting
 * {@code initialBackoff * 2^(attempt-1)} (capped, with jitter: half fixed, half random) between them; no retry on
 * other statuses. <b>Outcome:</b> every call's stage completes exactly once: with the sample, or with a
 * {@link FetchException} naming the URI, attempts and last status. An object is never delivered twice (one future per
 * call; a timed-out attempt is cancelled and its late body discarded).
 *
 * <p><b>Threading:</b> thread-safe. No thread blocks: attempts are {@link HttpClient#sendAsync}, backoff waits are
 * timers. <b>Allocation:</b> per object, the request, futures, and one body buffer from the {@link SampleAllocator}
 * (the only copy of the bytes). <b>Ownership:</b> the delivered sample owns its buffer; buffers of failed attempts
 * are released. The fetcher owns its {@link HttpClient}; {@link #close()} shuts it down.
 */
public final class HttpObjectFetcher implements Function<URI, CompletionStage<Sample>>, AutoCloseable {
    private final HttpClient client;
    private final HttpFetchSettings settings;
    private final SampleAllocator allocator;
    private final AsyncPermits permits;
    private final AtomicLong attemptsMade = new AtomicLong();

    /**
     * Creates a fetcher with its own HTTP/1.1 client.
     *
     * @param settings  limits, retries and timeouts
     * @param allocator where bodies go
     */
    public HttpObjectFetcher(HttpFetchSettings settings, SampleAllocator allocator) {
        this.settings = settings;
        this.allocator = allocator;
        this.permits = new AsyncPermits(settings.maxInFlight());
        this.client = HttpClient.newBuilder().connectTimeout(settings.connectTimeout())
                .version(HttpClient.Version.HTTP_1_1).followRedirects(HttpClient.Redirect.NORMAL).build();
    }

    /**
     * Starts fetching one object; returns at once.
     *
     * @param uri the object
     * @return its sample, or a {@link FetchException}
     */
    @Override
    public CompletionStage<Sample> apply(URI uri) {
        return permits.submit(() -> {
            CompletableFuture<Sample> result = new CompletableFuture<>();
            attempt(uri, 1, result);
            return result;
        });
    }

    /** {@return the in-flight bound, for stats and tests} */
    public AsyncPermits permits() {
        return permits;
    }

    /** {@return the attempts made so far, retries included} */
    public long attemptsMade() {
        return attemptsMade.get();
    }

    private void attempt(URI uri, int attempt, CompletableFuture<Sample> result) {
        attemptsMade.incrementAndGet();
        HttpRequest request = HttpRequest.newBuilder(uri).timeout(settings.attemptTimeout()).GET().build();
        // written by the client's thread, read by the deadline timer's thread
        AtomicReference<AllocatorBodySubscriber> body = new AtomicReference<>();
        HttpResponse.BodyHandler<ByteBuffer> handler = info -> {
            if (info.statusCode() / 100 != 2) {
                return HttpResponse.BodySubscribers.replacing(null); // discard an error body
            }
            AllocatorBodySubscriber b = new AllocatorBodySubscriber(allocator,
                    info.headers().firstValueAsLong("Content-Length").orElse(-1), settings.maxBodyBytes());
            body.set(b);
            return b;
        };
        CompletableFuture<HttpResponse<ByteBuffer>> call = client.sendAsync(request, handler);
        // the whole attempt, body included, has a deadline; cancelling the client's future aborts the exchange
        CompletableFuture.delayedExecutor(settings.attemptTimeout().toMillis(), TimeUnit.MILLISECONDS).execute(() -> {
            if (call.cancel(true)) { // true only when the response was not delivered: we own what the body holds
                AllocatorBodySubscriber b = body.get();
                if (b != null) {
                    b.abort(); // still collecting: releases its buffer
                    b.getBody().thenAccept(allocator::release); // already collected: nobody else will get it
                }
            }
        });
        call.whenComplete((response, error) -> {
            if (error == null && response.statusCode() / 100 == 2) {
                ByteBuffer bytes = response.body();
                result.complete(new Sample(uri.toString(), Sample.NO_LABEL, uri.toString(),
                        List.of(new SampleField("bytes", bytes)), allocator));
                return;
            }
            int status = error == null ? response.statusCode() : -1;
            Throwable cause = unwrap(error);
            String what = error == null ? "HTTP " + status : cause.toString();
            boolean retryable = error == null ? status / 100 == 5 || status == 429
                    : cause instanceof IOException || call.isCancelled()
                            || cause instanceof java.util.concurrent.CancellationException;
            if (cause instanceof IOException && cause.getMessage() != null
                    && cause.getMessage().contains("exceeds the limit")) {
                retryable = false;
            }
            if (!retryable || attempt >= settings.maxAttempts()) {
                result.completeExceptionally(new FetchException(uri, attempt, status,
                        retryable ? what + " (last retry)" : what + " (not retryable)", cause));
                return;
            }
            CompletableFuture.delayedExecutor(backoffMillis(attempt), TimeUnit.MILLISECONDS)
                    .execute(() -> attempt(uri, attempt + 1, result));
        });
    }

    private long backoffMillis(int attempt) {
        long base = settings.initialBackoff().toMillis() << Math.min(attempt - 1, 20);
        long capped = Math.min(base, settings.maxBackoff().toMillis());
        long half = capped / 2;
        return half + (half > 0 ? ThreadLocalRandom.current().nextLong(half + 1) : 0);
    }

    private static Throwable unwrap(Throwable t) {
        Throwable c = t;
        while ((c instanceof CompletionException || c instanceof ExecutionException) && c.getCause() != null) {
            c = c.getCause();
        }
        return c;
    }

    /** Shuts the HTTP client down; calls in progress fail. */
    @Override
    public void close() {
        client.close();
    }
}
