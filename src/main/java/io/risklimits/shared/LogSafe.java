package io.risklimits.shared;

/** Makes text from records safe for a log line or a header: no control characters, bounded length. */
public final class LogSafe {

    private static final int MAX_LENGTH = 500;

    private LogSafe() {}

    public static String text(String raw) {
        if (raw == null) {
            return "";
        }
        String bounded = raw.length() > MAX_LENGTH ? raw.substring(0, MAX_LENGTH) + "..." : raw;
        StringBuilder safe = new StringBuilder(bounded.length());
        bounded.codePoints().forEach(c -> {
            if (Character.isISOControl(c)
                    || Character.getType(c) == Character.LINE_SEPARATOR
                    || Character.getType(c) == Character.PARAGRAPH_SEPARATOR) {
                safe.append(String.format("\\u%04x", c));
            } else {
                safe.appendCodePoint(c);
            }
        });
        return safe.toString();
    }
}
