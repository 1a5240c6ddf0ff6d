/**
 * The loader: any source of samples, read into pooled memory, decoded straight into the slots of off-heap batches,
 * optionally transferred (to a GPU), delivered with each sample's key and label, and resumable exactly to the sample
 * from a {@link org.spdl4j.loader.LoaderState}. Start at {@link org.spdl4j.loader.Loader#builder()}.
 */
package org.spdl4j.loader;
