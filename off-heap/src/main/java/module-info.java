/**
 * spdl4j off-heap memory: {@link org.spdl4j.offheap.BufferPool} (preallocated aligned slabs, reference counted
 * {@link org.spdl4j.offheap.Lease}s, leak detection), typed views ({@code tensor}) and zero-copy batch assembly
 * ({@code batch}).
 *
 * <p>On the module path it needs {@code --add-exports java.base/jdk.internal.misc=org.agrona} (Agrona's
 * {@code UnsafeApi}; {@code =ALL-UNNAMED} on the class path, where a pool opened without it fails naming the flag) and
 * {@code --enable-native-access=org.spdl4j.offheap} ({@code MemorySegment} views of slabs).
 */
@SuppressWarnings({"requires-automatic", "requires-transitive-automatic"}) // Agrona has only an Automatic-Module-Name
module org.spdl4j.offheap {
    requires transitive org.agrona; // Lease and Slot hand out UnsafeBuffer views
    requires org.jctools.core;
    requires org.slf4j;

    exports org.spdl4j.offheap;
    exports org.spdl4j.offheap.tensor;
    exports org.spdl4j.offheap.batch;
}
