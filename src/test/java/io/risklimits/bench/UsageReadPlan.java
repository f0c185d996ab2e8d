package io.risklimits.bench;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import java.util.stream.IntStream;
import javax.sql.DataSource;
import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.test.util.AopTestUtils;

/**
 * The plan of the decider's usage read of keys it reads in full (UsageReadStatements' SELECT_CHUNKS, as the
 * service in this JVM runs it) for one batch of a wide key set's keys, all of them first sights: EXPLAIN
 * (ANALYZE, BUFFERS), printed once with the keys' pages out of shared buffers and once again with them in.
 * The statement and the window starts are read from the service's own classes, so the plan is of the code
 * under test.
 */
final class UsageReadPlan {

    private static final String REPOSITORY = "io.risklimits.decision.store.RunningUsageRepository";
    private static final String STATEMENTS = "io.risklimits.decision.store.UsageReadStatements";

    private UsageReadPlan() {}

    static void print(
            ServiceUnderTest service,
            DataSource dataSource,
            BenchmarkDatabase database,
            FirstSights firstSights,
            BenchmarkKeys keys,
            int batchSize) {
        try {
            Class<?> repositoryType = Class.forName(REPOSITORY);
            Class<?> statements = Class.forName(STATEMENTS);
            Field statement = statements.getDeclaredField("SELECT_CHUNKS");
            statement.setAccessible(true);
            // a template for either bucket table: the business keys' is the one the plan is of
            Class<?> tables = Class.forName("io.risklimits.decision.store.BucketTable");
            Method render = tables.getDeclaredMethod("sql", String.class);
            render.setAccessible(true);
            Object keyBuckets = tables.getEnumConstants()[0];
            String sql = (String) render.invoke(keyBuckets, statement.get(null));
            Method windowStarts = repositoryType.getDeclaredMethod("windowStartInstants", Instant.class);
            windowStarts.setAccessible(true);
            // the bean is a proxy (a repository's exception translation): the method runs on its target
            Object repository = AopTestUtils.getUltimateTargetObject(service.bean(repositoryType));
            @SuppressWarnings("unchecked")
            List<Instant> startInstants = (List<Instant>)
                    windowStarts.invoke(repository, Instant.now().truncatedTo(ChronoUnit.HOURS));
            // as the repository binds them: UTC timestamps in text
            String[] starts = startInstants.stream()
                    .map(start -> LocalDateTime.ofInstant(start, ZoneOffset.UTC).toString())
                    .toArray(String[]::new);
            String earliestStart = LocalDateTime.ofInstant(
                            startInstants.stream().min(Instant::compareTo).orElseThrow(), ZoneOffset.UTC)
                    .toString();
            // a batch as the store sends it: sorted by key, the order its locks are taken in
            List<Integer> batch = IntStream.range(0, Math.min(batchSize, keys.size()))
                    .boxed()
                    .sorted(Comparator.comparing((Integer i) -> keys.entityId(i).toString())
                            .thenComparing(keys::direction))
                    .toList();
            MapSqlParameterSource parameters = new MapSqlParameterSource()
                    .addValue("entityIds", batch.stream().map(keys::entityId).toArray(UUID[]::new))
                    .addValue(
                            "channels",
                            batch.stream().map(i -> BenchmarkKeys.CHANNEL).toArray(String[]::new))
                    .addValue("directions", batch.stream().map(keys::direction).toArray(String[]::new))
                    .addValue("windowStarts", starts)
                    .addValue("earliestStart", earliestStart);
            NamedParameterJdbcTemplate jdbc = new NamedParameterJdbcTemplate(dataSource);
            firstSights.restore(service, database);
            for (String pages : List.of("out of shared buffers", "in shared buffers")) {
                List<String> plan = jdbc.queryForList(
                        "EXPLAIN (ANALYZE, BUFFERS, VERBOSE, SETTINGS) " + sql, parameters, String.class);
                System.out.printf(
                        "Benchmark: the usage read of %d wide keys, first sights, their pages %s:%n",
                        batch.size(), pages);
                plan.forEach(line -> System.out.println("  " + line));
            }
        } catch (ReflectiveOperationException | RuntimeException e) {
            // a plan that cannot be read takes nothing from the figures measured
            System.out.println("Benchmark: the usage read's plan is not printed: " + e
                    + (e.getCause() == null ? "" : ", caused by " + e.getCause()));
        }
    }
}
