package io.freshet.worker.connector.ical;

import io.freshet.worker.budget.WorkBudget;
import java.util.regex.Pattern;
import net.fortuna.ical4j.model.Recur;
import net.fortuna.ical4j.transform.recurrence.Frequency;

/**
 * Bounds an iCalendar document's text before ical4j builds it, because ical4j does work of its own
 * while building that nothing can stop once it has begun:
 *
 * <ul>
 *   <li>at most {@link #MAX_EVENTS} VEVENTs: the text from the next {@code BEGIN:VEVENT} on is
 *       dropped and the calendar closed, so a document of 100,000 events does not become a model of
 *       100,000 events;
 *   <li>at most {@link #MAX_TIMEZONES} VTIMEZONEs, later ones dropped: ical4j registers each one
 *       under an id from a pool of 1,500 shared by every document in the JVM, and expands its rules
 *       from their DTSTART to today (megabytes of garbage a zone, partly on the common fork-join
 *       pool, where the work budget does not see it);
 *   <li>in a VTIMEZONE, an RRULE or EXRULE is kept only when it is yearly and gives at most {@link
 *       #MAX_ZONE_RULE_CANDIDATES} dates a year (real zones' rules give one): ical4j expands each
 *       observance's rules from its DTSTART to today into one list when it registers the zone, and
 *       {@code FREQ=SECONDLY} there exhausts the heap.
 * </ul>
 *
 * Lines are read unfolded (a fold must not hide a {@code BEGIN:VEVENT}); what is kept is copied as
 * it was. A document within the bounds is returned as it is.
 */
final class CalendarText {

  /** VEVENTs read per document. */
  static final int MAX_EVENTS = 20_000;

  /** VTIMEZONEs read per document. */
  static final int MAX_TIMEZONES = 50;

  /** Dates a year a VTIMEZONE's rule may give (e.g. every Sunday of every month: 60). */
  static final int MAX_ZONE_RULE_CANDIDATES = 60;

  private static final Pattern FOLD = Pattern.compile("\r?\n[ \t]");

  private CalendarText() {}

  static String bounded(String text) {
    StringBuilder out = null;
    int events = 0;
    int zones = 0;
    boolean inZone = false;
    boolean skippingZone = false;
    int n = text.length();
    int pos = 0;
    while (pos < n) {
      int start = pos;
      int end = logicalLineEnd(text, pos);
      pos = end;
      char c = Character.toUpperCase(text.charAt(start));
      if (c != 'B' && c != 'E' && c != 'R') {
        if (skippingZone) {
          out = dropped(out, text, start);
        } else if (out != null) {
          out.append(text, start, end);
        }
        continue;
      }
      WorkBudget.checkpoint();
      // Compared in place: a String per line would double what a large document costs here.
      String line = text;
      int from = start;
      int to = trimmedEnd(text, start, end);
      if (text.lastIndexOf('\n', to - 1) >= start) {
        line = unfold(text, start, end);
        from = 0;
        to = line.length();
      }
      boolean keep = !skippingZone;
      if (is(line, from, to, "BEGIN:VEVENT") && !inZone && !skippingZone) {
        if (++events > MAX_EVENTS) {
          StringBuilder cut = out != null ? out : new StringBuilder(text.substring(0, start));
          if (cut.length() > 0 && cut.charAt(cut.length() - 1) != '\n') {
            cut.append("\r\n");
          }
          return cut.append("END:VCALENDAR\r\n").toString();
        }
      } else if (is(line, from, to, "BEGIN:VTIMEZONE") && !inZone && !skippingZone) {
        if (++zones > MAX_TIMEZONES) {
          skippingZone = true;
          keep = false;
        } else {
          inZone = true;
        }
      } else if (is(line, from, to, "END:VTIMEZONE")) {
        keep = !skippingZone;
        inZone = false;
        skippingZone = false;
      } else if (inZone && isRule(line, from, to) && !safeZoneRule(line.substring(from, to))) {
        keep = false;
      }
      if (keep) {
        if (out != null) {
          out.append(text, start, end);
        }
      } else {
        out = dropped(out, text, start);
      }
    }
    return out == null ? text : out.toString();
  }

  /** The builder, started with the text before the first dropped line. */
  private static StringBuilder dropped(StringBuilder out, String text, int lineStart) {
    return out != null ? out : new StringBuilder(text.length()).append(text, 0, lineStart);
  }

  /** End (exclusive, after its line break) of the logical line at {@code pos}: folds included. */
  private static int logicalLineEnd(String text, int pos) {
    int n = text.length();
    int i = pos;
    while (true) {
      int nl = text.indexOf('\n', i);
      if (nl < 0) {
        return n;
      }
      if (nl + 1 < n && (text.charAt(nl + 1) == ' ' || text.charAt(nl + 1) == '\t')) {
        i = nl + 1;
        continue;
      }
      return nl + 1;
    }
  }

  /** End of the line's content: its line break and trailing white space left out. */
  private static int trimmedEnd(String text, int start, int end) {
    int e = end;
    while (e > start && Character.isWhitespace(text.charAt(e - 1))) {
      e--;
    }
    return e;
  }

  /** The logical line without its folds and line break, trailing white space trimmed. */
  private static String unfold(String text, int start, int end) {
    return FOLD.matcher(text.substring(start, end)).replaceAll("").stripTrailing();
  }

  private static boolean is(String s, int from, int to, String word) {
    return to - from == word.length() && s.regionMatches(true, from, word, 0, word.length());
  }

  private static boolean startsWith(String s, int from, int to, String prefix) {
    return to - from >= prefix.length() && s.regionMatches(true, from, prefix, 0, prefix.length());
  }

  private static boolean isRule(String s, int from, int to) {
    return startsWith(s, from, to, "RRULE:")
        || startsWith(s, from, to, "RRULE;")
        || startsWith(s, from, to, "EXRULE:")
        || startsWith(s, from, to, "EXRULE;");
  }

  private static boolean safeZoneRule(String line) {
    int colon = line.indexOf(':');
    try {
      Recur<?> recur = new Recur<>(line.substring(colon + 1));
      return recur.getFrequency() == Frequency.YEARLY
          && BoundedRecurrences.expandable(recur)
          && BoundedRecurrences.candidatesPerPeriod(recur) <= MAX_ZONE_RULE_CANDIDATES;
    } catch (RuntimeException unreadable) {
      return false;
    }
  }
}
