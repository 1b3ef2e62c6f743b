package io.freshet.scheduler.api;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.io.InputStream;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

/** Bulk import of sources from NDJSON (one create body per line) or an OPML subscription list. */
@RestController
@RequestMapping("/sources/import")
@Tag(name = "sources")
class SourceImportController {

  static final String NDJSON = "application/x-ndjson";

  private final SourceImporter importer;
  private final ApiProperties props;

  SourceImportController(SourceImporter importer, ApiProperties props) {
    this.importer = importer;
    this.props = props;
  }

  @Operation(
      summary = "Import sources from NDJSON, all or nothing",
      description =
          "Each line is a create body; tenant_id defaults to the query parameter. Sources the"
              + " tenant already has (same connector and URL) are skipped and counted. Any bad"
              + " line rejects the whole import with one message per bad field, prefixed by"
              + " 'line N: '.")
  @PostMapping(consumes = NDJSON)
  @ResponseStatus(HttpStatus.CREATED)
  ImportResult ndjson(
      @RequestParam(name = "tenant_id", required = false) String tenantId, InputStream body) {
    String text = BodyReader.readUtf8(body, props.maxImportSize());
    return importer.run(NdjsonImport.parse(text, props.maxImportLines()), tenantId);
  }

  @Operation(
      summary = "Import feeds from an OPML subscription list, all or nothing",
      description =
          "Every outline with an xmlUrl becomes a feed source of the tenant; a folder named like"
              + " a category (rss, social, …) gives its feeds that category. Errors are prefixed"
              + " by 'outline N: '.")
  @PostMapping(consumes = {"text/x-opml", "application/xml", "text/xml"})
  @ResponseStatus(HttpStatus.CREATED)
  ImportResult opml(@RequestParam(name = "tenant_id") String tenantId, InputStream body) {
    byte[] xml = BodyReader.read(body, props.maxImportSize());
    return importer.run(OpmlImport.parse(xml, props.maxImportLines()), tenantId);
  }
}
