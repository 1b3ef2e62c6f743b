package io.freshet.worker.connector.ical;

import io.freshet.schemas.avro.Connector;
import io.freshet.worker.connector.DocumentConnector;
import io.freshet.worker.connector.RawItem;
import io.freshet.worker.connector.SourceRequest;
import io.freshet.worker.http.ErrorKind;
import io.freshet.worker.http.FetchFailure;
import io.freshet.worker.http.HttpResult;
import io.freshet.worker.items.Text;
import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.temporal.Temporal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import net.fortuna.ical4j.data.CalendarBuilder;
import net.fortuna.ical4j.data.ParserException;
import net.fortuna.ical4j.model.Calendar;
import net.fortuna.ical4j.model.Component;
import net.fortuna.ical4j.model.Period;
import net.fortuna.ical4j.model.Property;
import net.fortuna.ical4j.model.component.VEvent;

/**
 * {@code ical}: the events of an iCalendar document (ical4j) that happen within the window, each
 * occurrence of a recurring event its own item ({@code <uid>@<start>}), with {@code event_at} = the
 * occurrence's start. Without a window (the CLI's {@code --all-items}) recurrences are expanded one
 * year back and two ahead, so an endless rule stays finite.
 */
public final class IcalConnector extends DocumentConnector {

  private static final Duration UNBOUNDED_BACK = Duration.ofDays(366);
  private static final Duration UNBOUNDED_AHEAD = Duration.ofDays(731);

  @Override
  public Connector type() {
    return Connector.ical;
  }

  @Override
  protected List<RawItem> parse(HttpResult response, SourceRequest request) throws FetchFailure {
    Charset charset =
        response.declaredCharset() == null ? StandardCharsets.UTF_8 : response.declaredCharset();
    Calendar calendar;
    try {
      calendar =
          new CalendarBuilder().build(new StringReader(new String(response.body(), charset)));
    } catch (ParserException e) {
      throw new FetchFailure(
          ErrorKind.PARSE, "not a readable iCalendar document: " + e.getMessage());
    } catch (IOException | RuntimeException e) {
      throw new FetchFailure(
          ErrorKind.PARSE, "not a readable iCalendar document: " + e.getClass().getSimpleName());
    }
    Instant now = request.now();
    Instant from = now.minus(orElse(request.options().windowBack(), UNBOUNDED_BACK));
    Instant to = now.plus(orElse(request.options().windowAhead(), UNBOUNDED_AHEAD));
    Period<ZonedDateTime> window =
        new Period<>(from.atZone(ZoneOffset.UTC), to.atZone(ZoneOffset.UTC));
    List<RawItem> items = new ArrayList<>();
    List<VEvent> events = calendar.getComponents(Component.VEVENT);
    for (VEvent event : events) {
      items.addAll(occurrences(event, window, response));
    }
    items.sort(
        Comparator.comparing(RawItem::eventAt, Comparator.nullsLast(Comparator.naturalOrder())));
    return items;
  }

  private static List<RawItem> occurrences(
      VEvent event, Period<ZonedDateTime> window, HttpResult response) {
    String uid = value(event, Property.UID).orElse(null);
    boolean recurring =
        event.getProperty(Property.RRULE).isPresent()
            || event.getProperty(Property.RDATE).isPresent();
    Set<Period<Temporal>> periods;
    try {
      periods = event.calculateRecurrenceSet(window);
    } catch (RuntimeException unexpandable) {
      return List.of(); // an event ical4j cannot place in time is not an item
    }
    Map<String, String> metadata = new HashMap<>();
    value(event, Property.LOCATION).ifPresent(l -> metadata.put("location", l));
    Instant modified =
        value(event, Property.LAST_MODIFIED)
            .or(() -> value(event, Property.DTSTAMP))
            .map(IcalConnector::stamp)
            .orElse(null);
    String url = value(event, Property.URL).orElse(null);
    List<RawItem> out = new ArrayList<>(periods.size());
    for (Period<Temporal> period : periods) {
      Instant start = instant(period.getStart());
      if (start == null) {
        continue;
      }
      if (period.getEnd() != null) {
        Instant end = instant(period.getEnd());
        if (end != null && !end.equals(start)) {
          metadata.put("end", end.toString());
        }
      }
      String id = uid == null ? null : recurring ? uid + "@" + start : uid;
      out.add(
          new RawItem(
              id,
              url == null ? null : resolve(response.finalUri(), url),
              Text.plain(value(event, Property.SUMMARY).orElse(null)),
              value(event, Property.DESCRIPTION).orElse(null),
              "text/plain",
              modified,
              start,
              true,
              new HashMap<>(metadata)));
    }
    return out;
  }

  private static Optional<String> value(VEvent event, String name) {
    return event.getProperty(name).map(Property::getValue).filter(v -> !v.isBlank());
  }

  private static Instant stamp(String value) {
    try {
      return java.time.format.DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmssX")
          .parse(value, Instant::from);
    } catch (RuntimeException e) {
      return null;
    }
  }

  static Instant instant(Temporal t) {
    return switch (t) {
      case Instant i -> i;
      case ZonedDateTime z -> z.toInstant();
      case OffsetDateTime o -> o.toInstant();
      case LocalDateTime floating -> floating.toInstant(ZoneOffset.UTC);
      case LocalDate day -> day.atStartOfDay(ZoneOffset.UTC).toInstant();
      default -> null;
    };
  }

  private static Duration orElse(Duration d, Duration fallback) {
    return d == null ? fallback : d;
  }
}
