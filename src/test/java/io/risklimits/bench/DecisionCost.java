package io.risklimits.bench;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * What one decision cost in a phase, in figures that hold across machines better than decisions per
 * second do, and that a deployment is sized from. A figure that could not be read is null.
 *
 * @param pgCpuUs CPU microseconds of the benchmark's PostgreSQL server (its postmaster and children)
 * @param serviceCpuUs CPU microseconds of the decider's own threads: end to end its consumer threads,
 *     its producer's network thread and its group's heartbeat thread; at the ceiling the callers'
 *     threads. Not the in-process broker's, not the load driver's
 * @param walBytes bytes of WAL written (pg_current_wal_lsn before and after)
 * @param walFpiPer1000 full-page images in the WAL per 1,000 decisions (pg_stat_wal.wal_fpi)
 * @param roundTripsPerBatch round trips to PostgreSQL (statements sent, commits) per database
 *     transaction of the decider: per poll for the batched decider, per event for the baseline
 * @param indexProbesPerDecision index scans begun on the buckets' and the request log's indexes
 *     (pg_stat_user_indexes.idx_scan)
 * @param bufferHitRatio of the blocks of those two tables and their indexes the phase touched, the share
 *     found in shared buffers (pg_statio_user_tables: heap and index blocks hit over hit and read)
 */
record DecisionCost(
        Double pgCpuUs,
        Double serviceCpuUs,
        Double walBytes,
        @JsonProperty("wal_fpi_per_1000") Double walFpiPer1000,
        Double roundTripsPerBatch,
        Double indexProbesPerDecision,
        Double bufferHitRatio) {

    private static final List<Map.Entry<String, Function<DecisionCost, Double>>> FIGURES = List.of(
            Map.entry("pg_cpu_us", DecisionCost::pgCpuUs),
            Map.entry("service_cpu_us", DecisionCost::serviceCpuUs),
            Map.entry("wal_bytes", DecisionCost::walBytes),
            Map.entry("wal_fpi_per_1000", DecisionCost::walFpiPer1000),
            Map.entry("round_trips_per_batch", DecisionCost::roundTripsPerBatch),
            Map.entry("index_probes_per_decision", DecisionCost::indexProbesPerDecision),
            Map.entry("buffer_hit_ratio", DecisionCost::bufferHitRatio));

    /** The figures by their summary.json names, rounded to what they can tell. */
    Map<String, Object> figures() {
        Map<String, Object> figures = new LinkedHashMap<>();
        FIGURES.forEach(figure -> {
            Double value = figure.getValue().apply(this);
            // a hit ratio is read in its third and fourth decimals
            figures.put(
                    figure.getKey(),
                    figure.getKey().equals("buffer_hit_ratio") && value != null
                            ? Math.round(value * 10_000) / 10_000.0
                            : rounded(value));
        });
        return figures;
    }

    /** Of several phases, the median of each figure on its own (null where a phase could not read it). */
    static DecisionCost median(List<DecisionCost> costs) {
        return new DecisionCost(
                medianOf(costs, DecisionCost::pgCpuUs),
                medianOf(costs, DecisionCost::serviceCpuUs),
                medianOf(costs, DecisionCost::walBytes),
                medianOf(costs, DecisionCost::walFpiPer1000),
                medianOf(costs, DecisionCost::roundTripsPerBatch),
                medianOf(costs, DecisionCost::indexProbesPerDecision),
                medianOf(costs, DecisionCost::bufferHitRatio));
    }

    private static Double medianOf(List<DecisionCost> costs, Function<DecisionCost, Double> figure) {
        List<Double> values = costs.stream()
                .filter(Objects::nonNull)
                .map(figure)
                .filter(Objects::nonNull)
                .sorted(Comparator.naturalOrder())
                .toList();
        if (values.isEmpty() || values.size() < costs.size()) {
            return null;
        }
        int middle = values.size() / 2;
        return values.size() % 2 == 1 ? values.get(middle) : (values.get(middle - 1) + values.get(middle)) / 2;
    }

    private static Double rounded(Double value) {
        return value == null ? null : Math.round(value * 100) / 100.0;
    }

    @Override
    public String toString() {
        return String.format(
                "PostgreSQL %s us CPU, decider threads %s us CPU, %s bytes of WAL, %s full-page images per 1,000,"
                        + " %s round trips per transaction, %s index probes, buffer hit ratio %s",
                format(pgCpuUs),
                format(serviceCpuUs),
                format(walBytes),
                format(walFpiPer1000),
                format(roundTripsPerBatch),
                format(indexProbesPerDecision),
                bufferHitRatio == null ? "-" : String.format("%.4f", bufferHitRatio));
    }

    private static String format(Double value) {
        return value == null ? "-" : String.format("%.1f", value);
    }
}
