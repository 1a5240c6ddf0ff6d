/**
 * spdl4j media-native: FFmpeg (Bytedeco) decoding of images, video and audio straight into off-heap destinations.
 *
 * <p>Needs, on the module path, {@code --enable-native-access=org.bytedeco.javacpp} (JavaCPP loads FFmpeg) and
 * off-heap's {@code --add-exports java.base/jdk.internal.misc=org.agrona}.
 */
module org.spdl4j.media {
    requires transitive org.spdl4j.offheap;
    requires org.bytedeco.javacpp;
    requires org.bytedeco.ffmpeg;
    requires org.slf4j;

    exports org.spdl4j.media;
}
