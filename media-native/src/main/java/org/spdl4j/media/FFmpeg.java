package org.spdl4j.media;

import org.bytedeco.ffmpeg.global.avcodec;
import org.bytedeco.ffmpeg.global.avformat;
import org.bytedeco.ffmpeg.global.avutil;
import org.bytedeco.ffmpeg.global.swscale;
import org.spdl4j.offheap.OffHeapConfiguration;

/**
 * FFmpeg glue shared by the decoders: library initialisation, error text, return-code checks.
 *
 * <p>Thread safe and stateless apart from the one-time log level set in the static initialiser.
 */
final class FFmpeg {
    static {
        // Loading avutil first loads the Bytedeco natives; quiet by default so corrupt inputs do not flood stderr
        // (the error text travels in the MediaException instead).
        avutil.av_log_set_level(MediaConfiguration.FFMPEG_LOG_LEVEL);
    }

    private FFmpeg() {
    }

    /** Forces the static initialiser (library load, log level). */
    static void init() {
        // class initialisation does the work
    }

    /**
     * Loads every FFmpeg library the image path uses (avutil, avcodec, avformat, swscale): their class initialisers
     * load the natives, once per JVM. Cheap after the first call.
     */
    static void preload() {
        OffHeapConfiguration.checkJvmAccess(); // the decoders write through Agrona: name a missing flag first
        try {
            init();
        } catch (UnsatisfiedLinkError | NoClassDefFoundError | ExceptionInInitializerError e) {
            throw new IllegalStateException(loadFailure(e), e);
        }
        if (avcodec.avcodec_find_decoder(avcodec.AV_CODEC_ID_MJPEG) == null
                || avformat.av_find_input_format("image2pipe") == null) {
            throw new IllegalStateException("this FFmpeg build has no MJPEG decoder or image2pipe demuxer");
        }
        swscale.swscale_version();
    }

    /** What to do when FFmpeg's natives cannot be loaded: the artifact on the class path, the flags on the module path. */
    static String loadFailure(final Throwable e) {
        final boolean modulePath = FFmpeg.class.getModule().isNamed();
        return "FFmpeg's native libraries could not be loaded (" + e + "): they come from"
                + " org.bytedeco:ffmpeg:<version>:linux-x86_64 and org.bytedeco:javacpp:<version>:linux-x86_64 (Linux"
                + " x86-64 only), which must be on the " + (modulePath ? "module" : "class") + " path"
                + (modulePath ? "; on the module path also give --add-modules org.bytedeco.ffmpeg.linux.x86_64 and"
                + " --enable-native-access=org.bytedeco.javacpp,org.bytedeco.ffmpeg" : "");
    }

    /**
     * FFmpeg's text for an error code.
     *
     * @param code a negative AVERROR
     * @return the text from av_strerror, with the code
     */
    static String errorText(final int code) {
        // Failure path only: allocating a small array here is fine.
        final byte[] buf = new byte[256];
        avutil.av_strerror(code, buf, buf.length);
        int n = 0;
        while (n < buf.length && buf[n] != 0) {
            n++;
        }
        return new String(buf, 0, n, java.nio.charset.StandardCharsets.UTF_8) + " (" + code + ")";
    }

    /**
     * Throws a {@link MediaException} when {@code ret} is negative.
     *
     * @param ret an FFmpeg return code
     * @param input the input being processed
     * @param step what was being done, e.g. "avcodec_send_packet"
     * @return ret, when not negative
     */
    static int check(final int ret, final String input, final String step) {
        if (ret < 0) {
            throw failure(ret, input, step);
        }
        return ret;
    }

    /**
     * Builds the exception for a failed FFmpeg call.
     *
     * @param ret the negative error code
     * @param input the input being processed
     * @param step the call or step that failed
     * @return the exception to throw
     */
    static MediaException failure(final int ret, final String input, final String step) {
        return new MediaException(input, step + " failed: " + errorText(ret), ret, null);
    }
}
