package org.spdl4j.examples.cli;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import org.spdl4j.engine.EngineConfiguration;
import org.spdl4j.engine.OutputOrder;
import org.spdl4j.engine.WaitPolicy;
import org.spdl4j.examples.AtomicFiles;
import org.spdl4j.loader.internal.IoMessages;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * The loader's options shared by {@code run} and {@code tune} (mixed into both), and the pipeline config file
 * ({@code --config}, Java properties, as {@code tune} writes it). Options given on the command line win over the
 * file; the file wins over the machine's defaults. {@code profile} measures each stage alone at its own
 * concurrencies, and {@code soak} runs the default pipeline: neither takes these options.
 */
@Command(footer = {"%nConfig file keys (--config FILE; one key=value per line):",
    "  batch.size        whole number, 1-14266     (--batch-size)",
    "  read.concurrency  whole number, 1-" + EngineConfiguration.MAX_CONCURRENCY + "     (--read-concurrency)",
    "  decode.threads    whole number, 1-" + EngineConfiguration.MAX_CONCURRENCY + "     (--decode-threads)",
    "  order             completion or input       (--order)",
    "  wait              backoff, busy-spin, yielding or blocking (--wait)",
    "  augment           true or false             (--augment)"})
final class PipelineArgs {
    @Option(names = "--batch-size", paramLabel = "N", description = "samples per batch (default 32; at most 14266 images,"
        + " 7133 video clips: a batch is one slab of at most 2 GiB)")
    Integer batchSize;

    @Option(names = "--read-concurrency", paramLabel = "N", description = "file reads, or URL fetches, in flight (default"
        + " 4 x cores; tar shards are read member by member, and video and audio files by their decoder)")
    Integer readConcurrency;

    @Option(names = "--decode-threads", paramLabel = "N", description = "decode threads (default: cores)")
    Integer decodeThreads;

    @Option(names = "--order", paramLabel = "ORDER", description = "completion (default) or input")
    String order;

    @Option(names = "--wait", paramLabel = "POLICY", description = "backoff (default), busy-spin, yielding, blocking")
    String waitPolicy;

    @Option(names = "--augment", description = "the training transform instead of Resize(256) + CenterCrop(224):"
        + " RandomResizedCrop(224, scale 0.08-1, ratio 3/4-4/3) + horizontal flip (p 0.5), one crop per image and epoch"
        + " drawn from --seed, the epoch and the image's key")
    Boolean augment;

    @Option(names = "--config", paramLabel = "FILE", description = "a pipeline config file (Java properties, as"
        + " spdl4j tune writes it; the keys are listed below); options given on the command line win over it")
    Path config;

    /** Config keys. */
    static final String BATCH = "batch.size";
    static final String READ = "read.concurrency";
    static final String DECODE = "decode.threads";
    static final String ORDER = "order";
    static final String WAIT = "wait";
    static final String AUGMENT = "augment";
    /** Every key a config file may hold, in the order {@link #write} writes them. */
    static final List<String> KEYS = List.of(BATCH, READ, DECODE, ORDER, WAIT, AUGMENT);

    /**
     * {@return the settings: each option given, else the config file's, else the loader's default}
     *
     * @param spec  the command, for errors
     * @param media what a sample is (its size bounds the batch size)
     * @throws ParameterException naming the option, or the file and key, of a bad value
     */
    PipelineSettings resolve(CommandSpec spec, MediaOption media) {
        Properties file = load(spec);
        PipelineSettings d = PipelineSettings.defaults();
        int batch = number(spec, "--batch-size", batchSize, file, BATCH, d.batchSize(), maxBatchSize(media),
            "a batch of more is over 2 GiB (" + media.sampleBytes() + " B per " + media.name() + " sample)");
        int reads = number(spec, "--read-concurrency", readConcurrency, file, READ, d.readConcurrency(),
            EngineConfiguration.MAX_CONCURRENCY, "the most tasks a stage runs at once");
        int decodes = number(spec, "--decode-threads", decodeThreads, file, DECODE, d.decodeConcurrency(),
            EngineConfiguration.MAX_CONCURRENCY, "the most tasks a stage runs at once");
        String ord = text(order, file, ORDER, "completion");
        OutputOrder outputOrder = switch (ord.toLowerCase(Locale.ROOT)) {
            case "completion" -> OutputOrder.COMPLETION;
            case "input" -> OutputOrder.INPUT;
            default -> throw bad(spec, "--order", order, ORDER, ord, ": use completion or input");
        };
        String wait = text(waitPolicy, file, WAIT, "backoff");
        WaitPolicy policy = switch (wait.toLowerCase(Locale.ROOT)) {
            case "backoff" -> WaitPolicy.BACKOFF;
            case "busy-spin" -> WaitPolicy.BUSY_SPIN;
            case "yielding" -> WaitPolicy.YIELDING;
            case "blocking" -> WaitPolicy.BLOCKING;
            default -> throw bad(spec, "--wait", waitPolicy, WAIT, wait, ": use backoff, busy-spin, yielding or blocking");
        };
        boolean training;
        if (augment != null) {
            training = augment;
        } else {
            String a = text(null, file, AUGMENT, "false");
            training = switch (a.toLowerCase(Locale.ROOT)) {
                case "true" -> true;
                case "false" -> false;
                default -> throw bad(spec, "--augment", null, AUGMENT, a, ": use true or false");
            };
        }
        return new PipelineSettings(batch, reads, decodes, outputOrder, policy, training);
    }

    /** The config file's settings (none without {@code --config}); a key it does not know is a bad argument. */
    private Properties load(CommandSpec spec) {
        Properties file = new Properties();
        if (config == null) {
            return file;
        }
        try (Reader r = Files.newBufferedReader(config)) {
            file.load(r);
        } catch (IOException e) {
            throw new ParameterException(spec.commandLine(), "--config " + config + ": " + IoMessages.reason(e));
        } catch (IllegalArgumentException e) { // a malformed unicode escape
            throw new ParameterException(spec.commandLine(), "--config " + config + ": " + e.getMessage());
        }
        for (String key : new java.util.TreeSet<>(file.stringPropertyNames())) {
            if (!KEYS.contains(key)) {
                throw new ParameterException(spec.commandLine(), config + ": unknown key '" + key + "'; the keys are "
                    + String.join(", ", KEYS));
            }
        }
        return file;
    }

    /** {@return the option's value if given, else the file's, else {@code def}; trimmed} */
    private static String text(String cli, Properties file, String key, String def) {
        return (cli != null ? cli : file.getProperty(key, def)).trim();
    }

    /**
     * {@return a bad value's error, named where it came from: {@code --wait X: ...} for an option,
     * {@code FILE: wait=X: ...} for the config file}
     */
    private ParameterException bad(CommandSpec spec, String option, Object cli, String key, String value, String why) {
        return new ParameterException(spec.commandLine(), (cli != null ? option + " " + value
            : config + ": " + key + "=" + value) + why);
    }

    /**
     * Writes options as a config file that {@code --config} reads back: into a temporary file beside it, then moved
     * over it, so a write cut short (full disk, killed process) never leaves a truncated config that would read back
     * as other options (a cut {@code batch.size=32} reads as {@code batch.size=3}).
     *
     * @param o       the settings
     * @param file    where
     * @param comment a first line saying where they came from
     * @throws IOException when it cannot be written
     */
    static void write(PipelineSettings o, Path file, String comment) throws IOException {
        String text = "# spdl4j pipeline config: spdl4j run --config " + file.getFileName() + "\n# " + comment + "\n"
            + BATCH + "=" + o.batchSize() + "\n" + READ + "=" + o.readConcurrency() + "\n" + DECODE + "="
            + o.decodeConcurrency() + "\n" + ORDER + "=" + o.order().name().toLowerCase(Locale.ROOT) + "\n" + WAIT + "="
            + o.waitPolicy().name().toLowerCase(Locale.ROOT).replace('_', '-') + "\n" + AUGMENT + "="
            + o.augment() + "\n";
        AtomicFiles.write(file, tmp -> Files.writeString(tmp, text));
    }

    /**
     * {@return the largest batch the loader takes: a batch is one slab of at most 2 GiB}
     *
     * @param media what a sample is
     */
    static int maxBatchSize(MediaOption media) {
        return (int) (Integer.MAX_VALUE / media.sampleBytes());
    }

    /**
     * {@return a whole-number option's value (the option's, else the file's, else {@code def}), checked to be in
     * [1, max]; outside it is a bad argument}
     */
    private int number(CommandSpec spec, String option, Integer cli, Properties file, String key, int def, int max,
                       String whyMax) {
        int v;
        if (cli != null) {
            v = cli;
        } else {
            String text = file.getProperty(key);
            if (text == null) {
                return def;
            }
            try {
                v = Integer.parseInt(text.trim());
            } catch (NumberFormatException e) {
                throw bad(spec, option, null, key, text.trim(), " is not a whole number");
            }
        }
        if (v < 1) {
            throw bad(spec, option, cli, key, Integer.toString(v), ": must be at least 1");
        }
        if (v > max) {
            throw bad(spec, option, cli, key, Integer.toString(v), ": must be at most " + max + " (" + whyMax + ")");
        }
        return v;
    }
}
