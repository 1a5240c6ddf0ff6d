package org.spdl4j.loader.internal;

import org.spdl4j.engine.Source;
import org.spdl4j.engine.source.LargeBufferTurns;
import org.spdl4j.engine.source.RankInfo;
import org.spdl4j.engine.source.SampleAllocator;
import org.spdl4j.loader.LoaderState;
import org.spdl4j.offheap.batch.SampleSeeds;

/**
 * The loader's source: walks the epochs from the state it starts at up to the last one, each from its watermark,
 * passing over the positions the state settled, and turns each sample into a pooled {@link LoaderItem} stamped with
 * its epoch, position and transform seed (run seed, epoch, key: {@link SampleSeeds}), fixed here, before any
 * concurrency, so they depend on neither worker count, output order nor which thread decodes.
 *
 * <p><b>Threading:</b> the engine's source thread only. <b>Allocation:</b> none of its own per sample (items are
 * pooled); an epoch's cursor per epoch. <b>Blocking:</b> as the cursor (file and network I/O for tar shards).
 */
public final class ItemSource implements Source<LoaderItem> {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(ItemSource.class);
    private final EntrySource source;
    private final LoaderState from;
    private final long endEpoch;
    private final RankInfo rank;
    private final long seed;
    private final boolean shuffle;
    private final SampleAllocator bytes;
    private final LoaderItemPool items;
    private final Progress progress;
    private final LargeBufferTurns turns;
    private final String[] textFields;
    private final LoaderControl control;
    /** With epoch-aligned batches, how often the wait at an epoch's end says it still waits; else null. */
    private final java.time.Duration epochBarrier;
    /** Items and end marks sent so far. */
    private long sent;
    /** An end mark was sent: the next epoch's first item waits until the mark has passed the assign stage. */
    private boolean markInFlight;

    private long epoch;
    private EntryCursor cursor;
    private long position;
    private long[] skip;
    private int skipIndex;

    /**
     * Creates the source.
     *
     * @param source   the samples
     * @param from     where to start (its settled positions are passed over)
     * @param endEpoch the first epoch not to run
     * @param seed     the run's seed (shuffle, transforms)
     * @param shuffle  whether to shuffle per epoch
     * @param bytes    where a source reading bytes itself puts them
     * @param items    the item pool
     * @param progress told each epoch's length when its end is reached
     * @param turns    opens each item's ticket (INPUT order file reads), or {@code null}
     * @param textFields extensions of tar members read as text into each item ({@link LoaderItem#texts})
     * @param control  counts the items that passed the assign stage (epoch-aligned batches)
     * @param epochBarrier with epoch-aligned batches, how often the wait at an epoch's end (for its items to reach the
     *                 assign stage) says it still waits; {@code null} without epoch alignment
     */
    public ItemSource(EntrySource source, LoaderState from, long endEpoch, long seed, boolean shuffle,
                      SampleAllocator bytes, LoaderItemPool items, Progress progress, LargeBufferTurns turns,
                      java.util.List<String> textFields, LoaderControl control, java.time.Duration epochBarrier) {
        this.source = source;
        this.from = from;
        this.endEpoch = endEpoch;
        this.rank = new RankInfo(from.rank(), from.worldSize());
        this.seed = seed;
        this.shuffle = shuffle;
        this.bytes = bytes;
        this.items = items;
        this.progress = progress;
        this.turns = turns;
        this.textFields = textFields.toArray(String[]::new);
        this.control = control;
        this.epochBarrier = epochBarrier;
        this.epoch = from.epoch();
    }

    @Override
    public LoaderItem next() {
        if (markInFlight) {
            // In completion order a read stage hands on whatever completes first: a next-epoch item could overtake
            // the mark and land in the sealed epoch's batch. Nothing goes out until the mark has passed.
            markInFlight = false;
            control.awaitPassed(sent, epochBarrier, out -> LOG.warn("the end mark of epoch {} waits to reach the"
                + " assign stage ({} item(s) ahead of it)", epoch - 1, out));
        }
        for (;;) {
            if (cursor == null) {
                if (epoch >= endEpoch) {
                    return null;
                }
                LoaderState.Mark mark = from.mark(epoch);
                position = mark.watermark();
                skip = mark.above();
                skipIndex = 0;
                LoaderState.Carry carry = from.carried().get(epoch);
                cursor = carry == null ? source.open(epoch, position, rank, seed, shuffle, bytes)
                    : source.open(epoch, position, rank, seed, shuffle, carry);
            }
            boolean more = true;
            while (more && skipIndex < skip.length && skip[skipIndex] == position) {
                more = cursor.skip(); // settled before the checkpoint: delivered or failed already
                position++;
                skipIndex++;
            }
            LoaderItem item = items.take();
            if (more && cursor.next(item)) {
                item.epoch = epoch;
                item.position = position++;
                long id = SampleSeeds.keyId(item.key);
                // A sample drawn again in the same epoch (a mixture's part that started over) gets another transform.
                item.seed = SampleSeeds.of(seed, epoch, item.pass == 0 ? id : SampleSeeds.mix64(id + item.pass));
                if (textFields.length > 0) {
                    readTexts(item);
                }
                if (turns != null) {
                    // Items leave the source in input order and each counts from here: the read stage starts its
                    // tasks in that order, so a younger large read never waits for an older one not yet started.
                    item.ticket = turns.ticket();
                    turns.open(item.ticket);
                }
                sent++;
                return item;
            }
            items.release(item);
            cursor.close();
            cursor = null;
            long length = position;
            progress.epochEnded(epoch, length);
            epoch++;
            if (length == 0) {
                return null; // an empty epoch: every later one is empty too
            }
            if (epochBarrier != null && epoch < endEpoch) {
                return endMark(epoch - 1);
            }
        }
    }

    /**
     * Epoch-aligned batches: once every item sent has reached the assign stage (or failed before it), the mark that
     * seals the epoch's last batch there. A long wait (a consumer paused, a fetch retrying) says so periodically.
     */
    private LoaderItem endMark(long ended) {
        control.awaitPassed(sent, epochBarrier, out -> LOG.warn("epoch {} ends once its last {} item(s) reach the"
            + " assign stage (reads in flight, or a consumer holding the batches)", ended, out));
        LoaderItem mark = items.take();
        mark.epochEnd = true;
        mark.epoch = ended;
        mark.key = "end of epoch " + ended;
        sent++;
        markInFlight = true;
        return mark;
    }

    /** The item's text members, as UTF-8 strings (a string each: captions and metadata are small); null if absent. */
    private void readTexts(LoaderItem item) {
        if (item.texts == null) {
            item.texts = new String[textFields.length]; // once per pooled item
        }
        for (int f = 0; f < textFields.length; f++) {
            item.texts[f] = item.sample != null && item.sample.hasField(textFields[f])
                ? item.sample.text(textFields[f]) : null;
        }
    }

    @Override
    public void close() {
        if (cursor != null) {
            cursor.close();
            cursor = null;
        }
    }
}
