package io.risklimits.archive;

import java.util.UUID;

/** A window-advance command as operators publish it. maxWindows null: run to the cutoff. */
record ArchiveCommand(UUID commandId, int windowMinutes, Integer maxWindows, boolean dryRun) {

    static final int DEFAULT_WINDOW_MINUTES = 180;
}
