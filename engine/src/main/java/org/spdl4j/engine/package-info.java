/**
 * spdl4j's pipeline engine: describe a pipeline with {@link org.spdl4j.engine.PipelineBuilder}, run and read it as a
 * {@link org.spdl4j.engine.Pipeline}.
 *
 * <p>A pipeline is a source, stages and a consumer, joined by preallocated Disruptor rings. Each stage runs on its
 * own named threads ({@code spdl4j-<pipeline>-<stage>-<n>}) with its own {@link org.spdl4j.engine.StageOptions}:
 * concurrency, {@link org.spdl4j.engine.OutputOrder}, {@link org.spdl4j.engine.WaitPolicy}, ring capacity,
 * {@link org.spdl4j.engine.FailureBudget} and task timeout. Full rings stop their producers, so the items in flight
 * are bounded by the capacities and concurrencies, never by the data set. Stats per stage come from
 * {@link org.spdl4j.engine.Pipeline#stats()}.
 *
 * <p>Packages: {@code ring} (links, work sharing, reordering, wait strategies), {@code runtime} (workers, life cycle),
 * {@code stats} (per-stage statistics), {@code affinity} (pinning stage threads to CPUs). Off-heap record rings for
 * small fixed-size records are built on these in their own artifact, spdl4j-records ({@code org.spdl4j.records}).
 */
package org.spdl4j.engine;
