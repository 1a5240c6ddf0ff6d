package org.spdl4j.examples.cli;

import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.spdl4j.media.MediaInfo;
import org.spdl4j.media.MediaProbe;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code spdl4j probe FILE}: container, duration and every stream of a media file, as FFmpeg sees it. */
@Command(name = "probe", description = "Show media information of a file (FFmpeg).", mixinStandardHelpOptions = true)
final class ProbeCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "FILE", description = "an image, video or audio file")
    Path file;

    @Override
    public Integer call() {
        String problem = MediaProbe.problem(file); // never opens it: a FIFO would block until a writer came
        if (problem != null) {
            throw new ParameterException(spec.commandLine(), "FILE " + file + ": " + problem);
        }
        MediaInfo info = MediaProbe.probe(file);
        var out = spec.commandLine().getOut();
        out.printf(Locale.ROOT, "%s%n  container %s, duration %.3f s, bit rate %d b/s%n", info.input(), info.container(),
            info.durationSeconds(), info.bitRate());
        for (MediaInfo.Stream s : info.streams()) {
            if ("video".equals(s.type())) {
                out.printf(Locale.ROOT, "  #%d video %s %dx%d %.3f fps, %d frames, %.3f s%n", s.index(), s.codec(),
                    s.width(), s.height(), s.fps(), s.frames(), s.durationSeconds());
            } else if ("audio".equals(s.type())) {
                out.printf(Locale.ROOT, "  #%d audio %s %d Hz, %d channels, %.3f s%n", s.index(), s.codec(),
                    s.sampleRate(), s.channels(), s.durationSeconds());
            } else {
                out.printf(Locale.ROOT, "  #%d %s %s%n", s.index(), s.type(), s.codec());
            }
        }
        out.flush();
        return 0;
    }
}
