package org.spdl4j.loader;

import java.net.URI;
import java.util.concurrent.CompletableFuture;
import org.spdl4j.engine.source.Sample;
import org.spdl4j.engine.source.SampleAllocator;
import org.spdl4j.engine.source.tar.ShardOpener;

/**
 * An object store a loader reads from: the plug-in point for S3 and S3-compatible stores (spdl4j-s3's
 * {@code S3ObjectStore}) or any other, without the engine knowing their client library.
 *
 * <p>A loader uses a store two ways. {@link SampleSource#objects} reads each sample as one whole object with
 * {@link #read}: asynchronous, the loader's read stage keeping {@link LoaderBuilder#readConcurrency} reads in flight,
 * each object's bytes landing in one slab of the loader's pool. {@link SampleSource#tarShards(java.util.List,
 * ShardOpener)} streams tar shards through {@link #open} (inherited from {@link ShardOpener}), on the loader's source
 * thread, one shard at a time; the store may read ahead of the stream. Either way, positions and resume are the
 * loader's: a store only returns bytes.
 *
 * <p><b>Threading:</b> implementations are thread-safe. <b>Ownership:</b> the application creates and closes the
 * store; a loader never closes it, so one store serves several loaders (close it after them).
 * <b>Contract of {@link #read}:</b> retries and deadlines are the store's; the returned stage completes once, with a
 * sample that owns one buffer from the given allocator, or exceptionally with a message naming the object, the store
 * and what to do. Cancelling the stage ({@link CompletableFuture#cancel}) must stop the store from writing into that
 * buffer and give it back before {@code cancel} returns: a closing loader cancels the reads in flight and then frees
 * its pool.
 */
public interface ObjectStore extends ShardOpener {
    /**
     * Starts reading one whole object into memory. Does not block (the allocation may, so do it off the calling
     * thread).
     *
     * @param object the object's URI, as the store's own sources name it ({@code s3://bucket/key})
     * @param bytes  where its bytes go: one buffer of the object's size
     * @return the sample (keyed by the object's URI, one field named by the object's extension), completed once
     */
    CompletableFuture<Sample> read(URI object, SampleAllocator bytes);

    /** {@return what the store is, for messages: the bucket and endpoint} */
    String describe();
}
