/**
 * Zero-copy batch assembly: {@link org.spdl4j.offheap.batch.BatchAssembler} hands out input-ordered
 * {@link org.spdl4j.offheap.batch.Slot}s in pooled batch buffers; producers fill them concurrently; a
 * {@link org.spdl4j.offheap.batch.Batch} is published to its {@link org.spdl4j.offheap.batch.BatchConsumer} when its
 * last slot completes, holding only its surviving samples.
 */
package org.spdl4j.offheap.batch;
