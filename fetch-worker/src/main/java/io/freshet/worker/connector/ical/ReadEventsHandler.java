package io.freshet.worker.connector.ical;

import java.io.IOException;
import java.util.Locale;
import java.util.Set;
import net.fortuna.ical4j.data.ContentHandler;
import net.fortuna.ical4j.model.Component;
import net.fortuna.ical4j.model.Property;

/**
 * Passes on to ical4j's own content handler ({@code target}, a {@code DefaultContentHandler}) only
 * what {@link IcalConnector} reads, so ical4j builds nothing else: the calendar's start and end,
 * every top-level VTIMEZONE whole (ical4j registers it and resolves TZID parameters against it),
 * and each top-level VEVENT with only {@link #EVENT_PROPERTIES} (their parameters included).
 * Everything else — the calendar's own properties, VTODO, VJOURNAL, VFREEBUSY, any component nested
 * in a VEVENT (VALARM), a VEVENT's other properties — is read by the parser and dropped here.
 * Building a property is most of what building a calendar costs (a date parse tried format by
 * format, regex unescaping of text), and a real calendar's ATTENDEE, X- or CREATED line that ical4j
 * cannot build no longer fails a document whose events are readable.
 *
 * <p>Names are compared ignoring case, so whatever the full build would have turned into a VEVENT,
 * VTIMEZONE or one of the properties read is still passed on. Components are nested at most as deep
 * as {@code DefaultContentHandler} allows, skipped ones included: the parser recurses per level,
 * and that limit is what stops a document of 100,000 nested components.
 */
final class ReadEventsHandler implements ContentHandler {

  /** A VEVENT's properties the connector reads: {@code item(...)} and the recurrence expansion. */
  static final Set<String> EVENT_PROPERTIES =
      Set.of(
          Property.UID,
          Property.RRULE,
          Property.RDATE,
          Property.EXDATE,
          Property.EXRULE,
          Property.DTSTART,
          Property.DTEND,
          Property.DURATION,
          Property.DUE,
          Property.LOCATION,
          Property.LAST_MODIFIED,
          Property.DTSTAMP,
          Property.URL,
          Property.SUMMARY,
          Property.DESCRIPTION);

  /** Components open at most when another begins: {@code DefaultContentHandler}'s limit. */
  private static final int MAX_OPEN = 10;

  private final ContentHandler target;

  /** Components open, skipped ones included. */
  private int depth;

  /** The depth of the outermost component being skipped, or 0 when none is. */
  private int skippedAt;

  /** Whether the open top-level component is a VTIMEZONE: passed on whole. */
  private boolean inZone;

  /** Whether the current property is passed on. */
  private boolean passing;

  ReadEventsHandler(ContentHandler target) {
    this.target = target;
  }

  @Override
  public void startCalendar() {
    depth = 0;
    skippedAt = 0;
    inZone = false;
    passing = false;
    target.startCalendar();
  }

  @Override
  public void endCalendar() throws IOException {
    target.endCalendar();
  }

  @Override
  public void startComponent(String name) {
    if (depth > MAX_OPEN) {
      throw new RuntimeException("Components nested too deep"); // DefaultContentHandler's words
    }
    depth++;
    if (skippedAt > 0) {
      return;
    }
    if (depth == 1) {
      inZone = Component.VTIMEZONE.equalsIgnoreCase(name);
      if (!inZone && !Component.VEVENT.equalsIgnoreCase(name)) {
        skippedAt = depth;
        return;
      }
    } else if (!inZone) {
      skippedAt = depth; // nested in a VEVENT: VALARM and the like
      return;
    }
    target.startComponent(name);
  }

  @Override
  public void endComponent(String name) {
    int ending = depth--;
    if (skippedAt > 0) {
      if (ending == skippedAt) {
        skippedAt = 0;
      }
      return;
    }
    target.endComponent(name);
    if (depth == 0) {
      inZone = false;
    }
  }

  @Override
  public void startProperty(String name) {
    passing =
        depth > 0
            && skippedAt == 0
            && (inZone || EVENT_PROPERTIES.contains(name.toUpperCase(Locale.ROOT)));
    if (passing) {
      target.startProperty(name);
    }
  }

  @Override
  public void propertyValue(String value) {
    if (passing) {
      target.propertyValue(value);
    }
  }

  @Override
  public void parameter(String name, String value) {
    if (passing) {
      target.parameter(name, value);
    }
  }

  @Override
  public void endProperty(String name) {
    if (passing) {
      target.endProperty(name);
    }
    passing = false;
  }
}
