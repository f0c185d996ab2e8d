package io.risklimits.operations;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** One scrape of /actuator/prometheus, read the way Prometheus reads it: name, labels, value. */
record PrometheusScrape(List<Sample> samples) {

    private static final Pattern SAMPLE = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{(.*)})? (\\S+)$");
    private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\"");

    private static final HttpClient HTTP = HttpClient.newHttpClient();

    record Sample(String name, Map<String, String> labels, double value) {}

    static PrometheusScrape of(String baseUrl) {
        try {
            HttpResponse<String> response = HTTP.send(
                    HttpRequest.newBuilder(URI.create(baseUrl + "/actuator/prometheus"))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                throw new IllegalStateException("scrape answered " + response.statusCode());
            }
            return parse(response.body());
        } catch (IOException | InterruptedException e) {
            throw new IllegalStateException("scrape failed", e);
        }
    }

    static PrometheusScrape parse(String text) {
        return new PrometheusScrape(Arrays.stream(text.split("\n"))
                .filter(line -> !line.isBlank() && !line.startsWith("#"))
                .map(PrometheusScrape::sample)
                .toList());
    }

    private static Sample sample(String line) {
        Matcher matcher = SAMPLE.matcher(line);
        if (!matcher.matches()) {
            throw new IllegalArgumentException("not a Prometheus sample: " + line);
        }
        Map<String, String> labels = new HashMap<>();
        if (matcher.group(3) != null) {
            Matcher label = LABEL.matcher(matcher.group(3));
            while (label.find()) {
                labels.put(label.group(1), label.group(2));
            }
        }
        return new Sample(matcher.group(1), labels, Double.parseDouble(matcher.group(4)));
    }

    /** The sum of the samples of that name whose labels include the given ones. */
    double value(String name, Map<String, String> labels) {
        return samples.stream()
                .filter(sample -> sample.name().equals(name))
                .filter(sample -> sample.labels().entrySet().containsAll(labels.entrySet()))
                .mapToDouble(Sample::value)
                .sum();
    }

    double value(String name) {
        return value(name, Map.of());
    }

    boolean has(String name) {
        return samples.stream().anyMatch(sample -> sample.name().equals(name));
    }
}
