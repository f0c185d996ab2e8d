package io.risklimits.cli;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** {@code --name=value} options over defaults; an unknown name is an error, not ignored. */
final class CommandOptions {

    private final Map<String, String> values;

    private CommandOptions(Map<String, String> values) {
        this.values = values;
    }

    static CommandOptions parse(List<String> arguments, Map<String, String> defaults) {
        Map<String, String> values = new HashMap<>(defaults);
        for (String argument : arguments) {
            int equals = argument.indexOf('=');
            if (!argument.startsWith("--") || equals < 3) {
                throw new IllegalArgumentException("expected --name=value, got '" + argument + "'");
            }
            String name = argument.substring(2, equals);
            if (!defaults.containsKey(name)) {
                throw new IllegalArgumentException("unknown option --" + name);
            }
            values.put(name, argument.substring(equals + 1));
        }
        return new CommandOptions(values);
    }

    String get(String name) {
        return values.get(name);
    }
}
