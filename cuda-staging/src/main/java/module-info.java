/**
 * spdl4j cuda-staging: host batches to the GPU (JCuda driver API): pinned host memory for the off-heap pool, a
 * device buffer pool, streams and events, the host-to-device copy stage; a host-memory stand-in without a GPU.
 *
 * <p>On the module path it needs {@code --enable-native-access=org.spdl4j.cuda,jcuda} (the driver probe's FFM
 * lookup; JCuda's native libraries, found in the {@code jcuda.natives} module) besides what
 * {@code org.spdl4j.offheap} needs.
 */
@SuppressWarnings("requires-automatic") // JCuda has no module name: "jcuda" comes from the jar's file name
module org.spdl4j.cuda {
    requires transitive org.spdl4j.offheap;
    requires jcuda;
    requires org.slf4j;

    exports org.spdl4j.cuda;
}
