package org.spdl4j.loader.internal;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.spdl4j.loader.LoaderState;

/**
 * Turns the states every rank of an N-rank run saved into the state one rank of an M-rank run resumes from: per open
 * epoch, the slots of the epoch's order any of the N ranks settled become the new state's {@link LoaderState.Carry};
 * the slots left are dealt round-robin to the M ranks, so across them each is delivered exactly once. Epochs no rank
 * had touched start afresh, dealt to M ranks as an uninterrupted M-rank run deals them.
 *
 * <p>Works for sources whose epoch order is a permutation of a known number of samples (folders, lists, a list of
 * entries): their slots are the same whatever the world size. <b>Threading:</b> a pure function. <b>Cost:</b> a bitmap
 * of each open epoch's slots, once at build time.
 */
public final class Reshard {
    private Reshard() {
    }

    /**
     * Computes the state of one new rank.
     *
     * @param saved       the state of every rank of the saved run, one each, in any order
     * @param datasetSize the number of samples the source holds
     * @param rank        the new rank
     * @param worldSize   the new number of ranks
     * @return the state to resume from
     * @throws IllegalArgumentException when the states are not one run's, one per rank
     */
    public static LoaderState of(Collection<LoaderState> saved, long datasetSize, int rank, int worldSize) {
        List<LoaderState> byRank = byRank(saved);
        LoaderState any = byRank.get(0);
        if (datasetSize > Integer.MAX_VALUE - 64) {
            throw new IllegalArgumentException("resuming on another number of ranks supports up to "
                + (Integer.MAX_VALUE - 64) + " samples; this source has " + datasetSize);
        }
        long first = Long.MAX_VALUE;
        long last = -1;
        for (LoaderState s : byRank) {
            first = Math.min(first, s.epoch());
            for (long e : s.marks().keySet()) {
                last = Math.max(last, e);
            }
            for (long e : s.carried().keySet()) {
                last = Math.max(last, e);
            }
            last = Math.max(last, s.epoch() - 1); // a rank done with an epoch others are in settled all of its share
        }
        Map<Long, LoaderState.Carry> carried = new TreeMap<>();
        long epoch = first;
        boolean allDoneSoFar = true;
        for (long e = first; e <= last; e++) {
            LoaderState.Carry carry = settledSlots(byRank, e, datasetSize);
            RemainingSlots left = slots(carry, datasetSize);
            if (left.count() == 0 && allDoneSoFar) {
                epoch = e + 1; // every slot settled: done
                continue;
            }
            allDoneSoFar = false;
            if (carry.slots().settled() > 0) {
                carried.put(e, carry);
            }
        }
        return new LoaderState(any.seed(), rank, worldSize, epoch, Map.of(), carried);
    }

    private static List<LoaderState> byRank(Collection<LoaderState> saved) {
        if (saved.isEmpty()) {
            throw new IllegalArgumentException("no saved state to resume from: give every rank's state");
        }
        LoaderState any = saved.iterator().next();
        int world = any.worldSize();
        LoaderState[] byRank = new LoaderState[world];
        for (LoaderState s : saved) {
            if (s.seed() != any.seed() || s.worldSize() != world) {
                throw new IllegalArgumentException("the states are not one run's: " + any.encode() + " and "
                    + s.encode() + " differ in seed or number of ranks");
            }
            if (byRank[s.rank()] != null) {
                throw new IllegalArgumentException("two states of rank " + s.rank() + " of " + world
                    + ": give each rank's latest state once");
            }
            if (!s.carried().equals(any.carried()) && !sameCarriedFrom(s, any)) {
                throw new IllegalArgumentException("the states of ranks " + any.rank() + " and " + s.rank()
                    + " were resumed from different states (their carried slots differ)");
            }
            byRank[s.rank()] = s;
        }
        List<String> missing = new ArrayList<>();
        for (int r = 0; r < world; r++) {
            if (byRank[r] == null) {
                missing.add(Integer.toString(r));
            }
        }
        if (!missing.isEmpty()) {
            throw new IllegalArgumentException("missing the state of rank(s) " + String.join(", ", missing) + " of "
                + world + ": every rank's state is needed to know which samples the run delivered");
        }
        return Arrays.asList(byRank);
    }

    /** Ranks that finished an epoch drop its carry; compare the carries of the epochs both still hold. */
    private static boolean sameCarriedFrom(LoaderState a, LoaderState b) {
        for (Map.Entry<Long, LoaderState.Carry> e : a.carried().entrySet()) {
            LoaderState.Carry other = b.carried().get(e.getKey());
            if (other != null && !other.equals(e.getValue())) {
                return false;
            }
        }
        return true;
    }

    /** The carry of an epoch: which of its slots the saved ranks settled, before and since their own start. */
    private static LoaderState.Carry settledSlots(List<LoaderState> byRank, long e, long n) {
        int world = byRank.size();
        LoaderState.Carry before = null;
        for (LoaderState s : byRank) {
            if (s.carried().containsKey(e)) {
                before = s.carried().get(e);
            }
        }
        int firstWorld = before != null ? before.world() : world;
        long total = n / firstWorld * firstWorld;
        LoaderState.Mark beforeSlots = before != null ? before.slots() : new LoaderState.Mark(0, new long[0]);
        RemainingSlots left = new RemainingSlots(total, beforeSlots);
        BitSet settled = new BitSet((int) total);
        settled.set(0, (int) Math.min(beforeSlots.watermark(), total));
        for (long slot : beforeSlots.above()) {
            settled.set((int) slot);
        }
        long[] watermarks = new long[world];
        long[][] aboves = new long[world][];
        for (int r = 0; r < world; r++) {
            LoaderState.Mark mark = byRank.get(r).mark(e);
            watermarks[r] = mark.watermark();
            aboves[r] = mark.above();
        }
        RemainingSlots.Walker walk = left.walk(0, 1);
        for (long k = 0; walk.hasNext(); k++) {
            long slot = walk.next();
            int r = (int) (k % world);
            long position = k / world;
            if (position < watermarks[r] || Arrays.binarySearch(aboves[r], position) >= 0) {
                settled.set((int) slot);
            }
        }
        long watermark = settled.nextClearBit(0);
        long[] above = settled.get((int) watermark, (int) Math.max(watermark, total)).stream()
            .mapToLong(i -> watermark + i).toArray();
        return new LoaderState.Carry(firstWorld, new LoaderState.Mark(Math.min(watermark, total), above));
    }

    /**
     * {@return the slots of an epoch left after a carry}
     *
     * @param carry       the carry
     * @param datasetSize the number of samples
     */
    public static RemainingSlots slots(LoaderState.Carry carry, long datasetSize) {
        return new RemainingSlots(datasetSize / carry.world() * carry.world(), carry.slots());
    }
}
