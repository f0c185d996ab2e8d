package io.risklimits.support;

/**
 * A database clock for tests: functions of a test's own schema, under the names of the batch start and the
 * account-scope lock, that take the locks through the real ones (in public) and then answer a time the test
 * chooses, keeping it as the batch's decision time as the real ones keep theirs. A connection whose
 * search_path puts the schema first decides at that time; everything else it runs is the real schema's.
 */
public final class DecisionTimeFunctions {

    private static final String FUNCTIONS = """
            CREATE FUNCTION %1$s.risk_begin_scoped_batch_decision(
                entity_ids uuid[], channel_codes text[], direction_codes text[],
                scopes text[], owner_ids uuid[], scope_channel_codes text[], scope_direction_codes text[])
                RETURNS TABLE (decided_at timestamptz)
                LANGUAGE sql
            AS $$
                SELECT CAST(set_config('risk.batch_decided_at', %2$s, true) AS timestamptz)
                FROM public.risk_begin_scoped_batch_decision(
                         entity_ids, channel_codes, direction_codes, scopes, owner_ids, scope_channel_codes,
                         scope_direction_codes)
            $$;
            CREATE FUNCTION %1$s.risk_lock_scope_keys(
                scopes text[], owner_ids uuid[], channel_codes text[], direction_codes text[])
                RETURNS TABLE (decided_at timestamptz)
                LANGUAGE sql
            AS $$
                SELECT CAST(set_config('risk.batch_decided_at', %2$s, true) AS timestamptz)
                FROM public.risk_lock_scope_keys(scopes, owner_ids, channel_codes, direction_codes)
            $$
            """;

    private DecisionTimeFunctions() {}

    /**
     * The statements that create the functions in the schema.
     *
     * @param decisionTime a SQL text expression of the time they answer, evaluated at each call
     */
    public static String create(String schema, String decisionTime) {
        return FUNCTIONS.formatted(schema, decisionTime);
    }
}
