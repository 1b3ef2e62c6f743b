package io.freshet.stack.demoweb;

import java.io.BufferedReader;
import java.io.IOException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The change times of each source of a trace CSV: all the demo web takes from a trace. It reads the
 * format of cadence-lab's traces ({@code source_id,timestamp_iso}, optionally followed by columns
 * the demo web ignores; a header line starting {@code source_id} is optional) without depending on
 * the lab, which holds the simulator and peer policies no part of the local stack runs.
 *
 * @param ids source ids, in order of first appearance
 * @param times per source, change times in epoch seconds, ascending
 */
public record TraceTimes(List<String> ids, long[][] times) {

  public TraceTimes {
    ids = List.copyOf(ids);
    Objects.requireNonNull(times, "times");
    if (times.length != ids.size()) {
      throw new IllegalArgumentException("one time array per source");
    }
  }

  public int sources() {
    return ids.size();
  }

  /**
   * Reads a whole trace; a bad line fails with its number.
   *
   * @throws IllegalArgumentException naming the line that is not {@code source_id,timestamp}
   */
  public static TraceTimes read(BufferedReader in) throws IOException {
    Map<String, List<Long>> bySource = new LinkedHashMap<>();
    String line;
    int lineNo = 0;
    while ((line = in.readLine()) != null) {
      lineNo++;
      if (line.isBlank() || (lineNo == 1 && line.startsWith("source_id"))) {
        continue;
      }
      String[] f = line.split(",", -1);
      if (f.length < 2 || f[0].isBlank()) {
        throw new IllegalArgumentException(
            "line " + lineNo + ": expected source_id,timestamp_iso[,...]");
      }
      bySource.computeIfAbsent(f[0].trim(), k -> new ArrayList<>()).add(seconds(f[1], lineNo));
    }
    long[][] times = new long[bySource.size()][];
    int s = 0;
    for (List<Long> t : bySource.values()) {
      times[s] = t.stream().mapToLong(Long::longValue).toArray();
      Arrays.sort(times[s++]);
    }
    return new TraceTimes(new ArrayList<>(bySource.keySet()), times);
  }

  private static long seconds(String text, int lineNo) {
    String t = text.trim();
    try {
      return Instant.parse(t).getEpochSecond();
    } catch (DateTimeParseException e) {
      try {
        return OffsetDateTime.parse(t).toEpochSecond();
      } catch (DateTimeParseException e2) {
        throw new IllegalArgumentException(
            "line " + lineNo + ": unparsable timestamp '" + t + "' (ISO-8601)");
      }
    }
  }
}
