package org.spdl4j.engine.affinity;

import java.util.Arrays;
import java.util.Objects;

/**
 * An immutable set of CPU numbers, the value a thread is pinned to. Written and parsed in the list format of
 * {@code taskset -c} and {@code /proc/<pid>/status}'s {@code Cpus_allowed_list}: comma-separated CPUs and inclusive
 * ranges, e.g. {@code "0-3,6"}.
 *
 * <p>A set may be empty as a value ({@code CpuSet.of()}); a pipeline rejects an empty set, and a CPU this process may
 * not run on, when it is built (see {@link ThreadAffinity#problemWith(CpuSet)}). Negative CPUs and CPUs above
 * {@link #MAX_CPU} cannot be represented and are rejected here.
 *
 * <p><b>Threading:</b> immutable, safe to share. <b>Allocation:</b> one bit per CPU up to the highest, at creation.
 */
public final class CpuSet {
    /** The highest CPU number accepted (Linux's {@code CONFIG_NR_CPUS} is at most 8192). */
    public static final int MAX_CPU = 8191;

    private final long[] words; // bit c of words[c >>> 6]; no trailing zero words

    private CpuSet(long[] words) {
        int n = words.length;
        while (n > 0 && words[n - 1] == 0) {
            n--;
        }
        this.words = Arrays.copyOf(words, n);
    }

    /**
     * {@return the set of these CPUs} Duplicates are kept once.
     *
     * @param cpus CPU numbers in [0, {@link #MAX_CPU}]
     * @throws IllegalArgumentException naming the first CPU out of range
     */
    public static CpuSet of(int... cpus) {
        long[] w = new long[0];
        for (int c : cpus) {
            w = set(w, check(c, "CPU " + c));
        }
        return new CpuSet(w);
    }

    /**
     * {@return the CPUs {@code from} to {@code to}, inclusive}
     *
     * @param from the first CPU
     * @param to   the last CPU, at least {@code from}
     * @throws IllegalArgumentException if the range is reversed or out of [0, {@link #MAX_CPU}]
     */
    public static CpuSet range(int from, int to) {
        return parse(from + "-" + to);
    }

    /**
     * Parses the list format: {@code "0-3,6"}, {@code "2"}, {@code "0,2,4"}. Blanks around numbers are ignored.
     *
     * @param list the list
     * @return the set
     * @throws IllegalArgumentException saying which part of {@code list} is not a CPU or range
     */
    public static CpuSet parse(String list) {
        Objects.requireNonNull(list, "list");
        if (list.isBlank()) {
            throw new IllegalArgumentException("CPU list '" + list + "' is empty; write e.g. \"0-3,6\"");
        }
        long[] w = new long[0];
        for (String part : list.split(",", -1)) {
            String p = part.strip();
            int dash = p.indexOf('-');
            int from = number(dash < 0 ? p : p.substring(0, dash), p, list);
            int to = dash < 0 ? from : number(p.substring(dash + 1), p, list);
            if (to < from) {
                throw new IllegalArgumentException("CPU list '" + list + "': range '" + p + "' is reversed");
            }
            for (int c = from; c <= to; c++) {
                w = set(w, c);
            }
        }
        return new CpuSet(w);
    }

    private static int number(String s, String part, String list) {
        String t = s.strip();
        if (t.isEmpty() || !t.chars().allMatch(ch -> ch >= '0' && ch <= '9') || t.length() > 5) {
            throw new IllegalArgumentException("CPU list '" + list + "': '" + part + "' is not a CPU or a range "
                    + "(write e.g. \"0-3,6\")");
        }
        return check(Integer.parseInt(t), "CPU list '" + list + "': CPU " + t);
    }

    private static int check(int cpu, String what) {
        if (cpu < 0 || cpu > MAX_CPU) {
            throw new IllegalArgumentException(what + " must be in [0, " + MAX_CPU + "]");
        }
        return cpu;
    }

    private static long[] set(long[] w, int cpu) {
        long[] r = (cpu >>> 6) < w.length ? w : Arrays.copyOf(w, (cpu >>> 6) + 1);
        r[cpu >>> 6] |= 1L << cpu;
        return r;
    }

    /**
     * {@return whether the set holds this CPU}
     *
     * @param cpu a CPU number; negative ones are never held
     */
    public boolean contains(int cpu) {
        return cpu >= 0 && (cpu >>> 6) < words.length && (words[cpu >>> 6] & (1L << cpu)) != 0;
    }

    /** {@return whether the set holds no CPU} */
    public boolean isEmpty() {
        return words.length == 0;
    }

    /** {@return how many CPUs the set holds} */
    public int size() {
        int n = 0;
        for (long w : words) {
            n += Long.bitCount(w);
        }
        return n;
    }

    /** {@return the highest CPU in the set, or -1 if it is empty} */
    public int highest() {
        int last = words.length - 1;
        return last < 0 ? -1 : last * 64 + 63 - Long.numberOfLeadingZeros(words[last]);
    }

    /** {@return the CPUs, ascending} */
    public int[] toArray() {
        int[] r = new int[size()];
        int i = 0;
        for (int c = nextCpu(0); c >= 0; c = nextCpu(c + 1)) {
            r[i++] = c;
        }
        return r;
    }

    /**
     * {@return the mask as 64-bit words, CPU {@code c} at bit {@code c % 64} of word {@code c / 64}} The layout of
     * Linux's {@code cpu_set_t} on a little-endian 64-bit machine. A copy.
     */
    public long[] toMaskWords() {
        return words.clone();
    }

    /**
     * {@return the set whose mask these words are} The inverse of {@link #toMaskWords()}.
     *
     * @param maskWords CPU {@code c} at bit {@code c % 64} of word {@code c / 64}; bits above {@link #MAX_CPU} are
     *                  ignored
     */
    public static CpuSet fromMaskWords(long[] maskWords) {
        return new CpuSet(Arrays.copyOf(maskWords, Math.min(maskWords.length, (MAX_CPU >>> 6) + 1)));
    }

    private int nextCpu(int from) {
        int i = from >>> 6;
        if (i >= words.length) {
            return -1;
        }
        long w = words[i] & (-1L << from);
        while (w == 0) {
            if (++i == words.length) {
                return -1;
            }
            w = words[i];
        }
        return i * 64 + Long.numberOfTrailingZeros(w);
    }

    /** {@return the list format, ranges merged: {@code "0-3,6"}; {@code ""} for the empty set} */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder();
        for (int c = nextCpu(0); c >= 0; ) {
            int end = c;
            while (contains(end + 1)) {
                end++;
            }
            sb.append(sb.isEmpty() ? "" : ",").append(c);
            if (end > c) {
                sb.append('-').append(end);
            }
            c = nextCpu(end + 1);
        }
        return sb.toString();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof CpuSet other && Arrays.equals(words, other.words);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(words);
    }
}
