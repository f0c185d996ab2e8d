package io.risklimits.decision.store;

import io.risklimits.decision.BusinessKey;
import java.util.Collection;
import java.util.UUID;
import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;

/** Business keys as the three parallel arrays that the set-based statements unnest. */
record KeyArrays(UUID[] entityIds, String[] channels, String[] directions) {

    static KeyArrays of(Collection<BusinessKey> keys) {
        UUID[] entityIds = new UUID[keys.size()];
        String[] channels = new String[keys.size()];
        String[] directions = new String[keys.size()];
        int i = 0;
        for (BusinessKey key : keys) {
            entityIds[i] = key.entityId();
            channels[i] = key.channel();
            directions[i] = key.direction().name();
            i++;
        }
        return new KeyArrays(entityIds, channels, directions);
    }

    /** The three arrays as :entityIds, :channels and :directions, for a {@link RoundTrip}. */
    MapSqlParameterSource parameters() {
        return new MapSqlParameterSource()
                .addValue("entityIds", entityIds)
                .addValue("channels", channels)
                .addValue("directions", directions);
    }
}
