package io.risklimits.bench;

import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/**
 * A hand-written SVG bar chart of a report: decisions per second (left) and p99 latency at the
 * latency phase's fixed rate (right), one group per scenario, one bar per mode.
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

    private SvgChart(BenchmarkReport report) {
        this.report = report;
        this.modes = report.runs().stream().map(RunResult::mode).distinct().toList();
        this.scenarios =
                report.runs().stream().map(RunResult::scenario).distinct().toList();
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
        panel(
                70,
                440,
                "decisions per second (higher is better)",
                run -> run.throughput().decisionsPerSecond(),
                run -> format("%.0f", run.throughput().decisionsPerSecond()));
        panel(
                560,
                930,
                "p99 latency in ms at half of that rate (lower is better)",
                run -> run.latency().p99Millis(),
                run -> format("%d", run.latency().p99Millis()));
        legend();
        svg.append("</svg>\n");
        return svg.toString();
    }

    private String headline() {
        if (report.headlineRatio() == null) {
            return "one mode only: no ratio";
        }
        BenchmarkReport.ModeRatio first = report.modeRatios().get(0);
        return format(
                "%s / %s, uniform keys with 30 days of history: %.1fx the decisions per second",
                first.mode(), first.baseline(), report.headlineRatio());
    }

    private void panel(
            int left,
            int right,
            String title,
            ToDoubleFunction<RunResult> value,
            java.util.function.Function<RunResult, String> label) {
        double max = report.runs().stream().mapToDouble(value).max().orElse(1);
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
        double barWidth = Math.min(48, (groupWidth - 24) / modes.size());
        for (int group = 0; group < scenarios.size(); group++) {
            double groupLeft = left + group * groupWidth + (groupWidth - barWidth * modes.size()) / 2;
            for (int bar = 0; bar < modes.size(); bar++) {
                RunResult run = find(scenarios.get(group), modes.get(bar));
                if (run == null) {
                    continue;
                }
                double x = groupLeft + bar * barWidth;
                double top = y(value.applyAsDouble(run), scaleMax);
                svg.append(format(
                        "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"/>%n",
                        x + 2, top, barWidth - 4, PLOT_BOTTOM - top, COLORS[bar % COLORS.length]));
                text(x + barWidth / 2, top - 4, "middle", 10, "normal", label.apply(run));
            }
            text(left + (group + 0.5) * groupWidth, PLOT_BOTTOM + 18, "middle", 12, "normal", scenarios.get(group));
        }
    }

    private void legend() {
        double x = WIDTH / 2.0 - modes.size() * 70;
        for (int i = 0; i < modes.size(); i++) {
            svg.append(format(
                    "<rect x=\"%.1f\" y=\"%d\" width=\"14\" height=\"14\" fill=\"%s\"/>%n",
                    x, HEIGHT - 62, COLORS[i % COLORS.length]));
            text(x + 20, HEIGHT - 50, "start", 12, "normal", modes.get(i) + (i == 0 ? " (baseline)" : ""));
            x += 140;
        }
        text(
                WIDTH / 2.0,
                HEIGHT - 18,
                "middle",
                10,
                "normal",
                "throughput: events produced while paused, first decision to last; latency: event appended"
                        + " -> decision appended to Kafka, open loop (from scheduled in the JSON)");
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
