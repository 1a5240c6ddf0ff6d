/**
 * The {@link org.spdl4j.engine.loader.DataLoader} facade, as SPDL's: a source, a preprocess function with its
 * concurrency, batching, an optional collate and transfer step, a consumer buffer and a timeout, with defaults that
 * suit the machine. It builds an ordinary {@link org.spdl4j.engine.Pipeline}; everything it does can be written with
 * {@link org.spdl4j.engine.PipelineBuilder} directly when more stages are needed.
 */
package org.spdl4j.engine.loader;
