package io.freshet.cadence.sim;

import io.freshet.cadence.source.SignalType;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.Writer;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads and writes trace CSVs: {@code source_id,timestamp_iso} per line, optionally followed by
 * {@code signal_type,event_at} (either may be empty). A header line is optional and recognised by
 * its first column {@code source_id}. Timestamps are ISO-8601 instants or offset date-times.
 */
public final class TraceCsv {

  /** The header {@link #write} emits. */
  public static final String HEADER = "source_id,timestamp_iso,signal_type,event_at";

  private TraceCsv() {}

  /** Reads a whole trace; any bad line fails with its line number. */
  public static Trace read(BufferedReader in) throws IOException {
    Map<String, Integer> index = new LinkedHashMap<>();
    List<Column> columns = new ArrayList<>();
    boolean anyType = false;
    boolean anyEvent = false;
    String line;
    int lineNo = 0;
    while ((line = in.readLine()) != null) {
      lineNo++;
      if (line.isBlank() || (lineNo == 1 && line.startsWith("source_id"))) {
        continue;
      }
      String[] f = line.split(",", -1);
      if (f.length < 2 || f.length > 4) {
        throw new TraceFormatException(
            "line "
                + lineNo
                + ": expected source_id,timestamp_iso[,signal_type,event_at], got "
                + f.length
                + " columns");
      }
      String id = f[0].trim();
      if (id.isEmpty()) {
        throw new TraceFormatException("line " + lineNo + ": empty source_id");
      }
      long t = parseTime(f[1].trim(), lineNo, "timestamp");
      byte type = -1;
      if (f.length >= 3 && !f[2].isBlank()) {
        final int n = lineNo;
        type =
            (byte)
                SignalType.parse(f[2])
                    .orElseThrow(
                        () ->
                            new TraceFormatException(
                                "line "
                                    + n
                                    + ": unknown signal_type '"
                                    + f[2].trim()
                                    + "'; allowed values: "
                                    + SignalType.allowed()))
                    .ordinal();
        anyType = true;
      }
      long event = Trace.NONE;
      if (f.length == 4 && !f[3].isBlank()) {
        event = parseTime(f[3].trim(), lineNo, "event_at");
        anyEvent = true;
      }
      Integer s = index.get(id);
      if (s == null) {
        s = index.size();
        index.put(id, s);
        columns.add(new Column());
      }
      columns.get(s).add(t, type, event);
    }
    int n = index.size();
    long[][] times = new long[n][];
    byte[][] types = anyType ? new byte[n][] : null;
    long[][] events = anyEvent ? new long[n][] : null;
    for (int s = 0; s < n; s++) {
      Column c = columns.get(s);
      c.sort();
      times[s] = Arrays.copyOf(c.times, c.size);
      if (types != null) {
        types[s] = Arrays.copyOf(c.types, c.size);
      }
      if (events != null) {
        events[s] = Arrays.copyOf(c.events, c.size);
      }
    }
    return new Trace(new ArrayList<>(index.keySet()), times, types, events);
  }

  /** Writes {@code trace} with a header, one change per line, source by source. */
  public static void write(Trace trace, Writer out) throws IOException {
    out.write(HEADER);
    out.write('\n');
    StringBuilder sb = new StringBuilder(96);
    SignalType[] typeValues = SignalType.values();
    for (int s = 0; s < trace.sources(); s++) {
      String id = trace.ids().get(s);
      long[] t = trace.times()[s];
      for (int i = 0; i < t.length; i++) {
        sb.setLength(0);
        sb.append(id).append(',').append(Instant.ofEpochSecond(t[i])).append(',');
        if (trace.types() != null && trace.types()[s][i] >= 0) {
          sb.append(typeValues[trace.types()[s][i]].wireName());
        }
        sb.append(',');
        if (trace.eventAt() != null && trace.eventAt()[s][i] != Trace.NONE) {
          sb.append(Instant.ofEpochSecond(trace.eventAt()[s][i]));
        }
        sb.append('\n');
        out.append(sb);
      }
    }
  }

  /** Parses an ISO instant; fast path for {@code yyyy-MM-ddTHH:mm:ssZ}. */
  static long parseTime(String text, int lineNo, String column) {
    if (text.length() == 20 && text.charAt(10) == 'T' && text.charAt(19) == 'Z') {
      long fast = fastUtc(text);
      if (fast != Long.MIN_VALUE) {
        return fast;
      }
    }
    try {
      return Instant.parse(text).getEpochSecond();
    } catch (DateTimeParseException e) {
      try {
        return OffsetDateTime.parse(text).toEpochSecond();
      } catch (DateTimeParseException e2) {
        throw new TraceFormatException(
            "line "
                + lineNo
                + ": unparsable "
                + column
                + " '"
                + text
                + "' (expected ISO-8601 such as 2026-01-05T12:00:00Z)");
      }
    }
  }

  private static long fastUtc(String s) {
    int y = digits(s, 0, 4);
    int mo = digits(s, 5, 2);
    int d = digits(s, 8, 2);
    int h = digits(s, 11, 2);
    int mi = digits(s, 14, 2);
    int se = digits(s, 17, 2);
    if (y < 0
        || mo < 1
        || mo > 12
        || d < 1
        || d > 31
        || h > 23
        || mi > 59
        || se > 59
        || s.charAt(4) != '-'
        || s.charAt(7) != '-'
        || s.charAt(13) != ':'
        || s.charAt(16) != ':'
        || h < 0
        || mi < 0
        || se < 0
        || d > java.time.YearMonth.of(y, mo).lengthOfMonth()) {
      return Long.MIN_VALUE;
    }
    long days = java.time.LocalDate.of(y, mo, d).toEpochDay();
    return days * 86400 + h * 3600L + mi * 60L + se;
  }

  private static int digits(String s, int from, int len) {
    int v = 0;
    for (int i = from; i < from + len; i++) {
      char c = s.charAt(i);
      if (c < '0' || c > '9') {
        return -1;
      }
      v = v * 10 + (c - '0');
    }
    return v;
  }

  /** A growable column of one source's changes. */
  private static final class Column {
    long[] times = new long[8];
    byte[] types = new byte[8];
    long[] events = new long[8];
    int size;

    void add(long t, byte type, long event) {
      if (size == times.length) {
        times = Arrays.copyOf(times, size * 2);
        types = Arrays.copyOf(types, size * 2);
        events = Arrays.copyOf(events, size * 2);
      }
      times[size] = t;
      types[size] = type;
      events[size] = event;
      size++;
    }

    void sort() {
      boolean sorted = true;
      for (int i = 1; i < size && sorted; i++) {
        sorted = times[i - 1] <= times[i];
      }
      if (sorted) {
        return;
      }
      Integer[] order = new Integer[size];
      for (int i = 0; i < size; i++) {
        order[i] = i;
      }
      Arrays.sort(order, (a, b) -> Long.compare(times[a], times[b]));
      long[] t2 = new long[size];
      byte[] ty2 = new byte[size];
      long[] e2 = new long[size];
      for (int i = 0; i < size; i++) {
        t2[i] = times[order[i]];
        ty2[i] = types[order[i]];
        e2[i] = events[order[i]];
      }
      times = t2;
      types = ty2;
      events = e2;
    }
  }
}
