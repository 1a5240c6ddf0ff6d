package org.spdl4j.media;

import java.util.concurrent.atomic.AtomicBoolean;
import org.bytedeco.ffmpeg.global.avcodec;
import org.bytedeco.ffmpeg.global.avformat;
import org.bytedeco.ffmpeg.global.swresample;
import org.bytedeco.ffmpeg.global.swscale;
import org.bytedeco.javacpp.Loader;

/**
 * Loads FFmpeg's native libraries on a background thread, so a program that will decode can do its other start-up
 * work (argument parsing, listing its data, building pools) meanwhile: loading them (JavaCPP finds, maps and links
 * libavcodec, libavformat, libswscale, libswresample) takes 100-250 ms. A decoder built before the load is done waits
 * for it (JavaCPP's loading is serialized); nothing is loaded twice.
 *
 * <p><b>Threading:</b> thread-safe; at most one daemon thread, {@code spdl4j-native-preload}, which ends once loaded.
 */
public final class NativePreload {
    private static final AtomicBoolean STARTED = new AtomicBoolean();

    private NativePreload() {
    }

    /** Starts loading the libraries in the background, once per process; returns at once. */
    public static void start() {
        if (!STARTED.compareAndSet(false, true)) {
            return;
        }
        Thread t = new Thread(NativePreload::load, "spdl4j-native-preload");
        t.setDaemon(true);
        t.start();
    }

    private static void load() {
        try {
            Loader.load(avcodec.class);
            Loader.load(avformat.class);
            Loader.load(swscale.class);
            Loader.load(swresample.class);
        } catch (RuntimeException | LinkageError e) {
            // The decoder that needs them loads them again and reports the failure with its context.
        }
    }
}
