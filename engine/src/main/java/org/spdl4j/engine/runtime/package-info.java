/**
 * The running pipeline: one {@link org.spdl4j.engine.runtime.PipelineRuntime} per run, holding the links, the
 * workers and their threads.
 *
 * <p>Workers are duty cycles on named platform threads ({@code spdl4j-<pipeline>-<stage>-<n>}):
 * the source worker, sync map workers (sharing their input by CAS, publishing directly or through a reorder window),
 * an async dispatcher per async or virtual-thread pipe (tasks in flight in preallocated entries), and single workers
 * for aggregation and disaggregation. End of stream travels in-band as end markers: the last worker of a stage to
 * finish publishes one marker per downstream worker. Failures are counted per stage against its budget; the first
 * failure that decides stops every wait and alerts every link, and the consumer's next call throws it.
 *
 * <p>Everything a worker needs per item is preallocated; the only allocations on the engine's path are the ones a
 * stage function or an async task makes by nature (a {@code CompletionStage} callback, a virtual thread).
 */
package org.spdl4j.engine.runtime;
