/**
 * spdl4j cuda-staging: host batches to the GPU (JCuda driver API): pinned host memory for the off-heap pool, a
 * device buffer pool, streams and events, the host-to-device copy stage; a host-memory stand-in without a GPU.
 *
 * <p>Needs, on the module path, {@code --enable-native-access=jcuda} (JCuda loads its native libraries) and
 * off-heap's {@code --add-exports java.base/jdk.internal.misc=org.agrona}.
 */
@SuppressWarnings("requires-automatic") // JCuda has no module name: "jcuda" comes from the jar's file name
module org.spdl4j.cuda {
    requires transitive org.spdl4j.offheap;
    requires jcuda;
    requires org.slf4j;

    exports org.spdl4j.cuda;
}
