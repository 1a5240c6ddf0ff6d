package org.spdl4j.examples.cli;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Properties;
import org.spdl4j.engine.OutputOrder;
import org.spdl4j.engine.WaitPolicy;
import org.spdl4j.examples.image.ImageLoaderOptions;
import org.spdl4j.media.RandomResizedCrop;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * The image pipeline's options shared by {@code run} and {@code tune} (mixed into both), and the pipeline config file
 * ({@code --config}, Java properties, as {@code tune} writes it). Options given on the command line win over the
 * file; the file wins over the machine's defaults. {@code profile} measures each stage alone at its own
 * concurrencies, and {@code soak} runs the default pipeline: neither takes these options.
 */
final class PipelineArgs {
    @Option(names = "--batch-size", paramLabel = "N", description = "samples per batch (default 32)")
    Integer batchSize;

    @Option(names = "--read-concurrency", paramLabel = "N", description = "file reads, or URL fetches, in flight (default"
        + " 4 x cores; tar shards are read member by member)")
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

    @Option(names = "--config", paramLabel = "FILE", description = "a pipeline config file (see: spdl4j tune)")
    Path config;

    /** Config keys. */
    static final String BATCH = "batch.size";
    static final String READ = "read.concurrency";
    static final String DECODE = "decode.threads";
    static final String ORDER = "order";
    static final String WAIT = "wait";
    static final String AUGMENT = "augment";

    ImageLoaderOptions resolve(CommandSpec spec) {
        Properties file = new Properties();
        if (config != null) {
            try (Reader r = Files.newBufferedReader(config)) {
                file.load(r);
            } catch (IOException e) {
                throw new ParameterException(spec.commandLine(), "--config " + config + ": " + e.getMessage());
            }
        }
        ImageLoaderOptions o = ImageLoaderOptions.defaults();
        o = o.withBatchSize(positive(spec, "--batch-size", pick(spec, batchSize, file, BATCH, o.batchSize())));
        o = o.withReadConcurrency(positive(spec, "--read-concurrency", pick(spec, readConcurrency, file, READ,
            o.readConcurrency())));
        o = o.withDecodeConcurrency(positive(spec, "--decode-threads", pick(spec, decodeThreads, file, DECODE,
            o.decodeConcurrency())));
        String ord = (order != null ? order : file.getProperty(ORDER, "completion")).trim();
        o = o.withOrder(switch (ord.toLowerCase(Locale.ROOT)) {
            case "completion" -> OutputOrder.COMPLETION;
            case "input" -> OutputOrder.INPUT;
            default -> throw new ParameterException(spec.commandLine(), "--order " + ord + ": use completion or input");
        });
        String wait = (waitPolicy != null ? waitPolicy : file.getProperty(WAIT, "backoff")).trim();
        o = o.withWaitPolicy(switch (wait.toLowerCase(Locale.ROOT)) {
            case "backoff" -> WaitPolicy.BACKOFF;
            case "busy-spin" -> WaitPolicy.BUSY_SPIN;
            case "yielding" -> WaitPolicy.YIELDING;
            case "blocking" -> WaitPolicy.BLOCKING;
            default -> throw new ParameterException(spec.commandLine(), "--wait " + wait
                + ": use backoff, busy-spin, yielding or blocking");
        });
        boolean training = augment != null ? augment : Boolean.parseBoolean(file.getProperty(AUGMENT, "false").trim());
        return o.withAugmentation(training ? RandomResizedCrop.imagenet() : null, 0); // the run sets the seed
    }

    /**
     * {@return the options with the run's seed as the augmentation seed (no change without augmentation)}
     *
     * @param o    resolved options
     * @param seed the run's seed
     */
    static ImageLoaderOptions seeded(ImageLoaderOptions o, long seed) {
        return o.augment() == null ? o : o.withAugmentation(o.augment(), seed);
    }

    /**
     * Writes options as a config file that {@code --config} reads back.
     *
     * @param o       the options
     * @param file    where
     * @param comment a first line saying where they came from
     * @throws IOException when it cannot be written
     */
    static void write(ImageLoaderOptions o, Path file, String comment) throws IOException {
        String text = "# spdl4j pipeline config: spdl4j run --config " + file.getFileName() + "\n# " + comment + "\n"
            + BATCH + "=" + o.batchSize() + "\n" + READ + "=" + o.readConcurrency() + "\n" + DECODE + "="
            + o.decodeConcurrency() + "\n" + ORDER + "=" + o.order().name().toLowerCase(Locale.ROOT) + "\n" + WAIT + "="
            + o.waitPolicy().name().toLowerCase(Locale.ROOT).replace('_', '-') + "\n" + AUGMENT + "="
            + (o.augment() != null) + "\n";
        Files.writeString(file, text);
    }

    private int pick(CommandSpec spec, Integer cli, Properties file, String key, int def) {
        if (cli != null) {
            return cli;
        }
        String v = file.getProperty(key);
        if (v == null) {
            return def;
        }
        try {
            return Integer.parseInt(v.trim());
        } catch (NumberFormatException e) {
            throw new ParameterException(spec.commandLine(), "--config " + config + ": " + key + "=" + v.trim()
                + " is not a whole number");
        }
    }

    private static int positive(CommandSpec spec, String name, int v) {
        if (v < 1) {
            throw new ParameterException(spec.commandLine(), name + " must be at least 1, got " + v);
        }
        return v;
    }
}
