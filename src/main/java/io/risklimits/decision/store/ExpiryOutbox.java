package io.risklimits.decision.store;

import io.risklimits.decision.BusinessKey;
import io.risklimits.decision.Decision;
import io.risklimits.decision.hold.HoldTerms;
import java.util.List;
import org.springframework.stereotype.Service;

/**
 * What the hold sweep works from: the keys whose holds are due, and the expiries filed but not yet sent.
 * An expiry is filed (its audit row, its ledger closed) in the transaction that releases the hold, by a
 * batch of its key or by the sweep; it stays pending until its decision was sent and {@link #sent} says so,
 * so an instance that dies between the two leaves it for the next sweep, which sends the same decision.
 */
@Service
public class ExpiryOutbox {

    /** The most open holds a count reads ({@link #openHolds()}): a sweep's count costs at most this many index entries. */
    public static final long OPEN_HOLDS_COUNTED_UP_TO = 1_000_000;

    private final SweepQueries sweepQueries;
    private final RequestLogReader requestLogReader;
    private final org.springframework.jdbc.core.JdbcOperations jdbc;

    ExpiryOutbox(
            SweepQueries sweepQueries,
            RequestLogReader requestLogReader,
            org.springframework.jdbc.core.JdbcOperations jdbc) {
        this.sweepQueries = sweepQueries;
        this.requestLogReader = requestLogReader;
        this.jdbc = jdbc;
    }

    /** The business keys of the open holds due now, of the earliest limit of them. */
    public List<BusinessKey> keysWithDueHolds(int limit) {
        return sweepQueries.keysWithDueHolds(limit);
    }

    /** The EXPIRED decisions filed and not yet sent, the earliest limit of them, as they were filed. */
    public List<Decision> pending(int limit) {
        List<RequestId> expiries = sweepQueries.unpublishedExpiries(limit).stream()
                .map(authorization ->
                        new RequestId(authorization.businessKey(), HoldTerms.expiryId(authorization.dedupeId())))
                .toList();
        if (expiries.isEmpty()) {
            return List.of();
        }
        RoundTrip trip = new RoundTrip(jdbc);
        var stored = requestLogReader.findAll(expiries, trip);
        trip.run();
        return expiries.stream()
                .map(stored.get()::get)
                .filter(java.util.Objects::nonNull)
                .toList();
    }

    /** Records that these EXPIRED decisions were sent: they are pending no more. */
    public void sent(List<Decision> expiries) {
        sweepQueries.markPublished(expiries.stream()
                .map(expiry -> new RequestId(
                        expiry.fields().businessKey().orElseThrow(),
                        expiry.fields().original()))
                .toList());
    }

    /** The open holds, counted up to {@link #OPEN_HOLDS_COUNTED_UP_TO}: that figure means that many or more. */
    public long openHolds() {
        return sweepQueries.openHolds(OPEN_HOLDS_COUNTED_UP_TO);
    }

    /** How long ago the oldest open hold not yet expired was due, in seconds; 0 when none is. */
    public double sweepLagSeconds() {
        return sweepQueries.sweepLagSeconds();
    }
}
