package io.freshet.worker.connector.ical;

import io.freshet.worker.connector.ConnectorOptions;
import io.freshet.worker.connector.SourceRequest;
import io.freshet.worker.http.FetchFailure;
import io.freshet.worker.http.HttpResult;
import io.freshet.worker.items.RawItem;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import net.fortuna.ical4j.data.CalendarBuilder;
import net.fortuna.ical4j.data.CalendarParserFactory;
import net.fortuna.ical4j.model.TimeZoneRegistryFactory;

/**
 * The connector's parse of one document with either model: {@link IcalConnector#read} (what the
 * connector reads) or ical4j's full {@code CalendarBuilder} (every property of every component, the
 * connector's path before), for tests and the calendar benchmark.
 */
public final class IcalParses {

  private static final IcalConnector CONNECTOR = new IcalConnector();

  private IcalParses() {}

  /** Today's parse: the calendar of what the connector reads. */
  public static List<RawItem> read(String body, ConnectorOptions options, Instant now)
      throws FetchFailure {
    return CONNECTOR.parse(response(body), request(options, now), IcalConnector::read);
  }

  /** The parse before: ical4j's whole model of the document. */
  public static List<RawItem> full(String body, ConnectorOptions options, Instant now)
      throws FetchFailure {
    return CONNECTOR.parse(
        response(body),
        request(options, now),
        text ->
            new CalendarBuilder(
                    CalendarParserFactory.getInstance().get(),
                    IcalConnector.FACTORIES,
                    TimeZoneRegistryFactory.getInstance().createRegistry())
                .build(new java.io.StringReader(text)));
  }

  private static HttpResult response(String body) {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    return new HttpResult(
        200,
        URI.create("https://calendar.example.com/team/calendar.ics"),
        "text/calendar; charset=utf-8",
        bytes,
        null,
        null,
        1,
        bytes.length,
        null,
        null,
        null,
        null,
        null);
  }

  private static SourceRequest request(ConnectorOptions options, Instant now) {
    return new SourceRequest(
        URI.create("https://calendar.example.com/team/calendar.ics"),
        Map.of(),
        Map.of(),
        Map.of(),
        Map.of(),
        options,
        now,
        null,
        null);
  }
}
