/**
 * spdl4j's DJL adapter: a loader's batches as DJL {@code NDArray}s over the batch's own off-heap memory (no copy on
 * DJL's PyTorch engine on the CPU), the batch memory held until both the loader's batch and the arrays are released;
 * a decode step that writes normalized float {@code [C, H, W]} samples straight into the batch; and a DJL
 * {@code Dataset} whose batches come from a spdl4j loader, for {@code Trainer.iterateDataset} and
 * {@code EasyTrain.fit}. DJL's API is the only DJL artifact it needs; the application picks the engine.
 */
// requires-automatic: DJL's API jar has only an Automatic-Module-Name (ai.djl.api)
@SuppressWarnings({"requires-automatic", "requires-transitive-automatic"})
module org.spdl4j.djl {
    requires transitive org.spdl4j.engine;
    requires transitive ai.djl.api; // NdBatch and LoaderDataset hand out NDArrays and DJL batches
    requires org.slf4j;

    exports org.spdl4j.djl;
}
