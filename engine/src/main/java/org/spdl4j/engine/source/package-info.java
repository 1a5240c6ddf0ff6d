/**
 * Sources: where a pipeline's items come from, deterministic and resumable.
 *
 * <h2>Shape</h2>
 * <pre>
 *  IndexedDataset&lt;T&gt;  (FolderDataset, FileListDataset: random access by index)
 *        |  + DistributedSampler (rank/world sharding, keyed permutation per seed+epoch, drop/pad)
 *        v
 *  EpochSource&lt;T&gt;    (SampledSource, WebDatasetSource, WeightedMixSource: open(epoch, position))
 *        |
 *        v
 *  EpochIterable&lt;T&gt;  (an Iterable the pipeline builder takes; each iterator() is the next epoch;
 *                     continuous() crosses epochs; state() / resume for exact mid-epoch restart)
 * </pre>
 * Reading bytes is a separate step the engine runs as a pipe: {@link org.spdl4j.engine.source.FileSampleReader}
 * (blocking, one file) or {@link org.spdl4j.engine.source.http.HttpObjectFetcher} (asynchronous,
 * {@code CompletionStage}). Tar shards ({@link org.spdl4j.engine.source.tar.WebDatasetSource}) read bytes while
 * iterating, since a tar is a stream.
 *
 * <h2>Bytes</h2>
 * A {@link org.spdl4j.engine.source.Sample} holds its fields' bytes in {@link java.nio.ByteBuffer}s obtained from a
 * {@link org.spdl4j.engine.source.SampleAllocator} (heap by default;
 * {@link org.spdl4j.engine.source.PooledSampleAllocator} puts them in an off-heap pool's slabs).
 * Channels read straight into them: one copy from storage, none after. Where an allocator has few large buffers
 * and the consumer takes items in order, {@link org.spdl4j.engine.source.LargeBufferTurns} makes requests take them
 * in ticket order (younger ones cannot hold the buffers an older one waits for).
 *
 * <h2>Resume</h2>
 * A {@link org.spdl4j.engine.source.SourceState} (seed, epoch, position) saved after k items of an epoch restores a
 * source that yields items k+1... of the uninterrupted run. With a pipeline in INPUT order and batch size b, the
 * state after batch k is {@code (seed, epoch, k * b)}.
 */
package org.spdl4j.engine.source;
