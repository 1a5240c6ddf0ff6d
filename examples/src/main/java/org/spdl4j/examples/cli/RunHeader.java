package org.spdl4j.examples.cli;

import java.io.PrintWriter;
import java.util.Locale;
import org.spdl4j.engine.source.RankInfo;

/**
 * The lines {@code spdl4j run} prints before its first batch: what the data is and how the loader runs it, as it
 * runs (a tar shard is read member by member by the source, whatever {@code --read-concurrency} says; a video or audio
 * decoder opens local files itself).
 *
 * @param data     the data
 * @param media    what a sample is
 * @param settings the loader's settings
 * @param rank     this process's rank
 * @param epochs   epochs
 * @param seed     the run's seed
 * @param shuffle  whether the data is shuffled per epoch
 */
record RunHeader(DataArgs.RunData data, MediaOption media, PipelineSettings settings, RankInfo rank, int epochs,
                 long seed, boolean shuffle) {
    /** {@return one sample, in messages: image or clip} */
    String sampleWord() {
        return media == MediaOption.image ? "image" : "clip";
    }

    /**
     * Prints what the source is, for URL lists, tar shards and ranks.
     *
     * @param out where
     */
    void printSource(PrintWriter out) {
        switch (data.kind()) {
            case URL_LIST -> out.printf(Locale.ROOT, "spdl4j run: %d URL(s), fetched %d at a time%n", data.samples(),
                settings.readConcurrency());
            case TAR_SHARDS -> out.printf(Locale.ROOT, "spdl4j run: %d tar shard(s), read member by member%n",
                data.shards());
            case S3_OBJECTS -> out.printf(Locale.ROOT, "spdl4j run: %s, %d GETs in flight%n",
                data.source().describe(), settings.readConcurrency());
            case S3_SHARDS -> out.printf(Locale.ROOT, "spdl4j run: %s, streamed in ranged GETs%n",
                data.source().describe());
            case MIXTURE -> out.printf(Locale.ROOT, "spdl4j run: %s%n", data.source().describe());
            default -> { }
        }
        if (rank.worldSize() > 1) {
            out.printf(Locale.ROOT, "spdl4j run: rank %d of %d%n", rank.rank(), rank.worldSize());
        }
    }

    /**
     * Prints the run's line: samples, epochs, batch, each stage's concurrency, order, wait, shuffle and transform.
     *
     * @param out where
     */
    void print(PrintWriter out) {
        out.println("spdl4j run: " + describe());
    }

    /** {@return the run's line without the command's prefix: what {@link #print} prints after "spdl4j run: "} */
    String describe() {
        long perEpoch = data.perEpoch(rank);
        return String.format(Locale.ROOT, "%s %s x %d epoch(s), batch %d, %s, decode %d threads, order %s, wait %s,"
                + " %s, %s", perEpoch < 0 ? "?" : Long.toString(perEpoch), media.unit(), epochs,
            settings.batchSize(), reads(), settings.decodeConcurrency(), settings.order(), settings.waitPolicy(),
            shuffle ? (shards() ? "shard order shuffled" : "shuffled") + " (seed "
                + seed + ")" : "in order", media.describe(settings.augment(), seed));
    }

    private boolean shards() {
        return data.kind() == DataArgs.Kind.TAR_SHARDS || data.kind() == DataArgs.Kind.S3_SHARDS;
    }

    private String reads() {
        return switch (data.kind()) {
            case TAR_SHARDS, S3_SHARDS -> "read member by member";
            case S3_OBJECTS -> "GET " + settings.readConcurrency() + " in flight";
            case URL_LIST -> "fetch " + settings.readConcurrency() + " in flight";
            default -> media == MediaOption.image ? "read " + settings.readConcurrency() + " in flight"
                : "files opened by the decoder";
        };
    }
}
