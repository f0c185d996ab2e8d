package io.risklimits.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/** Left-aligned columns separated by two spaces: readable by people, and by awk. */
final class TextTable {

    private final List<List<String>> lines = new ArrayList<>();

    TextTable(String... header) {
        lines.add(List.of(header));
    }

    TextTable row(Object... cells) {
        List<String> line = new ArrayList<>();
        for (Object cell : cells) {
            line.add(cell == null ? "-" : cell.toString());
        }
        lines.add(line);
        return this;
    }

    void print(PrintWriter out, String indent) {
        int columns = lines.get(0).size();
        int[] widths = new int[columns];
        for (List<String> line : lines) {
            for (int column = 0; column < columns; column++) {
                widths[column] = Math.max(widths[column], line.get(column).length());
            }
        }
        for (List<String> line : lines) {
            StringBuilder text = new StringBuilder(indent);
            for (int column = 0; column < columns; column++) {
                text.append(column == columns - 1 ? line.get(column) : pad(line.get(column), widths[column] + 2));
            }
            out.println(text.toString().stripTrailing());
        }
    }

    private static String pad(String text, int width) {
        return text + " ".repeat(width - text.length());
    }
}
