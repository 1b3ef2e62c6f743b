package io.freshet.worker.connector.feed;

import io.freshet.schemas.avro.Connector;
import io.freshet.worker.connector.DocumentConnector;
import io.freshet.worker.connector.SourceRequest;
import io.freshet.worker.http.FetchFailure;
import io.freshet.worker.http.HttpResult;
import io.freshet.worker.items.RawItem;
import java.util.List;

/**
 * {@code feed}: RSS 0.9x/1.0/2.0, Atom and RDF (Rome), and JSON Feed (Jackson). A feed that is not
 * well-formed XML is healed as feed readers do and read again ({@link XmlRecovery}). A body that
 * starts with '{' or says {@code application/feed+json} / {@code application/json} is read as JSON
 * Feed, anything else as XML.
 */
public final class FeedConnector extends DocumentConnector {

  private final XmlFeedParser xml;
  private final JsonFeedParser json = new JsonFeedParser();

  public FeedConnector() {
    this(ParseObserver.NONE);
  }

  /**
   * @param observer told of each feed read only after healing
   */
  public FeedConnector(ParseObserver observer) {
    this.xml = new XmlFeedParser(observer);
  }

  @Override
  public Connector type() {
    return Connector.feed;
  }

  @Override
  protected List<RawItem> parse(HttpResult response, SourceRequest request) throws FetchFailure {
    return parse(response.body(), response.contentType(), response.finalUri());
  }

  @Override
  protected Parsed parseDocument(HttpResult response, SourceRequest request) throws FetchFailure {
    byte[] body = response.body();
    String type =
        response.contentType() == null
            ? ""
            : response.contentType().toLowerCase(java.util.Locale.ROOT);
    FeedDocument document =
        type.contains("json") || startsWithBrace(body)
            ? json.read(body, response.finalUri())
            : xml.read(body, response.contentType(), response.finalUri());
    return new Parsed(document.items(), document.hints());
  }

  /** Parses a feed document; public for the benchmark's GET + parse loop and the corpus tests. */
  public List<RawItem> parse(byte[] body, String contentType, java.net.URI base)
      throws FetchFailure {
    String type = contentType == null ? "" : contentType.toLowerCase(java.util.Locale.ROOT);
    if (type.contains("json") || startsWithBrace(body)) {
      return json.parse(body, base);
    }
    return xml.parse(body, contentType, base);
  }

  private static boolean startsWithBrace(byte[] body) {
    for (byte b : body) {
      if (b == '{') {
        return true;
      }
      if (!Character.isWhitespace(b)
          && (b & 0xff) != 0xef
          && (b & 0xff) != 0xbb
          && (b & 0xff) != 0xbf) {
        return false;
      }
    }
    return false;
  }
}
