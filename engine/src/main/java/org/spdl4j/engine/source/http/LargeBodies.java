package org.spdl4j.engine.source.http;

/**
 * How an {@link HttpObjectFetcher} takes the buffers of large bodies, for an allocator with few large buffers (a pool
 * whose largest size class holds a few slabs). A body is large when its {@code Content-Length}, or the buffer a body
 * of unknown length has outgrown, is over {@code minBytes}.
 *
 * <p><b>One large buffer per body:</b> a body of unknown length that outgrows {@code minBytes} grows at once to the
 * fetcher's {@link HttpFetchSettings#maxBodyBytes()}, not by doubling: each doubling takes its buffer while holding
 * the one before, so two such bodies on a class of two slabs each held one and waited for the other's until the
 * allocator gave up. <b>Call order</b> ({@code inCallOrder}): large bodies take their buffers in the order their
 * objects were asked for ({@link HttpObjectFetcher#apply} calls), for a consumer that takes objects in that order and
 * holds younger ones until the older are done (an {@code INPUT}-ordered async stage); the fetcher keeps the turns in
 * a {@link org.spdl4j.engine.source.LargeBufferTurns} whose tickets open when their fetches start. Else a younger
 * large body could take the last large buffers and wait, held, behind an older one that waits for a buffer: a stall
 * until the allocator's timeout, then the older object failed. In turn, every large buffer a waiting body needs is
 * held by an older object or by the consumer, and both give it back without waiting for this body.
 *
 * @param minBytes    the largest body that is not large: the largest buffer the allocator has plenty of, at least 0
 * @param inCallOrder whether large bodies take their buffers in call order
 */
public record LargeBodies(int minBytes, boolean inCallOrder) {
    /** No body is large: bodies of unknown length grow by doubling, and buffers are taken in any order. */
    public static final LargeBodies NONE = new LargeBodies(Integer.MAX_VALUE, false);

    /** Checks the size. */
    public LargeBodies {
        if (minBytes < 0) {
            throw new IllegalArgumentException("large bodies: minBytes must be >= 0, got " + minBytes);
        }
    }
}
