package org.spdl4j.engine.source.tar;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.ReadableByteChannel;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.PrimitiveIterator;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.spdl4j.engine.StageFailureReport;
import org.spdl4j.engine.source.CloseableIterator;
import org.spdl4j.engine.source.DistributedSampler;
import org.spdl4j.engine.source.EpochSource;
import org.spdl4j.engine.source.RankInfo;
import org.spdl4j.engine.source.RemainderPolicy;
import org.spdl4j.engine.source.Sample;
import org.spdl4j.engine.source.SampleAllocator;

/**
 * WebDataset tar shards as an {@link EpochSource} of {@link Sample}s: shards are dealt to ranks per epoch by a
 * {@link DistributedSampler} (shuffled by seed and epoch, equal shard counts per rank), and each shard is streamed in
 * order, one sample at a time. A shard named {@code .tar.gz}, {@code .tgz} or {@code .tar.zst} is decompressed as it
 * streams ({@link ShardCompression}).
 *
 * <p><b>Equal sample counts per rank</b> hold when every shard holds the same number of samples (as WebDataset
 * writers produce with a fixed {@code maxcount}); otherwise pass {@code samplesPerEpoch}, a cap every rank reaches,
 * and each epoch stops there. <b>Resume</b> at position {@code p} skips {@code p} samples by reading headers only
 * (seeking over data on local plain shards, reading through compressed ones). Shard opens happen lazily, one shard open at a time.
 *
 * <p><b>Threading:</b> immutable, thread-safe to open; each iterator is single-threaded. <b>Blocking:</b> file or
 * network I/O in {@code hasNext}. <b>Errors:</b> {@link TarFormatException} (truncated or bad shard, naming it and the
 * offset) and {@link UncheckedIOException} (cannot open) from {@code hasNext}/{@code next}; the pipeline's source
 * then ends with that cause.
 */
public final class WebDatasetSource implements EpochSource<Sample> {
    private static final Logger LOG = LoggerFactory.getLogger(WebDatasetSource.class);
    private final List<String> shards;
    private final ShardOpener opener;
    private final DistributedSampler sampler;
    private final SampleAllocator allocator;
    private final long samplesPerEpoch;
    private final boolean skipBadShards;
    private final ClassLabels classLabels;
    /** Shards of this rank read at once, their samples taken in turn ({@link #interleaving}); 1: one at a time. */
    private final int lanes;

    /**
     * Creates the source.
     *
     * @param shards          shard names, in a fixed order (the same on every rank)
     * @param opener          how to open a shard ({@link ShardOpener#LOCAL_FILES} for paths)
     * @param rank            this rank
     * @param seed            the shard-shuffle seed
     * @param shuffle         whether to shuffle the shard order per epoch
     * @param remainder       how to equalise shard counts per rank
     * @param allocator       where sample bytes go
     * @param samplesPerEpoch a cap on samples per epoch per rank, or {@link EpochSource#UNKNOWN_LENGTH} for none
     */
    public WebDatasetSource(List<String> shards, ShardOpener opener, RankInfo rank, long seed, boolean shuffle,
            RemainderPolicy remainder, SampleAllocator allocator, long samplesPerEpoch) {
        this.shards = List.copyOf(shards);
        this.opener = opener;
        this.sampler = new DistributedSampler(this.shards.size(), rank, seed, shuffle, remainder);
        this.allocator = allocator;
        this.samplesPerEpoch = samplesPerEpoch;
        this.skipBadShards = false;
        this.classLabels = ClassLabels.seen();
        this.lanes = 1;
    }

    private WebDatasetSource(WebDatasetSource s, boolean skipBadShards, ClassLabels classLabels, int lanes) {
        this.shards = s.shards;
        this.opener = s.opener;
        this.sampler = s.sampler;
        this.allocator = s.allocator;
        this.samplesPerEpoch = s.samplesPerEpoch;
        this.skipBadShards = skipBadShards;
        this.classLabels = classLabels;
        this.lanes = lanes;
    }

    /**
     * {@return this source reading {@code n} of this rank's shards at once and taking their samples in turn: shard
     * {@code k} of the rank's epoch order goes to lane {@code k mod n}, each lane reads its shards one after another,
     * and the lanes give one sample each, round-robin, a lane leaving the turn when it has no shard left} Consecutive
     * samples then come from {@code n} shards, so a batch of a shard set written in class order holds {@code n}
     * shards' classes instead of one. Deterministic: resume at a position replays the turns by headers only.
     *
     * @param n shards open at once, at least 1 (1: one shard after another)
     */
    public WebDatasetSource interleaving(int n) {
        if (n < 1) {
            throw new IllegalArgumentException("shards read at once must be >= 1, got " + n);
        }
        return new WebDatasetSource(this, skipBadShards, classLabels, n);
    }

    /**
     * {@return this source, labelling class names in {@code .cls} members by {@code labels} (default: a
     * {@link ClassLabels#seen()} of this source's own, in the order names are first seen; give a class list for labels
     * that are the same on every rank and in resumed runs)}
     *
     * @param labels how class names become labels
     */
    public WebDatasetSource withClassLabels(ClassLabels labels) {
        return new WebDatasetSource(this, skipBadShards, java.util.Objects.requireNonNull(labels, "labels"), lanes);
    }

    /**
     * {@return this source, but one that skips the rest of a shard it cannot open or read (truncated, corrupt, gone)
     * and goes on with the next: each such shard is logged naming it and the cause, and counted in the source's
     * {@code failed} column when read by a pipeline's source thread ({@link org.spdl4j.engine.StageFailureReport});
     * the samples read from it before the fault are kept. A fault while the reading thread is interrupted (its
     * pipeline closing) is thrown, not counted against the shard}
     */
    public WebDatasetSource skippingBadShards() {
        return new WebDatasetSource(this, true, classLabels, lanes);
    }

    /**
     * Local shard files, sequential shard order, one rank, heap bytes: the simplest use.
     *
     * @param shards shard paths
     * @return the source
     */
    public static WebDatasetSource localFiles(List<String> shards) {
        return new WebDatasetSource(shards, ShardOpener.LOCAL_FILES, RankInfo.SINGLE, 0, false, RemainderPolicy.PAD,
                SampleAllocator.HEAP, UNKNOWN_LENGTH);
    }

    /** {@return the shard sampler} */
    public DistributedSampler sampler() {
        return sampler;
    }

    /**
     * The shards this rank reads in an epoch, in order.
     *
     * @param epoch the epoch
     * @return shard names
     */
    public List<String> shardsOf(long epoch) {
        PrimitiveIterator.OfLong it = sampler.indices(epoch, 0);
        java.util.ArrayList<String> out = new java.util.ArrayList<>();
        while (it.hasNext()) {
            out.add(shards.get((int) it.nextLong()));
        }
        return out;
    }

    @Override
    public long seed() {
        return sampler.seed();
    }

    @Override
    public long epochLength() {
        return samplesPerEpoch;
    }

    @Override
    public CloseableIterator<Sample> open(long epoch, long position) {
        if (lanes > 1) {
            Interleaved c = new Interleaved(epoch);
            c.skip(position);
            return c;
        }
        Cursor c = new Cursor(sampler.indices(epoch, 0), samplesPerEpoch);
        c.skip(position);
        return c;
    }

    /** Opens a shard and, when its name says it is compressed ({@link ShardCompression}), its decompressor. */
    private ReadableByteChannel openStream(String name) throws IOException {
        ShardCompression compression = ShardCompression.of(name);
        ReadableByteChannel raw = opener.open(name);
        return compression == null ? raw : compression.wrap(raw, name);
    }

    /** One sequence of shards, read one after another: the rank's epoch order, or one lane of it. */
    private final class Cursor implements CloseableIterator<Sample> {
        private final PrimitiveIterator.OfLong shardOrder;
        private final long samplesPerEpoch; // this cursor's cap: the source's, or none for a lane
        private WebDatasetSampleIterator shard;
        private String shardName;
        private long delivered;
        private boolean done;

        Cursor(PrimitiveIterator.OfLong shardOrder, long cap) {
            this.shardOrder = shardOrder;
            this.samplesPerEpoch = cap;
        }

        /** Makes {@link #shard} the open shard (opening the next one if needed); false at the end of the epoch. */
        private boolean openShard() {
            if (done) {
                return false;
            }
            if (samplesPerEpoch != UNKNOWN_LENGTH && delivered >= samplesPerEpoch) {
                close();
                return false;
            }
            if (shard == null) {
                if (!shardOrder.hasNext()) {
                    close();
                    return false;
                }
                String name = shards.get((int) shardOrder.nextLong());
                shardName = name;
                try {
                    shard = new WebDatasetSampleIterator(new TarStreamReader(name, openStream(name)), allocator,
                            classLabels);
                } catch (IOException e) {
                    UncheckedIOException failure = new UncheckedIOException("cannot open tar shard '" + name + "': "
                        + e, e);
                    if (!skipBadShards || Thread.currentThread().isInterrupted()) {
                        close(); // an interrupted open is the pipeline stopping, not a bad shard
                        throw failure;
                    }
                    badShard(failure);
                    return openShard();
                }
            }
            return true;
        }

        private boolean advance() {
            while (openShard()) {
                boolean more;
                try {
                    more = shard.hasNext();
                } catch (TarFormatException | UncheckedIOException e) {
                    if (!skipBadShards || Thread.currentThread().isInterrupted()) {
                        throw e; // interrupted: the pipeline is stopping, the shard is not bad
                    }
                    badShard(e);
                    continue;
                }
                if (more) {
                    return true;
                }
                shard.close();
                shard = null;
            }
            return false;
        }

        /** Logs and counts a shard that failed, closes it, and leaves the cursor at the next one. */
        private void badShard(RuntimeException e) {
            LOG.error("tar shard '{}' skipped from here on: {} (the samples read from it before are kept; re-create "
                + "or remove the shard)", shardName, e.toString());
            StageFailureReport.report("tar shard " + shardName, e);
            if (shard != null) {
                try {
                    shard.close();
                } catch (RuntimeException closing) {
                    e.addSuppressed(closing);
                }
                shard = null;
            }
        }

        /**
         * Skips by headers only: no sample of a skipped shard is read (hasNext would read one ahead).
         *
         * @return the samples skipped: {@code n} unless the sequence ended first
         */
        long skip(long n) {
            long left = n;
            while (left > 0 && openShard()) {
                long want = samplesPerEpoch == UNKNOWN_LENGTH ? left : Math.min(left, samplesPerEpoch - delivered);
                long skipped = 0;
                try {
                    // One sample at a time: a fault part-way leaves the count of those passed over, which reading
                    // would have delivered (the positions after them count on it).
                    while (skipped < want && shard.skip(1) == 1) {
                        skipped++;
                    }
                } catch (TarFormatException | UncheckedIOException e) {
                    left -= skipped;
                    delivered += skipped;
                    if (!skipBadShards || Thread.currentThread().isInterrupted()) {
                        throw e;
                    }
                    badShard(e);
                    continue;
                }
                left -= skipped;
                delivered += skipped;
                if (skipped < want) { // the shard ended
                    shard.close();
                    shard = null;
                }
            }
            return n - left;
        }

        @Override
        public boolean hasNext() {
            try {
                return advance();
            } catch (RuntimeException e) {
                close();
                throw e;
            }
        }

        @Override
        public Sample next() {
            if (!hasNext()) {
                throw new NoSuchElementException("epoch done");
            }
            delivered++;
            return shard.next();
        }

        @Override
        public void close() {
            done = true;
            if (shard != null) {
                shard.close();
                shard = null;
            }
        }
    }

    /**
     * This rank's shards of one epoch in {@link #lanes} lanes (shard {@code k} of its order to lane {@code k mod n}),
     * their samples taken in turn. The turn passes a lane that has ended; the epoch ends when every lane has.
     */
    private final class Interleaved implements CloseableIterator<Sample> {
        private final Cursor[] lane;
        private final boolean[] ended;
        private int turn;
        private int live;
        private long delivered;

        Interleaved(long epoch) {
            java.util.stream.LongStream.Builder all = java.util.stream.LongStream.builder();
            sampler.indices(epoch, 0).forEachRemaining((long k) -> all.add(k));
            long[] order = all.build().toArray();
            int n = Math.min(lanes, Math.max(1, order.length));
            lane = new Cursor[n];
            ended = new boolean[n];
            for (int i = 0; i < n; i++) {
                long[] mine = java.util.stream.LongStream.iterate(i, k -> k < order.length, k -> k + n)
                        .map(k -> order[(int) k]).toArray();
                lane[i] = new Cursor(java.util.Arrays.stream(mine).iterator(), UNKNOWN_LENGTH);
            }
            live = n;
        }

        private boolean capped() {
            return samplesPerEpoch != UNKNOWN_LENGTH && delivered >= samplesPerEpoch;
        }

        /** Leaves {@link #turn} at a lane with a sample; false when every lane has ended (or the cap is reached). */
        private boolean settle() {
            while (live > 0 && !capped()) {
                if (!ended[turn]) {
                    boolean more;
                    try {
                        more = lane[turn].hasNext();
                    } catch (RuntimeException e) {
                        close();
                        throw e;
                    }
                    if (more) {
                        return true;
                    }
                    ended[turn] = true;
                    live--;
                }
                turn = (turn + 1) % lane.length;
            }
            return false;
        }

        /** Passes over {@code n} turns by headers only, as {@link #next} would take them; closes every lane if it fails. */
        void skip(long n) {
            try {
                for (long k = 0; k < n && live > 0 && !capped(); ) {
                    if (!ended[turn]) {
                        if (lane[turn].skip(1) == 1) {
                            k++;
                            delivered++;
                        } else {
                            ended[turn] = true;
                            live--;
                        }
                    }
                    turn = (turn + 1) % lane.length;
                }
            } catch (RuntimeException e) {
                try {
                    close();
                } catch (RuntimeException closing) {
                    e.addSuppressed(closing);
                }
                throw e;
            }
        }

        @Override
        public boolean hasNext() {
            return settle();
        }

        @Override
        public Sample next() {
            if (!settle()) {
                throw new NoSuchElementException("epoch done");
            }
            Sample s = lane[turn].next();
            delivered++;
            turn = (turn + 1) % lane.length;
            return s;
        }

        @Override
        public void close() {
            RuntimeException first = null;
            for (Cursor c : lane) {
                try {
                    c.close();
                } catch (RuntimeException e) {
                    if (first == null) {
                        first = e;
                    } else {
                        first.addSuppressed(e);
                    }
                }
            }
            live = 0;
            if (first != null) {
                throw first;
            }
        }
    }
}
