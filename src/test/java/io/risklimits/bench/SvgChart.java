package io.risklimits.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.function.BiFunction;
import java.util.function.ToDoubleBiFunction;
import java.util.stream.Stream;

/**
 * A hand-written SVG bar chart of a report: decisions per second of each mode and of the database's
 * ceiling (left) and p99 latency at half of each mode's peak (right), one group per scenario.
 */
final class SvgChart {

    private static final int WIDTH = 960;
    private static final int HEIGHT = 450;
    private static final int PLOT_TOP = 95;
    private static final int PLOT_BOTTOM = 355;
    private static final String[] COLORS = {"#9a9a9a", "#2b6cb0", "#dd6b20", "#38a169"};

    private final BenchmarkReport report;
    private final List<String> modes;
    private final List<String> scenarios;
    private final StringBuilder svg = new StringBuilder();

    /** One bar of each scenario's group: a mode's figure, or the ceiling measured beside a mode. */
    private record Series(String name, String mode, boolean ceiling) {}

    private SvgChart(BenchmarkReport report) {
        this.report = report;
        this.modes = report.runs().stream().map(RunResult::mode).distinct().toList();
        this.scenarios =
                report.runs().stream().map(RunResult::scenario).distinct().toList();
    }

    private List<Series> modeSeries() {
        return modes.stream().map(mode -> new Series(mode, mode, false)).toList();
    }

    private List<Series> withCeiling() {
        List<Series> series = new ArrayList<>(modeSeries());
        report.runs().stream()
                .filter(run -> run.ceiling() != null)
                .map(RunResult::mode)
                .distinct()
                .forEach(mode -> series.add(new Series(DecisionBenchmark.CEILING, mode, true)));
        return series;
    }

    static String render(BenchmarkReport report, String subtitle) {
        return new SvgChart(report).draw(subtitle);
    }

    private String draw(String subtitle) {
        svg.append(format(
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\""
                        + " font-family=\"Helvetica, Arial, sans-serif\" font-size=\"12\">%n",
                WIDTH, HEIGHT, WIDTH, HEIGHT));
        svg.append(format("<rect width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>%n", WIDTH, HEIGHT));
        text(WIDTH / 2.0, 26, "middle", 17, "bold", "risk-limits decider benchmark");
        text(WIDTH / 2.0, 48, "middle", 13, "normal", headline());
        text(WIDTH / 2.0, 66, "middle", 11, "normal", subtitle);
        List<Series> throughput = withCeiling();
        panel(
                70,
                440,
                "decisions per second (higher is better)",
                throughput,
                (run, series) -> series.ceiling()
                        ? run.ceiling().decisionsPerSecond()
                        : run.throughput().decisionsPerSecond(),
                (run, series) -> format(
                        "%.0f",
                        series.ceiling()
                                ? run.ceiling().decisionsPerSecond()
                                : run.throughput().decisionsPerSecond()));
        panel(
                560,
                930,
                "latency p99 (p50 / p99 above) in ms at half of each one's peak",
                modeSeries(),
                // a run without its latency phase has no bar here
                (run, series) ->
                        run.latency() == null ? Double.NaN : run.latency().p99Millis(),
                (run, series) -> format(
                        "%d / %d", run.latency().p50Millis(), run.latency().p99Millis()));
        legend(throughput);
        svg.append("</svg>\n");
        return svg.toString();
    }

    private String headline() {
        String ceiling = report.ceilingRatios().stream()
                .filter(ratio -> ratio.scenario().equals(Scenario.UNIFORM.name()))
                .findFirst()
                .map(ratio ->
                        format("%s end to end / the database's ceiling: %.2f", ratio.mode(), ratio.throughputRatio()))
                .orElse(null);
        String baseline = report.headlineRatio() == null
                ? null
                : format(
                        "%s / %s: %.1fx",
                        report.modeRatios().get(0).mode(),
                        report.modeRatios().get(0).baseline(),
                        report.headlineRatio());
        if (ceiling == null && baseline == null) {
            return "one mode only: no ratio";
        }
        return "uniform keys with 30 days of history: "
                + String.join(
                        "; ",
                        Stream.of(ceiling, baseline).filter(Objects::nonNull).toList());
    }

    private void panel(
            int left,
            int right,
            String title,
            List<Series> series,
            ToDoubleBiFunction<RunResult, Series> value,
            BiFunction<RunResult, Series, String> label) {
        double max = 1;
        for (Series each : series) {
            for (String scenario : scenarios) {
                RunResult run = find(scenario, each.mode());
                if (run != null && (!each.ceiling() || run.ceiling() != null)) {
                    double figure = value.applyAsDouble(run, each);
                    max = Double.isNaN(figure) ? max : Math.max(max, figure);
                }
            }
        }
        double scaleMax = niceCeiling(max);
        text((left + right) / 2.0, PLOT_TOP - 12, "middle", 12, "bold", title);
        for (int tick = 0; tick <= 5; tick++) {
            double tickValue = scaleMax * tick / 5;
            double y = y(tickValue, scaleMax);
            svg.append(format(
                    "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"%s\"/>%n",
                    left, y, right, y, tick == 0 ? "#444444" : "#e2e2e2"));
            text(left - 6, y + 4, "end", 10, "normal", format("%.0f", tickValue));
        }
        double groupWidth = (right - left) / (double) scenarios.size();
        double barWidth = Math.min(40, (groupWidth - 16) / series.size());
        for (int group = 0; group < scenarios.size(); group++) {
            double groupLeft = left + group * groupWidth + (groupWidth - barWidth * series.size()) / 2;
            for (int bar = 0; bar < series.size(); bar++) {
                Series each = series.get(bar);
                RunResult run = find(scenarios.get(group), each.mode());
                if (run == null
                        || (each.ceiling() && run.ceiling() == null)
                        || Double.isNaN(value.applyAsDouble(run, each))) {
                    continue;
                }
                double x = groupLeft + bar * barWidth;
                double top = y(value.applyAsDouble(run, each), scaleMax);
                svg.append(format(
                        "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"/>%n",
                        x + 2, top, barWidth - 4, PLOT_BOTTOM - top, COLORS[bar % COLORS.length]));
                text(x + barWidth / 2, top - 4, "middle", 9, "normal", label.apply(run, each));
            }
            text(left + (group + 0.5) * groupWidth, PLOT_BOTTOM + 18, "middle", 12, "normal", scenarios.get(group));
        }
    }

    private void legend(List<Series> series) {
        double x = WIDTH / 2.0 - series.size() * 70;
        for (int i = 0; i < series.size(); i++) {
            svg.append(format(
                    "<rect x=\"%.1f\" y=\"%d\" width=\"14\" height=\"14\" fill=\"%s\"/>%n",
                    x, HEIGHT - 62, COLORS[i % COLORS.length]));
            String name =
                    series.get(i).ceiling() ? "database ceiling" : series.get(i).name() + (i == 0 ? " (baseline)" : "");
            text(x + 20, HEIGHT - 50, "start", 12, "normal", name);
            x += 140;
        }
        text(
                WIDTH / 2.0,
                HEIGHT - 18,
                "middle",
                10,
                "normal",
                "throughput: events produced while paused, first decision to last; ceiling: the same events in the"
                        + " same batches straight to the decision store; latency: event appended -> decision appended");
    }

    private RunResult find(String scenario, String mode) {
        return report.runs().stream()
                .filter(run -> run.scenario().equals(scenario) && run.mode().equals(mode))
                .findFirst()
                .orElse(null);
    }

    private static double y(double value, double scaleMax) {
        return PLOT_BOTTOM - (PLOT_BOTTOM - PLOT_TOP) * value / scaleMax;
    }

    /** 1, 2 or 5 times a power of ten, at least the value. */
    static double niceCeiling(double value) {
        if (value <= 0) {
            return 1;
        }
        double power = Math.pow(10, Math.floor(Math.log10(value)));
        for (double step : new double[] {1, 2, 5, 10}) {
            if (step * power >= value) {
                return step * power;
            }
        }
        return 10 * power;
    }

    private void text(double x, double y, String anchor, int size, String weight, String content) {
        svg.append(format(
                "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" font-size=\"%d\" font-weight=\"%s\">%s</text>%n",
                x, y, anchor, size, weight, escape(content)));
    }

    private static String escape(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }

    private static String format(String pattern, Object... arguments) {
        return String.format(Locale.ROOT, pattern, arguments);
    }
}
