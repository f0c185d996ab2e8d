package io.risklimits;

import static org.assertj.core.api.Assertions.assertThat;

import io.risklimits.archive.ArchiverProperties;
import io.risklimits.database.DatabaseProperties;
import io.risklimits.decider.DeciderProperties;
import io.risklimits.kafka.KafkaErrorProperties;
import io.risklimits.kafka.TopicProperties;
import io.risklimits.limits.LimitsProperties;
import io.risklimits.shared.RiskProperties;
import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.core.env.EnumerablePropertySource;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.io.ClassPathResource;

/**
 * Each default of a risk.* setting has one home, its properties record: the jar's application.yml
 * sets a risk.* setting only to change what the record would bind without it.
 */
class SettingDefaultsTest {

    private static final Map<String, Class<?>> RECORDS = Map.of(
            "risk", RiskProperties.class,
            "risk.limits", LimitsProperties.class,
            "risk.topics", TopicProperties.class,
            "risk.decider", DeciderProperties.class,
            "risk.archiver", ArchiverProperties.class,
            "risk.database", DatabaseProperties.class,
            "risk.kafka", KafkaErrorProperties.class);

    @Test
    void applicationYmlRepeatsNoDefaultOfThePropertiesRecords() throws IOException {
        Map<String, Object> yml = applicationYml();
        Map<String, Object> bound = bound(yml);
        List<String> repeated = yml.keySet().stream()
                .filter(key -> key.startsWith("risk."))
                .filter(key -> {
                    Map<String, Object> without = new HashMap<>(yml);
                    without.remove(key);
                    return bound(without).equals(bound);
                })
                .sorted()
                .toList();
        assertThat(repeated)
                .as("settings in application.yml that only repeat their record's default")
                .isEmpty();
    }

    private static Map<String, Object> applicationYml() throws IOException {
        EnumerablePropertySource<?> source = (EnumerablePropertySource<?>) new YamlPropertySourceLoader()
                .load("application.yml", new ClassPathResource("application.yml"))
                .get(0);
        Map<String, Object> properties = new HashMap<>();
        for (String name : source.getPropertyNames()) {
            properties.put(name, source.getProperty(name));
        }
        return properties;
    }

    private static Map<String, Object> bound(Map<String, Object> properties) {
        Binder binder =
                new Binder(ConfigurationPropertySources.from(new MapPropertySource("application.yml", properties)));
        Map<String, Object> records = new HashMap<>();
        RECORDS.forEach((prefix, type) -> records.put(prefix, binder.bindOrCreate(prefix, type)));
        return records;
    }
}
