package io.risklimits.decision;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class ScopeKeyTest {

    private static final String OWNER = "d4300e83-3c2b-4d4e-8f5a-0e6c1b2a3d4f";
    private static final ScopeKey KEY =
            new ScopeKey(Scope.ACCOUNT_CHANNEL, UUID.fromString(OWNER), "CARD", Direction.OUT);

    @Test
    void keysOfTheSameScopeOwnerChannelAndDirectionAreEqual() {
        ScopeKey same = new ScopeKey(Scope.ACCOUNT_CHANNEL, UUID.fromString(OWNER), new String("CARD"), Direction.OUT);

        assertThat(same).isEqualTo(KEY).hasSameHashCodeAs(KEY);
        assertThat(same.owner()).isEqualTo(UUID.fromString(OWNER));
    }

    @Test
    void keysThatDifferInAnyPartDiffer() {
        UUID otherOwner = new UUID(UUID.fromString(OWNER).getMostSignificantBits(), 1L);
        List<ScopeKey> others = List.of(
                new ScopeKey(Scope.ACCOUNT_CHANNEL, otherOwner, "CARD", Direction.OUT),
                new ScopeKey(
                        Scope.ACCOUNT_CHANNEL,
                        new UUID(2L, UUID.fromString(OWNER).getLeastSignificantBits()),
                        "CARD",
                        Direction.OUT),
                new ScopeKey(Scope.ACCOUNT_CHANNEL, UUID.fromString(OWNER), "ATM", Direction.OUT),
                new ScopeKey(Scope.ACCOUNT_CHANNEL, UUID.fromString(OWNER), "CARD", Direction.IN),
                new ScopeKey(Scope.KEY, UUID.fromString(OWNER), "CARD", Direction.OUT));

        others.forEach(other -> assertThat(other).isNotEqualTo(KEY));
    }

    @Test
    void aScopeOverAllChannelsHasNoChannelOfItsOwn() {
        assertThatThrownBy(() -> new ScopeKey(Scope.ACCOUNT, UUID.fromString(OWNER), "CARD", Direction.OUT))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new ScopeKey(Scope.KEY, UUID.fromString(OWNER), ScopeKey.ALL_CHANNELS, Direction.OUT))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
