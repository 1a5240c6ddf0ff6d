package org.spdl4j.s3;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.NonWritableChannelException;
import java.nio.channels.SeekableByteChannel;
import java.util.ArrayDeque;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import software.amazon.awssdk.core.ResponseBytes;
import software.amazon.awssdk.core.async.AsyncResponseTransformer;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;

/**
 * One object read as a stream of ranged GETs, up to {@code readAhead} parts of {@code partSize} bytes in flight ahead
 * of the reader: a tar shard streams at several requests' bandwidth while the reader takes it in order. Seekable:
 * a skip within the parts already asked for takes them as they come (resuming inside a shard skips member data this
 * way); a skip past them, or back, drops them and asks again from there.
 *
 * <p><b>Threading:</b> one reader (the loader's source thread). <b>Blocking:</b> {@link #read} waits for the next
 * part (interruptible; each request bounded by the store's deadline and retries). <b>Memory:</b> at most
 * {@code readAhead} parts on the heap.
 */
final class S3ShardChannel implements SeekableByteChannel {
    private final S3AsyncClient client;
    private final S3ObjectStore store;
    private final String bucket;
    private final String key;
    private final long size;
    private final int partSize;
    private final int readAhead;
    private final ArrayDeque<Part> ahead = new ArrayDeque<>();

    private Part current;
    private ByteBuffer currentBytes;
    private long position;
    private long nextFetch;
    private boolean open = true;

    private record Part(long start, long end, CompletableFuture<ResponseBytes<GetObjectResponse>> bytes) {
    }

    S3ShardChannel(S3AsyncClient client, S3ObjectStore store, String bucket, String key, long size, int partSize,
                   int readAhead) {
        this.client = client;
        this.store = store;
        this.bucket = bucket;
        this.key = key;
        this.size = size;
        this.partSize = partSize;
        this.readAhead = readAhead;
        topUp();
    }

    private void topUp() {
        while (ahead.size() < readAhead && nextFetch < size) {
            long end = Math.min(size, nextFetch + partSize) - 1;
            GetObjectRequest request = GetObjectRequest.builder().bucket(bucket).key(key)
                .range("bytes=" + nextFetch + "-" + end).build();
            ahead.add(new Part(nextFetch, end, client.getObject(request, AsyncResponseTransformer.toBytes())));
            nextFetch = end + 1;
        }
    }

    @Override
    public int read(ByteBuffer dst) throws IOException {
        ensureOpen();
        if (position >= size) {
            return -1;
        }
        if (current == null || position > current.end) {
            advanceTo(position);
        }
        int offset = (int) (position - current.start);
        int n = Math.min(dst.remaining(), currentBytes.limit() - offset);
        dst.put(dst.position(), currentBytes, offset, n);
        dst.position(dst.position() + n);
        position += n;
        return n;
    }

    /** Makes the part holding {@code p} the current one, taking the parts before it as they come, or asking anew. */
    private void advanceTo(long p) throws IOException {
        while (!ahead.isEmpty() && ahead.peekFirst().end < p) {
            ahead.pollFirst().bytes.cancel(true);
        }
        if (ahead.isEmpty() || ahead.peekFirst().start > p) {
            dropAhead();
            nextFetch = p;
        }
        topUp();
        Part part = ahead.pollFirst();
        topUp();
        try {
            currentBytes = part.bytes.get().asByteBuffer();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while reading " + S3StoreException.where(bucket, key,
                store.endpoint()));
        } catch (ExecutionException e) {
            throw new IOException(S3Errors.of(e, bucket, key, store.endpoint(), "GET (range " + part.start + "-"
                + part.end + ")", store.maxAttempts()).getMessage(), e.getCause());
        }
        if (currentBytes.remaining() != part.end - part.start + 1) {
            throw new IOException(S3StoreException.where(bucket, key, store.endpoint()) + ": range " + part.start + "-"
                + part.end + " came back with " + currentBytes.remaining() + " bytes (the object changed while read?)");
        }
        current = part;
    }

    private void dropAhead() {
        for (Part p : ahead) {
            p.bytes.cancel(true);
        }
        ahead.clear();
    }

    @Override
    public long position() throws IOException {
        ensureOpen();
        return position;
    }

    @Override
    public SeekableByteChannel position(long newPosition) throws IOException {
        ensureOpen();
        if (newPosition < 0) {
            throw new IllegalArgumentException("negative position " + newPosition);
        }
        if (current != null && (newPosition < current.start)) {
            // back: whatever was asked for after the current part is of no use now
            current = null;
            currentBytes = null;
            dropAhead();
            nextFetch = newPosition;
        }
        position = newPosition;
        return this;
    }

    @Override
    public long size() throws IOException {
        ensureOpen();
        return size;
    }

    @Override
    public int write(ByteBuffer src) {
        throw new NonWritableChannelException();
    }

    @Override
    public SeekableByteChannel truncate(long newSize) {
        throw new NonWritableChannelException();
    }

    @Override
    public boolean isOpen() {
        return open;
    }

    @Override
    public void close() {
        open = false;
        current = null;
        currentBytes = null;
        dropAhead();
    }

    private void ensureOpen() throws IOException {
        if (!open) {
            throw new ClosedChannelException();
        }
    }
}
