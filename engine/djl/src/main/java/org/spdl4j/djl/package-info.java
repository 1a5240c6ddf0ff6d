/**
 * Loader batches for DJL: {@link org.spdl4j.djl.NdBatchAdapter} (a {@code LoadedBatch} as {@code NDArray}s over its
 * memory), {@link org.spdl4j.djl.NormalizingSlotDecoder} (uint8 {@code [H, W, C]} pixels to normalized float
 * {@code [C, H, W]}, in the decode workers) and {@link org.spdl4j.djl.LoaderDataset} (a DJL {@code Dataset} on a
 * loader).
 */
package org.spdl4j.djl;
