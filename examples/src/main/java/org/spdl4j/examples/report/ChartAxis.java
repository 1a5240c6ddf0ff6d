package org.spdl4j.examples.report;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.List;

/**
 * One axis of an {@link SvgChart}: its label, its scale, and the ticks it draws for a range of data. Log axes tick at
 * whole powers (decades: 0.01, 0.1, 1, 10, 100, 1k; powers of two: 1, 2, 4, 8); a linear axis at 1, 2 or 5 times a
 * power of ten. Labels are short ({@link #label(double)}), never in exponent notation. Immutable.
 *
 * @param title the axis title, with its unit (for example {@code "task time, ms"})
 * @param scale how values are placed along the axis
 */
public record ChartAxis(String title, Scale scale) {
    /** How values are placed along an axis. */
    public enum Scale {
        /** Proportionally, from zero (or the smallest value when it is negative). */
        LINEAR,
        /** By their base-10 logarithm; values at or below zero sit at the axis' start. */
        LOG10,
        /** By their base-2 logarithm (concurrency levels 1, 2, 4, ...); values at or below zero sit at the start. */
        LOG2,
        /**
         * Percentiles (0 to 100) by {@code log10(1 / (1 - p/100))}, as HdrHistogram's plots: 90%, 99%, 99.9% evenly
         * spaced, so the tail is visible. Values past 99.999 sit at 99.999.
         */
        PERCENTILE
    }

    /**
     * The axis fitted to the data: the span in transformed units and the ticks inside it.
     *
     * @param from   the axis' start, in transformed units
     * @param to     its end, greater than {@code from}
     * @param ticks  tick positions, in transformed units, ascending
     * @param labels each tick's label
     */
    public record Fitted(double from, double to, double[] ticks, String[] labels) {
        /**
         * {@return where a transformed value sits along the axis: 0 at the start, 1 at the end}
         *
         * @param transformed a value already passed through the axis' scale
         */
        public double fraction(double transformed) {
            return (transformed - from) / (to - from);
        }
    }

    /**
     * {@return the value in the axis' transformed units; a value a log axis cannot place is negative infinity}
     *
     * @param value a data value
     */
    public double transform(double value) {
        return switch (scale) {
            case LINEAR -> value;
            case LOG10 -> value > 0 ? Math.log10(value) : Double.NEGATIVE_INFINITY;
            case LOG2 -> value > 0 ? Math.log(value) / Math.log(2) : Double.NEGATIVE_INFINITY;
            case PERCENTILE -> Math.log10(1.0 / (1.0 - Math.clamp(value, 0.0, 99.999) / 100.0));
        };
    }

    /**
     * Fits the axis to data spanning {@code min..max} (for log axes, {@code min} is the smallest positive value).
     *
     * @param min the smallest value to show (NaN when there is no data)
     * @param max the largest
     * @return the span and its ticks
     */
    public Fitted fit(double min, double max) {
        if (Double.isNaN(min) || Double.isNaN(max) || max < min) {
            min = scale == Scale.LINEAR || scale == Scale.PERCENTILE ? 0 : 1;
            max = scale == Scale.PERCENTILE ? 99 : min * 10;
        }
        return switch (scale) {
            case LINEAR -> linear(min, max);
            case LOG10 -> powers(Math.floor(transform(min)), Math.ceil(transform(max)), 10, 8);
            case LOG2 -> powers(Math.floor(transform(min)), Math.ceil(transform(max)), 2, 14);
            case PERCENTILE -> percentiles(transform(max));
        };
    }

    private static Fitted linear(double min, double max) {
        double from = Math.min(0, min);
        double span = max - from;
        if (span <= 0) {
            span = max == 0 ? 1 : Math.abs(max);
        }
        double step = niceStep(span / 5);
        double to = Math.ceil((from + span) / step - 1e-9) * step;
        from = Math.floor(from / step + 1e-9) * step;
        List<Double> ticks = new ArrayList<>();
        for (int i = 0; from + i * step <= to + step * 1e-6; i++) {
            ticks.add(from + i * step);
        }
        return fitted(from, to, ticks, v -> v);
    }

    /** 1, 2 or 5 times a power of ten, at least {@code rough}. */
    static double niceStep(double rough) {
        double decade = Math.pow(10, Math.floor(Math.log10(rough)));
        for (double m : new double[] {1, 2, 5, 10}) {
            if (m * decade >= rough * (1 - 1e-9)) {
                return m * decade;
            }
        }
        return 10 * decade;
    }

    private static Fitted powers(double fromExp, double toExp, double base, int maxTicks) {
        if (toExp <= fromExp) {
            toExp = fromExp + 1;
        }
        int every = (int) Math.ceil((toExp - fromExp) / maxTicks);
        List<Double> ticks = new ArrayList<>();
        for (double e = fromExp; e <= toExp; e += every) {
            ticks.add(e);
        }
        return fitted(fromExp, toExp, ticks, e -> Math.pow(base, e));
    }

    private static Fitted percentiles(double maxPosition) {
        int to = (int) Math.clamp(Math.ceil(maxPosition - 1e-9), 2, 5);
        double[] ticks = new double[to + 1];
        String[] labels = new String[to + 1];
        for (int i = 0; i <= to; i++) {
            ticks[i] = i;
            // 0%, 90%, 99%, 99.9%, ...: written out, since rounding 99.99 to three digits would say 100
            labels[i] = i == 0 ? "0%" : i == 1 ? "90%" : "99" + (i > 2 ? "." + "9".repeat(i - 2) : "") + "%";
        }
        return new Fitted(0, to, ticks, labels);
    }

    private static Fitted fitted(double from, double to, List<Double> ticks,
                                 java.util.function.DoubleUnaryOperator value) {
        double[] t = new double[ticks.size()];
        String[] l = new String[t.length];
        for (int i = 0; i < t.length; i++) {
            t[i] = ticks.get(i);
            l[i] = label(value.applyAsDouble(t[i]));
        }
        return new Fitted(from, to, t, l);
    }

    /**
     * A short tick label: at most three significant digits, {@code k}, {@code M} or {@code G} for thousands and up
     * ({@code 1k}, {@code 2.5M}), plain decimals below one ({@code 0.001}); never exponent notation.
     *
     * @param value the value
     * @return its label
     */
    public static String label(double value) {
        double a = Math.abs(value);
        if (a < 1e-12) {
            return "0";
        }
        String[] suffixes = {"G", "M", "k"};
        double[] scales = {1e9, 1e6, 1e3};
        for (int i = 0; i < scales.length; i++) {
            if (a >= scales[i] * (1 - 1e-9)) {
                return plain(value / scales[i]) + suffixes[i];
            }
        }
        return plain(value);
    }

    private static String plain(double v) {
        return new BigDecimal(v).round(new MathContext(3)).stripTrailingZeros().toPlainString();
    }
}
