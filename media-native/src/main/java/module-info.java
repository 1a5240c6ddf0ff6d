/**
 * spdl4j media-native: FFmpeg (Bytedeco) decoding of images, video and audio straight into off-heap destinations.
 *
 * <p>On the module path it needs {@code --add-modules org.bytedeco.ffmpeg.linux.x86_64} (JavaCPP's native
 * libraries are a module that no module requires) and
 * {@code --enable-native-access=org.bytedeco.javacpp,org.bytedeco.ffmpeg} besides what {@code org.spdl4j.offheap}
 * needs.
 */
module org.spdl4j.media {
    requires transitive org.spdl4j.offheap;
    requires org.bytedeco.javacpp;
    requires org.bytedeco.ffmpeg;
    requires org.slf4j;
    requires jdk.management;

    exports org.spdl4j.media;
}
