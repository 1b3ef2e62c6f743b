package io.freshet.worker.connector.ical;

import io.freshet.schemas.avro.Connector;
import io.freshet.worker.budget.BudgetExceededException;
import io.freshet.worker.budget.WorkBudget;
import io.freshet.worker.connector.DocumentConnector;
import io.freshet.worker.connector.SourceRequest;
import io.freshet.worker.http.ErrorKind;
import io.freshet.worker.http.FetchFailure;
import io.freshet.worker.http.HttpResult;
import io.freshet.worker.items.RawItem;
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
import java.time.format.DateTimeFormatter;
import java.time.temporal.Temporal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.PriorityQueue;
import net.fortuna.ical4j.data.CalendarParserFactory;
import net.fortuna.ical4j.data.ContentHandlerContext;
import net.fortuna.ical4j.data.DefaultComponentFactorySupplier;
import net.fortuna.ical4j.data.DefaultContentHandler;
import net.fortuna.ical4j.data.DefaultParameterFactorySupplier;
import net.fortuna.ical4j.data.DefaultPropertyFactorySupplier;
import net.fortuna.ical4j.data.ParserException;
import net.fortuna.ical4j.data.UnfoldingReader;
import net.fortuna.ical4j.model.Calendar;
import net.fortuna.ical4j.model.Component;
import net.fortuna.ical4j.model.ComponentFactory;
import net.fortuna.ical4j.model.ParameterFactory;
import net.fortuna.ical4j.model.Property;
import net.fortuna.ical4j.model.PropertyFactory;
import net.fortuna.ical4j.model.TimeZoneRegistryFactory;
import net.fortuna.ical4j.model.component.VEvent;

/**
 * {@code ical}: the events of an iCalendar document (ical4j) that happen within the window, each
 * occurrence of a recurring event its own item ({@code <uid>@<start>}), with {@code event_at} = the
 * occurrence's start. Without a window (the CLI's {@code --all-items}) recurrences are expanded one
 * year back and two ahead, so an endless rule stays finite.
 *
 * <p>Bounded against hostile documents, which run on a parse thread under the fetch's work budget
 * ({@link WorkBudget#checkpoint()} per event and per occurrence looked at): the text is cut to
 * {@link CalendarText#MAX_EVENTS} VEVENTs (and time zones' rules checked) before ical4j builds it;
 * recurrences are expanded lazily by {@link BoundedRecurrences}, at most {@code item_limit}
 * occurrences per event ({@link #MAX_OCCURRENCES} when the limit is 0) and {@link
 * BoundedRecurrences#MAX_LOOKED_AT} looked at; and only the fetch's earliest {@code item_limit}
 * occurrences become items — the ones the item limit would keep.
 *
 * <p>ical4j parses the whole document but builds only what this class reads ({@link
 * ReadEventsHandler}): the VEVENTs with the properties {@link #item} and {@link BoundedRecurrences}
 * look at, and the VTIMEZONEs their TZID parameters refer to. Building every property of every
 * component (a date parse each, tried format by format) was most of a fetch's CPU, and a broken
 * line the connector never reads (an ATTENDEE, an X- property, a VTODO's DUE) failed the document;
 * a broken line it does read still fails it, as before.
 */
public final class IcalConnector extends DocumentConnector {

  /** Occurrences kept per event, and items per document, when {@code item_limit} is 0 (none). */
  static final int MAX_OCCURRENCES = 10_000;

  // ical4j's content handler asks these suppliers for fresh lists of its ~80 property (and
  // parameter, component) factories for every line it reads: 30 KB of garbage per small event,
  // most of what building a calendar allocates. The factories keep no state and the builders
  // only read the lists, so one immutable copy serves every document.
  static final ContentHandlerContext FACTORIES = factories();

  private static final Duration UNBOUNDED_BACK = Duration.ofDays(366);
  private static final Duration UNBOUNDED_AHEAD = Duration.ofDays(731);

  @Override
  public Connector type() {
    return Connector.ical;
  }

  @Override
  protected List<RawItem> parse(HttpResult response, SourceRequest request) throws FetchFailure {
    return parse(response, request, IcalConnector::read);
  }

  /** How a document's (bounded) text becomes ical4j's model: {@link #read} but in tests. */
  @FunctionalInterface
  interface CalendarReader {
    Calendar read(String text) throws IOException, ParserException;
  }

  /**
   * The calendar of what {@link #item} and {@link BoundedRecurrences} read, and nothing else
   * ({@link ReadEventsHandler}): ical4j's parser, its default content handler, the same factories
   * and a time-zone registry of the document's own.
   */
  static Calendar read(String text) throws IOException, ParserException {
    Calendar[] built = new Calendar[1];
    DefaultContentHandler model =
        new DefaultContentHandler(
            c -> built[0] = c, TimeZoneRegistryFactory.getInstance().createRegistry(), FACTORIES);
    CalendarParserFactory.getInstance()
        .get()
        .parse(new UnfoldingReader(new StringReader(text)), new ReadEventsHandler(model));
    return built[0];
  }

  List<RawItem> parse(HttpResult response, SourceRequest request, CalendarReader reader)
      throws FetchFailure {
    Charset charset =
        response.declaredCharset() == null ? StandardCharsets.UTF_8 : response.declaredCharset();
    Calendar calendar;
    try {
      calendar = reader.read(CalendarText.bounded(new String(response.body(), charset)));
    } catch (ParserException e) {
      throw new FetchFailure(
          ErrorKind.PARSE, "not a readable iCalendar document: " + e.getMessage());
    } catch (BudgetExceededException e) {
      throw e;
    } catch (IOException | RuntimeException e) {
      throw new FetchFailure(
          ErrorKind.PARSE, "not a readable iCalendar document: " + e.getClass().getSimpleName());
    }
    Instant now = request.now();
    Duration back = request.options().windowBack();
    Instant from = now.minus(orElse(back, UNBOUNDED_BACK));
    Instant to = now.plus(orElse(request.options().windowAhead(), UNBOUNDED_AHEAD));
    int limit = request.options().itemLimit() > 0 ? request.options().itemLimit() : MAX_OCCURRENCES;
    // With a window back, the fetch drops events that started before it (ItemWindow): so does the
    // expansion, and then the earliest `limit` occurrences are exactly the items the limit keeps.
    BoundedRecurrences recurrences = new BoundedRecurrences(from, to, back == null, limit);
    PriorityQueue<Found> earliest = new PriorityQueue<>(Comparator.reverseOrder());
    List<VEvent> events = calendar.getComponents(Component.VEVENT);
    for (int e = 0; e < events.size(); e++) {
      WorkBudget.checkpoint();
      VEvent event = events.get(e);
      List<BoundedRecurrences.Occurrence> occurrences = recurrences.occurrences(event);
      for (int i = 0; i < occurrences.size(); i++) {
        Found found = new Found(occurrences.get(i).start(), e, i, event, occurrences.get(i));
        if (earliest.size() < limit) {
          earliest.add(found);
        } else if (found.compareTo(earliest.peek()) < 0) {
          earliest.poll();
          earliest.add(found);
        } else {
          break; // this event's later occurrences come later still
        }
      }
    }
    List<Found> kept = new ArrayList<>(earliest);
    kept.sort(null);
    List<RawItem> items = new ArrayList<>(kept.size());
    for (Found found : kept) {
      items.add(item(found.vevent(), found.occurrence(), response));
    }
    return items;
  }

  /**
   * An occurrence in the fetch's order: by start, then as the document lists its events (the order
   * the items had when all of them were sorted by start).
   */
  private record Found(
      Instant start, int event, int index, VEvent vevent, BoundedRecurrences.Occurrence occurrence)
      implements Comparable<Found> {

    @Override
    public int compareTo(Found o) {
      int c = start.compareTo(o.start);
      if (c != 0) {
        return c;
      }
      c = Integer.compare(event, o.event);
      return c != 0 ? c : Integer.compare(index, o.index);
    }
  }

  private static RawItem item(
      VEvent event, BoundedRecurrences.Occurrence occurrence, HttpResult response) {
    String uid = value(event, Property.UID).orElse(null);
    boolean recurring =
        event.getProperty(Property.RRULE).isPresent()
            || event.getProperty(Property.RDATE).isPresent();
    Map<String, String> metadata = new HashMap<>();
    value(event, Property.LOCATION).ifPresent(l -> metadata.put("location", l));
    Instant start = occurrence.start();
    Instant end = occurrence.end();
    if (end != null && !end.equals(start)) {
      metadata.put("end", end.toString());
    }
    Instant modified =
        value(event, Property.LAST_MODIFIED)
            .or(() -> value(event, Property.DTSTAMP))
            .map(IcalConnector::stamp)
            .orElse(null);
    String url = value(event, Property.URL).orElse(null);
    return new RawItem(
        uid == null ? null : recurring ? uid + "@" + start : uid,
        url == null ? null : resolve(response.finalUri(), url),
        Text.plain(value(event, Property.SUMMARY).orElse(null)),
        value(event, Property.DESCRIPTION).orElse(null),
        "text/plain",
        modified,
        start,
        true,
        metadata);
  }

  private static ContentHandlerContext factories() {
    List<ParameterFactory<?>> parameters = List.copyOf(new DefaultParameterFactorySupplier().get());
    List<PropertyFactory<?>> properties = List.copyOf(new DefaultPropertyFactorySupplier().get());
    List<ComponentFactory<?>> components = List.copyOf(new DefaultComponentFactorySupplier().get());
    return new ContentHandlerContext()
        .withParameterFactorySupplier(() -> parameters)
        .withPropertyFactorySupplier(() -> properties)
        .withComponentFactorySupplier(() -> components);
  }

  private static Optional<String> value(VEvent event, String name) {
    return event.getProperty(name).map(Property::getValue).filter(v -> !v.isBlank());
  }

  // immutable, so one serves every event: building it from its pattern per event cost more than
  // reading the stamp with it
  private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmssX");

  private static Instant stamp(String value) {
    try {
      return STAMP.parse(value, Instant::from);
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
