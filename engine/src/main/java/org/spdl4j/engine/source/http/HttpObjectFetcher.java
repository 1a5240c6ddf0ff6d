package org.spdl4j.engine.source.http;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.spdl4j.engine.source.LargeBufferTurns;
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
 * call; a timed-out attempt is cancelled and its late body discarded). A caller may complete the returned stage
 * itself ({@code cancel}, {@code orTimeout}): the fetch goes on (holding its slot) and the object, should it come, is
 * closed, its body back with the allocator. <b>Large bodies</b> ({@link LargeBodies}): a body of unknown length that
 * outgrows the large size takes one buffer of the largest size; with call order, large bodies take their buffers in
 * the order of the {@code apply} calls, waiting (on the client's thread, not counted by the attempt's deadline) for
 * older objects to take theirs or end. A retry after the object's turn passed (its attempt failed after taking its
 * buffer) takes its buffer out of turn. <b>Endpoints that are down:</b> each scheme, host and port has a circuit
 * breaker ({@link HttpFetchSettings#circuitBreaker()}, {@link EndpointBreaker}): after that many consecutive failed
 * attempts (refused or reset connection, timeout, 5xx) an attempt on the endpoint fails at once, unsent and not
 * retried, with a {@link FetchException} naming the endpoint, its consecutive failures and since when; after the
 * cool-down one trial attempt goes through, and its success lets every request through again.
 *
 * <p><b>Threading:</b> thread-safe. The caller's thread never blocks: attempts are {@link HttpClient#sendAsync},
 * backoff waits are timers; a body may block the client's thread for a buffer (the allocator's back-pressure) or its
 * turn. <b>Allocation:</b> per object, the request, futures, and one body buffer from the {@link SampleAllocator}
 * (the only copy of the bytes). <b>Ownership:</b> the delivered sample owns its buffer; buffers of failed attempts
 * are released. The fetcher owns its {@link HttpClient} and one daemon timer thread
 * ({@code spdl4j-http-timer-<n>}: attempt deadlines, cancelled when the attempt completes, and back-offs);
 * {@link #close()} shuts both down and fails the objects still in progress.
 */
public final class HttpObjectFetcher implements Function<URI, CompletionStage<Sample>>, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(HttpObjectFetcher.class);
    /** How long {@link #close()} waits for the client's threads. */
    private static final Duration CLOSE_WAIT = Duration.ofSeconds(5);
    private static final AtomicInteger TIMER_THREADS = new AtomicInteger();
    private final HttpClient client;
    private final HttpFetchSettings settings;
    private final SampleAllocator allocator;
    private final AsyncPermits permits;
    private final EndpointBreakers breakers;
    private final LargeBodies large;
    /** The turns large bodies take their buffers in, or null (any order). */
    private final LargeBufferTurns turns;
    private final AtomicLong attemptsMade = new AtomicLong();
    /**
     * Attempt deadlines and retry back-offs. Owned (not {@code CompletableFuture.delayedExecutor}, whose tasks cannot
     * be cancelled): a deadline is cancelled and removed as soon as its attempt completes, so its task, which holds
     * the attempt's response and body, does not keep a delivered body reachable for the rest of the timeout.
     */
    private final ScheduledThreadPoolExecutor timers;
    private volatile boolean closed;
    /** Objects started and not yet completed, with their URIs: what {@link #close()} fails. */
    private final ConcurrentHashMap<CompletableFuture<Sample>, URI> inProgress = new ConcurrentHashMap<>();
    /**
     * Exchanges whose completion handler has not finished, or whose body still holds its buffer: the handler owns
     * (delivers or releases) what the body collected, and runs on the client's executor (the common pool); an aborted
     * body frees its buffer when its onNext lets go, on a client thread. {@link #close()} waits for these too.
     */
    private final java.util.Set<CompletableFuture<Void>> openCalls = ConcurrentHashMap.newKeySet();
    /**
     * The callers' futures not completed yet: an exchange's handler can finish (its call settled) a moment before the
     * thread that chains the caller's future to it completes that future, so close() also waits for these.
     */
    private final java.util.Set<CompletableFuture<Sample>> pendingOuts = ConcurrentHashMap.newKeySet();
    /**
     * The exchange whose completion handler runs on this thread: code the handler runs (a callback on the object's
     * future) may call {@link #close()}, which must not wait for the handler it is called from.
     */
    private static final ThreadLocal<CompletableFuture<Void>> HANDLING = new ThreadLocal<>();
    /** Marks an exchange settled without a body: a body handler called later collects nothing. Never subscribed. */
    private static final AllocatorBodySubscriber NO_BODY = new AllocatorBodySubscriber(null, 0, 0);

    /**
     * Creates a fetcher with its own HTTP/1.1 client.
     *
     * @param settings  limits, retries and timeouts
     * @param allocator where bodies go
     */
    public HttpObjectFetcher(HttpFetchSettings settings, SampleAllocator allocator) {
        this(settings, allocator, LargeBodies.NONE);
    }

    /**
     * Creates a fetcher with its own HTTP/1.1 client whose large bodies take their buffers as {@code large} says: for
     * an allocator with few large buffers (a pool whose largest size class holds a few slabs).
     *
     * @param settings  limits, retries and timeouts
     * @param allocator where bodies go
     * @param large     which bodies are large, and whether they take their buffers in call order
     */
    public HttpObjectFetcher(HttpFetchSettings settings, SampleAllocator allocator, LargeBodies large) {
        this.settings = settings;
        this.allocator = allocator;
        this.large = Objects.requireNonNull(large, "large");
        this.turns = large.inCallOrder() ? new LargeBufferTurns() : null;
        this.permits = new AsyncPermits(settings.maxInFlight());
        this.breakers = new EndpointBreakers(settings.circuitBreaker());
        this.timers = new ScheduledThreadPoolExecutor(1, runnable -> {
            Thread t = new Thread(runnable, "spdl4j-http-timer-" + TIMER_THREADS.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        timers.setRemoveOnCancelPolicy(true);
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
        // The caller's own future: it may complete it first (cancel, orTimeout), and the object then arrives to
        // nobody, so it is closed here (its body back to the allocator) rather than dropped with its buffer.
        CompletableFuture<Sample> out = new CompletableFuture<>();
        pendingOuts.add(out);
        out.whenComplete((sample, error) -> pendingOuts.remove(out)); // one more action per request: close's wait
        long ticket = turns == null ? -1 : turns.ticket(); // call order (LargeBodies); opened once the fetch starts
        permits.submit(() -> {
            CompletableFuture<Sample> result = new CompletableFuture<>();
            inProgress.put(result, uri);
            if (turns != null) {
                turns.open(ticket);
            }
            result.whenComplete((sample, error) -> {
                inProgress.remove(result);
                if (turns != null) {
                    turns.pass(ticket); // done: holds its buffer (delivered) or none
                }
            });
            attempt(uri, 1, result, ticket);
            return result;
        }).whenComplete((sample, error) -> {
            if (error != null) {
                out.completeExceptionally(error);
            } else if (!out.complete(sample)) {
                sample.close(); // the caller gave up on the stage first
            }
        });
        return out;
    }

    /** {@return the in-flight bound, for stats and tests} */
    public AsyncPermits permits() {
        return permits;
    }

    /** {@return the attempts made so far, retries included} */
    public long attemptsMade() {
        return attemptsMade.get();
    }

    /** {@return deadline and back-off timers not yet run or cancelled, for tests} */
    int pendingTimers() {
        return timers.getQueue().size();
    }

    /** {@return bodies waiting for older objects to take their large buffers now, for tests} */
    int bodiesAwaitingTurn() {
        return turns == null ? 0 : turns.waiting();
    }

    private void attempt(URI uri, int attempt, CompletableFuture<Sample> result, long ticket) {
        if (closed) {
            result.completeExceptionally(new FetchException(uri, attempt - 1, -1, "fetcher closed", null));
            return;
        }
        EndpointBreaker breaker = breakers.forUri(uri);
        EndpointBreaker.Admission admission = breaker == null ? EndpointBreaker.Admission.SEND : breaker.admit();
        if (admission == EndpointBreaker.Admission.REFUSED) {
            result.completeExceptionally(new FetchException(uri, attempt - 1, -1, breaker.describeOpen()
                    + " (not retried)", null));
            return;
        }
        attemptsMade.incrementAndGet();
        try {
            send(uri, attempt, result, ticket, breaker, admission);
        } catch (RuntimeException e) { // a URI the client refuses (no http/https scheme, no host) or a closed client
            if (breaker != null) {
                breaker.abandoned(admission);
            }
            result.completeExceptionally(new FetchException(uri, attempt, -1, "request not sent: " + e.getMessage()
                    + " (not retryable)", e));
        }
    }

    private void send(URI uri, int attempt, CompletableFuture<Sample> result, long ticket, EndpointBreaker breaker,
                      EndpointBreaker.Admission admission) {
        HttpRequest request = HttpRequest.newBuilder(uri).timeout(settings.attemptTimeout()).GET().build();
        // Written by the client's thread, read by the deadline timer's thread and when the exchange settles, which
        // closes it to late bodies (NO_BODY): an aborted exchange can complete while the client still calls the body
        // handler, and a body subscribed after the settle would take a buffer after close() returned.
        AtomicReference<AllocatorBodySubscriber> body = new AtomicReference<>();
        HttpResponse.BodyHandler<ByteBuffer> handler = info -> {
            if (info.statusCode() / 100 != 2) {
                return HttpResponse.BodySubscribers.replacing(null); // discard an error body
            }
            AllocatorBodySubscriber b = new AllocatorBodySubscriber(allocator,
                    info.headers().firstValueAsLong("Content-Length").orElse(-1), settings.maxBodyBytes(),
                    large.minBytes(), turns, ticket);
            if (!body.compareAndSet(null, b)) {
                return HttpResponse.BodySubscribers.replacing(null); // the exchange settled already: collect nothing
            }
            return b;
        };
        long sentAt = System.nanoTime();
        // Registered before the exchange starts and settled when its handler has run: close() waits for it, so no body
        // is released into a pool its owner closed after close() returned. Registering, then checking `closed`
        // (close sets it, then reads the set) means close either sees this exchange or this call sees close.
        CompletableFuture<Void> settled = new CompletableFuture<>();
        openCalls.add(settled);
        if (closed) {
            openCalls.remove(settled);
            if (breaker != null) {
                breaker.abandoned(admission);
            }
            result.completeExceptionally(new FetchException(uri, attempt - 1, -1, "fetcher closed", null));
            return;
        }
        CompletableFuture<HttpResponse<ByteBuffer>> call;
        try {
            call = client.sendAsync(request, handler);
        } catch (RuntimeException | Error e) {
            openCalls.remove(settled);
            settled.complete(null);
            throw e;
        }
        // The handler is attached before anything else can fail (a deadline refused by a closing timer), so every
        // exchange passes through it.
        CompletableFuture<?> handled = call.whenComplete((response, error) -> {
            HANDLING.set(settled);
            try {
                handle(uri, attempt, result, ticket, call, body.get(), sentAt, response, error, breaker, admission);
            } finally {
                HANDLING.remove();
            }
        });
        handled.whenComplete((ignored, error) -> {
            // Settled once the body is finished too: an aborted body gives its buffer back only when its onNext lets
            // go (it may be copying a chunk into it, or waiting in the allocator), on a client thread that close()
            // cannot join (the client's awaitTermination joins its selector thread only).
            AllocatorBodySubscriber b = body.compareAndExchange(null, NO_BODY); // no body after this one
            CompletionStage<?> finished = b == null ? CompletableFuture.completedFuture(null) : b.getBody();
            finished.whenComplete((bytes, failed) -> {
                openCalls.remove(settled);
                settled.complete(null);
            });
        });
        // The whole attempt, body included, has a deadline (not counting a wait for its turn). Cancelling the client's
        // future aborts the exchange; the call then completes with an error and the handler gives the body back.
        AttemptDeadline deadline = new AttemptDeadline(timers, call, () -> {
            AllocatorBodySubscriber b = body.get();
            return b == null ? 0 : b.waitedForTurnNanos();
        }, settings.attemptTimeout().toNanos());
        try {
            deadline.arm();
            call.whenComplete((response, error) -> deadline.disarm()); // it no longer holds the response
        } catch (RejectedExecutionException closing) { // closed since attempt() looked: abort, the handler frees
            call.cancel(true);
        }
    }

    /**
     * The completion handler of one exchange: delivers the object, releases what the body collected when the
     * response was not delivered, or retries.
     */
    private void handle(URI uri, int attempt, CompletableFuture<Sample> result, long ticket,
                        CompletableFuture<HttpResponse<ByteBuffer>> call, AllocatorBodySubscriber collected,
                        long sentAt, HttpResponse<ByteBuffer> response, Throwable error, EndpointBreaker breaker,
                        EndpointBreaker.Admission admission) {
        if (error != null) {
            // The response was not delivered (deadline, shutdown, network error), so what the body collected is
            // ours, however far it got: the body may even be complete when the exchange is aborted after it.
            AllocatorBodySubscriber b = collected;
            if (b != null) {
                b.abort(); // still collecting: releases its buffer; completed: loses, and the line below frees
                b.getBody().thenAccept(allocator::release);
            }
        }
        if (error == null && response.statusCode() / 100 == 2) {
            if (breaker != null) {
                breaker.succeeded(admission);
            }
            ByteBuffer bytes = response.body();
            Sample sample = new Sample(uri.toString(), Sample.NO_LABEL, uri.toString(),
                    List.of(new SampleField("bytes", bytes)), allocator);
            if (!result.complete(sample)) {
                sample.close(); // close() failed the object first: nobody else will get this body
            }
            return;
        }
        int status = error == null ? response.statusCode() : -1;
        Throwable cause = unwrap(error);
        String what = error == null ? "HTTP " + status
                : !closed && (call.isCancelled() || timedOut(cause)
                        || System.nanoTime() - sentAt >= settings.attemptTimeout().toNanos())
                        ? "timed out after " + settings.attemptTimeout().toMillis() + " ms (" + cause + ")"
                : cause.toString();
        boolean retryable = error == null ? status / 100 == 5 || status == 429
                : cause instanceof IOException || call.isCancelled()
                        || cause instanceof java.util.concurrent.CancellationException;
        if (cause instanceof IOException && cause.getMessage() != null
                && cause.getMessage().contains("exceeds the limit")) {
            retryable = false;
        }
        if (closed) {
            retryable = false;
            what = "fetcher closed during the attempt";
        }
        if (breaker != null) {
            judge(breaker, admission, error, status, cause, what, retryable);
        }
        if (!retryable || attempt >= settings.maxAttempts()) {
            result.completeExceptionally(new FetchException(uri, attempt, status,
                    retryable ? what + " (last retry)" : what + " (not retryable)", cause));
            return;
        }
        try {
            timers.schedule(() -> attempt(uri, attempt + 1, result, ticket), backoffMillis(attempt),
                    TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException closing) { // closed between the check and the schedule
            result.completeExceptionally(new FetchException(uri, attempt, status, "fetcher closed", cause));
        }
    }

    /**
     * Tells the endpoint's breaker how an attempt that delivered nothing went: a 5xx, a timeout or an I/O error
     * (refused, reset, dropped) counts against the endpoint; any other answer (a 4xx, a body over the limit) shows it
     * alive; the fetcher closing, or another error of the client, says nothing of it.
     */
    private void judge(EndpointBreaker breaker, EndpointBreaker.Admission admission, Throwable error, int status,
                       Throwable cause, String what, boolean retryable) {
        if (closed) {
            breaker.abandoned(admission);
        } else if (error == null) {
            if (status / 100 == 5) {
                breaker.failed(admission, what);
            } else {
                breaker.succeeded(admission);
            }
        } else if (retryable) { // I/O errors and timeouts: the endpoint did not answer
            breaker.failed(admission, what);
        } else if (cause instanceof IOException) { // a body over the limit: the endpoint answered
            breaker.succeeded(admission);
        } else {
            breaker.abandoned(admission);
        }
    }

    private long backoffMillis(int attempt) {
        long base = settings.initialBackoff().toMillis() << Math.min(attempt - 1, 20);
        long capped = Math.min(base, settings.maxBackoff().toMillis());
        long half = capped / 2;
        return half + (half > 0 ? ThreadLocalRandom.current().nextLong(half + 1) : 0);
    }

    /** {@return whether the client's own request timeout is anywhere in the cause chain} */
    private static boolean timedOut(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof java.net.http.HttpTimeoutException) {
                return true;
            }
        }
        return false;
    }

    private static Throwable unwrap(Throwable t) {
        Throwable c = t;
        while ((c instanceof CompletionException || c instanceof ExecutionException) && c.getCause() != null) {
            c = c.getCause();
        }
        return c;
    }

    /**
     * Shuts the fetcher down: exchanges in progress are aborted, and every object not yet delivered completes with a
     * {@link FetchException} (no further retries). Idempotent.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (turns != null) {
            turns.close(); // bodies waiting for their turn go on (their exchanges are aborted just below)
        }
        timers.shutdownNow(); // back-offs and deadlines: dropped (the objects they serve are failed below)
        client.shutdownNow(); // aborts exchanges in progress; a body that still arrives is released, not delivered
        for (var e : inProgress.entrySet()) {
            e.getKey().completeExceptionally(new FetchException(e.getValue(), 0, -1, "fetcher closed", null));
        }
        // Bodies still arriving on the client's threads release their buffers as the client winds down, and the
        // exchanges' handlers run on the common pool after that: wait (bounded) for both, so that the owner can close
        // the buffers' pool right after this returns. An interrupt does not cut the wait short (it is set again).
        long deadline = System.nanoTime() + CLOSE_WAIT.toNanos();
        boolean interrupted = false;
        for (;;) {
            try {
                if (!client.awaitTermination(Duration.ofNanos(Math.max(0, deadline - System.nanoTime())))) {
                    LOG.warn("HTTP fetcher: the client's threads were still running {} after close", CLOSE_WAIT);
                }
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        CompletableFuture<Void> own = HANDLING.get(); // close() from code an exchange's handler runs: not waited for
        CompletableFuture<?>[] calls = openCalls.stream().filter(f -> f != own).toArray(CompletableFuture<?>[]::new);
        for (;;) {
            try {
                CompletableFuture.allOf(calls).get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                break;
            } catch (ExecutionException cannotHappen) { // settled futures complete normally
                break;
            } catch (java.util.concurrent.TimeoutException e) {
                LOG.warn("HTTP fetcher: {} exchange(s) not settled {} after close; their bodies may be released "
                        + "late", openCalls.size(), CLOSE_WAIT);
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (own == null) { // not from a handler: its own caller's future completes only after it returns
            CompletableFuture<?>[] outs = pendingOuts.toArray(CompletableFuture<?>[]::new);
            for (;;) {
                try {
                    CompletableFuture.allOf(outs).get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                    break;
                } catch (ExecutionException failedOne) { // a failed fetch is settled too
                    if (java.util.Arrays.stream(outs).allMatch(CompletableFuture::isDone)) {
                        break;
                    }
                } catch (java.util.concurrent.TimeoutException e) {
                    LOG.warn("HTTP fetcher: {} caller future(s) not completed {} after close", pendingOuts.size(),
                            CLOSE_WAIT);
                    break;
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
