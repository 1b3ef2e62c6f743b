package io.freshet.scheduler.api.imports;

import io.freshet.kit.security.KeyPrincipal;
import io.freshet.scheduler.api.support.ApiProperties;
import io.freshet.scheduler.api.support.BodyReader;
import io.freshet.scheduler.api.support.Json;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.ExampleObject;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.io.InputStream;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

/**
 * Bulk import of sources, all or nothing: from NDJSON (one source request per line) or from an OPML
 * subscription list — two operations, each with its own content type.
 */
@RestController
@RequestMapping(path = "/sources/import", produces = MediaType.APPLICATION_JSON_VALUE)
@Tag(name = "sources")
class SourceImportController {

  static final String NDJSON = "application/x-ndjson";
  static final String OPML = "text/x-opml";

  private final SourceImporter importer;
  private final ApiProperties props;
  private final Json json;

  SourceImportController(SourceImporter importer, ApiProperties props, Json json) {
    this.importer = importer;
    this.props = props;
    this.json = json;
  }

  @Operation(
      summary = "Import sources from NDJSON, all or nothing",
      description =
          "Each line is a SourceRequest, as the body of POST /sources; tenant_id defaults to the"
              + " query parameter, and for a tenant key to its tenant (a line or a query naming"
              + " another tenant is 404). Sources the tenant already has (same connector and URL) are"
              + " skipped and counted. Any bad line rejects the whole import with one message per"
              + " bad field, prefixed by 'line N: '.",
      requestBody =
          @io.swagger.v3.oas.annotations.parameters.RequestBody(
              required = true,
              content =
                  @Content(
                      mediaType = NDJSON,
                      schema =
                          @Schema(
                              type = "string",
                              description = "One SourceRequest JSON object per line"),
                      examples =
                          @ExampleObject(
                              "{\"name\": \"Blog\", \"connector\": \"feed\", \"url\":"
                                  + " \"https://blog.example.org/feed\"}\n"
                                  + "{\"name\": \"Events\", \"connector\": \"ical\", \"url\":"
                                  + " \"https://cal.example.org/a.ics\", \"category\":"
                                  + " \"calendar\"}"))))
  @ApiResponse(responseCode = "409", description = "The import would exceed the tenant's limit")
  @PostMapping(path = "/ndjson", consumes = NDJSON)
  @ResponseStatus(HttpStatus.CREATED)
  ImportResult ndjson(
      @Parameter(hidden = true) @AuthenticationPrincipal KeyPrincipal caller,
      @RequestParam(name = "tenant_id", required = false) String tenantId,
      InputStream body) {
    String tenant = caller.actingFor(tenantId).orElse(null);
    String text = BodyReader.readUtf8(body, props.maxImportSize());
    return importer.run(
        caller, NdjsonImport.parse(text, props.maxImportLines(), json), tenant, "ndjson");
  }

  @Operation(
      summary = "Import feeds from an OPML subscription list, all or nothing",
      description =
          "Every outline with an xmlUrl becomes a feed source of the tenant (tenant_id: required"
              + " for an admin key; a tenant key's own by default); a folder named like"
              + " a category (rss, social, …) gives its feeds that category. HTML entities"
              + " (&nbsp;, &eacute;, …) are read as the characters they name; a title longer"
              + " than a source name may be is truncated, with a warning in the result. Errors"
              + " are prefixed by 'outline N: '.",
      requestBody =
          @io.swagger.v3.oas.annotations.parameters.RequestBody(
              required = true,
              content = {
                @Content(mediaType = OPML, schema = @Schema(type = "string")),
                @Content(mediaType = "application/xml", schema = @Schema(type = "string")),
                @Content(mediaType = "text/xml", schema = @Schema(type = "string"))
              }))
  @ApiResponse(responseCode = "409", description = "The import would exceed the tenant's limit")
  @PostMapping(
      path = "/opml",
      consumes = {OPML, "application/xml", "text/xml"})
  @ResponseStatus(HttpStatus.CREATED)
  ImportResult opml(
      @Parameter(hidden = true) @AuthenticationPrincipal KeyPrincipal caller,
      @RequestParam(name = "tenant_id", required = false) String tenantId,
      InputStream body) {
    String tenant = caller.requireActingFor(tenantId, "tenant_id");
    byte[] xml = BodyReader.read(body, props.maxImportSize());
    return importer.run(caller, OpmlImport.parse(xml, props.maxImportLines()), tenant, "opml");
  }
}
