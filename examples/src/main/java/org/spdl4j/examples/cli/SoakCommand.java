package org.spdl4j.examples.cli;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import org.spdl4j.examples.soak.SoakRunner;
import org.spdl4j.loader.SampleSource;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code spdl4j soak --minutes N}: the image loader over and over, sampling RSS, heap, native memory and threads
 * every 10 s into {@code soak.csv} and {@code soak.svg}; exits 1 when RSS grew 5% or more after warm-up.
 */
@Command(name = "soak", mixinStandardHelpOptions = true,
    description = "Run the image loader for N minutes and watch memory and threads.")
final class SoakCommand implements Callable<Integer> {
    /** The longest soak: its deadline, in nanoseconds from the start, must fit in a {@code long}. */
    static final long MAX_MINUTES = Long.MAX_VALUE / 60_000_000_000L;

    @Spec
    CommandSpec spec;

    @Option(names = "--minutes", paramLabel = "N", defaultValue = "10", description = "how long (default ${DEFAULT-VALUE})")
    double minutes;

    @Option(names = "--data", paramLabel = "DIR", description = "a folder of images (class sub-folders, or images"
        + " directly in it), as run reads it; default: a generated sample")
    Path data;

    @Option(names = "--out", paramLabel = "DIR", defaultValue = "spdl4j-soak",
        description = "where soak.csv and soak.svg go (default ${DEFAULT-VALUE})")
    Path out;

    @Override
    public Integer call() {
        if (!(minutes > 0)) {
            throw new ParameterException(spec.commandLine(), "--minutes must be > 0, got " + minutes);
        }
        if (!(minutes <= MAX_MINUTES)) { // Infinity too: the deadline is a long of nanoseconds
            throw new ParameterException(spec.commandLine(), "--minutes " + minutes + ": must be at most "
                + MAX_MINUTES + " (about 290 years)");
        }
        if (data != null) { // the user's folder: read it, never write a generated sample into it
            if (!java.nio.file.Files.isDirectory(data)) {
                throw new ParameterException(spec.commandLine(), "--data " + data + ": not a folder");
            }
            if (DataArgs.files(data, SampleSource.IMAGE_EXTENSIONS).size() == 0) {
                throw new ParameterException(spec.commandLine(), "--data " + data + ": no images ("
                    + String.join(", ", new java.util.TreeSet<>(SampleSource.IMAGE_EXTENSIONS))
                    + ") in it or in class sub-folders (" + data + "/<class>/<image>); omit --data to soak on a"
                    + " generated sample");
            }
        }
        OutputPaths.checkDirectory(spec, "--out", out);
        Path images = data != null ? data : DataArgs.samplePath(SoakRunner.SAMPLE_IMAGES);
        return SoakRunner.run(images, Duration.ofMillis((long) (minutes * 60_000)), out, spec.commandLine().getOut());
    }
}
