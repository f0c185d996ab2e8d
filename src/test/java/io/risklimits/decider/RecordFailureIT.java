package io.risklimits.decider;

import static org.assertj.core.api.Assertions.assertThat;

import io.risklimits.kafka.DeadLetterPublisher;
import io.risklimits.support.DecisionMessage;
import io.risklimits.support.Events;
import io.risklimits.support.NoRowsLeftBehind;
import io.risklimits.support.OwnRows;
import io.risklimits.support.RunningService;
import io.risklimits.support.TestInfrastructure;
import io.risklimits.support.TestKafka;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * A failure tied to one record (here the database refuses that record's audit row with a check
 * violation, as it would a value it cannot hold) is retried a few times and then dead-lettered: the
 * partition moves on to the records after it instead of retrying the one record forever.
 */
@ExtendWith(NoRowsLeftBehind.class)
class RecordFailureIT {

    private final JdbcTemplate db = new JdbcTemplate(TestInfrastructure.get().dataSource());
    private final UUID poison = UUID.randomUUID();
    private final String trigger = "refuse_" + poison.toString().replace("-", "");
    private final OwnRows rows = new OwnRows();

    @AfterEach
    void deleteTheirRows() {
        rows.deleteTheirRows(db);
    }

    @AfterEach
    void dropTheRefusal() {
        db.execute("DROP TRIGGER IF EXISTS " + trigger + " ON risk_request_log");
        db.execute("DROP FUNCTION IF EXISTS " + trigger + "()");
    }

    @Test
    void aRecordTheDatabaseRefusesIsDeadLetteredAndThePartitionMovesOn() {
        db.execute("CREATE FUNCTION " + trigger + "() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
                + "IF NEW.dedupe_id = '" + poison + "' THEN "
                + "RAISE EXCEPTION 'refused for the test' USING ERRCODE = 'check_violation'; END IF; "
                + "RETURN NEW; END $$");
        db.execute("CREATE TRIGGER " + trigger + " BEFORE INSERT ON risk_request_log FOR EACH ROW EXECUTE FUNCTION "
                + trigger + "()");
        RunningService.Topics topics = RunningService.Topics.unique();
        UUID entity = rows.newEntity();
        String channel = "REC_" + topics.suffix().toUpperCase();
        String key = Events.businessKey(entity, channel, "OUT");
        UUID before = UUID.randomUUID();
        UUID after = UUID.randomUUID();

        try (RunningService service = RunningService.start(topics, Map.of("risk.roles", "decider"));
                KafkaProducer<byte[], byte[]> producer = TestKafka.producer()) {
            for (UUID dedupeId : List.of(before, poison, after)) {
                TestKafka.send(
                        producer,
                        topics.transactions(),
                        0,
                        key,
                        Events.json(Events.event(dedupeId, entity, channel, "OUT", 100)));
            }

            List<String> decided = TestKafka.readAtLeast(topics.decisions(), 2, Duration.ofSeconds(90)).stream()
                    .map(record -> DecisionMessage.of(record).dedupeId())
                    .toList();
            List<ConsumerRecord<byte[], byte[]>> deadLetters =
                    TestKafka.readAtLeast(topics.deadLetter(), 1, Duration.ofSeconds(30));

            assertThat(decided).containsExactlyInAnyOrder(before.toString(), after.toString());
            assertThat(deadLetters).hasSize(1);
            assertThat(new String(deadLetters.get(0).value(), StandardCharsets.UTF_8))
                    .contains(poison.toString());
            assertThat(new String(
                            deadLetters
                                    .get(0)
                                    .headers()
                                    .lastHeader(DeadLetterPublisher.ERROR_MESSAGE)
                                    .value(),
                            StandardCharsets.UTF_8))
                    .contains("refused for the test");
        }
    }
}
