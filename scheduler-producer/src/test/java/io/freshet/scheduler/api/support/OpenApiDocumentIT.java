package io.freshet.scheduler.api.support;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import io.freshet.scheduler.api.ApiItSupport;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The OpenAPI document ({@code /v3/api-docs}) says what the API does — the two imports as two
 * operations with their content types, 201 where 201 is returned, a schema for every request body,
 * the error schema on every 4xx and 5xx, no {@code /error} — and every call of the README's "Run
 * it" section is a documented operation whose example body the documented schema accepts. (The
 * schema validator reads Jackson 2 trees: this test parses the document with its own Jackson 2
 * mapper.)
 */
class OpenApiDocumentIT extends ApiItSupport {

  private static final ObjectMapper JACKSON2 = new ObjectMapper();
  private static final String ERROR_REF = "#/components/schemas/Problem";

  private JsonNode doc;

  @BeforeEach
  void readDocument() throws IOException {
    var response = api.send("GET", "/v3/api-docs", null, null, null);
    assertThat(response.status()).isEqualTo(200);
    doc = JACKSON2.readTree(response.text());
    // kept for reading: target/openapi.json
    Files.writeString(Path.of("target", "openapi.json"), response.text());
  }

  private JsonNode operation(String path, String method) {
    return doc.path("paths").path(path).path(method);
  }

  @Test
  void theTwoImportsAreTwoOperationsWithTheirContentTypes() {
    assertThat(doc.path("paths").has("/sources/import")).isFalse();
    assertThat(fieldNames(operation("/sources/import/ndjson", "post").at("/requestBody/content")))
        .containsExactly("application/x-ndjson");
    assertThat(fieldNames(operation("/sources/import/opml", "post").at("/requestBody/content")))
        .containsExactlyInAnyOrder("text/x-opml", "application/xml", "text/xml");
  }

  @Test
  void creationsDocumentTheStatusTheyReturn() {
    for (String path :
        List.of("/sources", "/tenants", "/sources/import/ndjson", "/sources/import/opml")) {
      JsonNode responses = operation(path, "post").path("responses");
      assertThat(responses.has("201")).as(path).isTrue();
      assertThat(responses.has("200")).as(path + ": " + responses).isFalse();
      assertThat(responses.at("/201/content/application~1json/schema").isMissingNode())
          .as(path)
          .isFalse();
    }
    assertThat(operation("/sources/{id}/fetch", "post").path("responses").has("202")).isTrue();
    assertThat(operation("/sources/{id}", "delete").path("responses").has("204")).isTrue();
    assertThat(operation("/tenants/{id}", "delete").path("responses").has("204")).isTrue();
  }

  @Test
  void everyRequestBodyHasASchemaAndJsonBodiesTheirRecord() {
    Map<String, String> expected =
        Map.of(
            "post /sources", "SourceRequest",
            "put /sources/{id}", "SourceRequest",
            "post /tenants", "TenantRequest",
            "put /tenants/{id}", "TenantRequest",
            "post /runs", "RunRequest");
    List<String> withBody = new ArrayList<>();
    forEachOperation(
        (key, op) -> {
          JsonNode content = op.at("/requestBody/content");
          if (content.isMissingNode()) {
            return;
          }
          withBody.add(key);
          content
              .properties()
              .forEach(
                  e -> assertThat(e.getValue().has("schema")).as(key + " " + e.getKey()).isTrue());
          if (expected.containsKey(key)) {
            assertThat(content.at("/application~1json/schema/$ref").asText())
                .isEqualTo("#/components/schemas/" + expected.get(key));
          }
        });
    assertThat(withBody).containsAll(expected.keySet());
  }

  @Test
  void everyErrorResponseHasTheErrorSchemaAndTheErrorPageIsHidden() {
    assertThat(doc.path("paths").has("/error")).isFalse();
    assertThat(fieldNames(doc.at("/components/schemas/Problem/properties")))
        .containsExactlyInAnyOrder("type", "title", "status", "detail", "errors");
    forEachOperation(
        (key, op) -> {
          JsonNode responses = op.path("responses");
          assertThat(responses.has("400")).as(key).isTrue();
          assertThat(responses.has("401")).as(key).isTrue();
          assertThat(responses.has("503")).as(key).isTrue();
          if (key.contains("{id}")) {
            assertThat(responses.has("404")).as(key).isTrue();
          }
          responses
              .properties()
              .forEach(
                  r -> {
                    if (r.getKey().startsWith("4") || r.getKey().startsWith("5")) {
                      assertThat(r.getValue().path("content").has("application/json"))
                          .as(key + " " + r.getKey() + " is only problem+json")
                          .isFalse();
                      assertThat(
                              r.getValue()
                                  .at("/content/application~1problem+json/schema/$ref")
                                  .asText())
                          .as(key + " " + r.getKey())
                          .isEqualTo(ERROR_REF);
                    }
                  });
        });
    assertThat(operation("/tenants/{id}", "delete").path("responses").has("409")).isTrue();
    assertThat(operation("/sources", "post").path("responses").has("409")).isTrue();
  }

  @Test
  void enumsAreListedByTheirWireNames() {
    JsonNode source = doc.at("/components/schemas/SourceRequest/properties");
    assertThat(values(source.at("/connector/enum")))
        .containsExactly("feed", "ical", "json", "html");
    assertThat(values(source.at("/category/enum"))).contains("rss", "calendar");
    assertThat(values(doc.at("/components/schemas/TenantRequest/properties/tier/enum")))
        .containsExactly("free", "starter", "pro");
    assertThat(fieldNames(source))
        .contains("tenant_id", "name", "connector", "url", "config", "credentials")
        .doesNotContain("tenantId");
  }

  @Test
  void theSchemaRefusesWhatTheApiRefuses() {
    JsonSchema source = schema("SourceRequest");

    assertThat(source.validate(json("{\"connector\": \"rss\"}"))).isNotEmpty();
    assertThat(source.validate(json("{\"priority\": \"high\"}"))).isNotEmpty();
    assertThat(source.validate(json("{\"priority\": 5000}"))).isNotEmpty();
    assertThat(schema("TenantRequest").validate(json("{\"id\": \"a\", \"tier\": \"gold\"}")))
        .isNotEmpty();
    assertThat(schema("TenantRequest").validate(json("{\"id\": \"a b\", \"tier\": \"pro\"}")))
        .isNotEmpty();
    assertThat(source.validate(json("{\"name\": \"   \"}"))).isNotEmpty();
    assertThat(source.validate(json("{\"name\": \"Caf\u00e9\\nBlog\"}"))).isEmpty();
  }

  @Test
  void everyCallOfTheReadmeIsADocumentedOperationAndItsBodyMatchesTheSchema() throws IOException {
    List<Call> calls = readmeCalls();
    assertThat(calls).hasSizeGreaterThan(15);
    Set<String> covered = new TreeSet<>();
    for (Call call : calls) {
      if (call.path().startsWith("/actuator") || call.path().startsWith("/v3/")) {
        continue;
      }
      String key = documented(call);
      assertThat(key).as("README: %s %s is not documented", call.method(), call.path()).isNotNull();
      covered.add(key);
      JsonNode op =
          operation(key.substring(key.indexOf(' ') + 1), key.substring(0, key.indexOf(' ')));
      if (call.contentType() == null) {
        assertThat(op.has("requestBody")).as(key + " needs a body").isFalse();
        continue;
      }
      JsonNode media = op.at("/requestBody/content").path(call.contentType());
      assertThat(media.isMissingNode()).as(key + " reads " + call.contentType()).isFalse();
      String ref = media.at("/schema/$ref").asText();
      if (call.body() != null) {
        assertValid(schemaOf(ref), call.body(), key);
      }
      for (String line : call.lines()) {
        assertValid(schema("SourceRequest"), line, key + " (NDJSON line)");
      }
    }
    Set<String> all = new TreeSet<>();
    forEachOperation((key, op) -> all.add(key));
    assertThat(covered).as("every operation has a curl example in the README").isEqualTo(all);
  }

  private void assertValid(JsonSchema schema, String body, String what) throws IOException {
    Set<ValidationMessage> problems = schema.validate(JACKSON2.readTree(body));
    assertThat(problems).as(what + ": " + body).isEmpty();
  }

  private JsonSchema schemaOf(String ref) {
    assertThat(ref).startsWith("#/components/schemas/");
    return schema(ref.substring("#/components/schemas/".length()));
  }

  /** A component schema as a standalone JSON Schema 2020-12 document, with the others as $defs. */
  private JsonSchema schema(String name) {
    try {
      String defs =
          JACKSON2
              .writeValueAsString(doc.at("/components/schemas"))
              .replace("#/components/schemas/", "#/$defs/");
      ObjectNode root = JACKSON2.createObjectNode();
      root.put("$schema", "https://json-schema.org/draft/2020-12/schema");
      root.put("$ref", "#/$defs/" + name);
      root.set("$defs", JACKSON2.readTree(defs));
      return JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012).getSchema(root);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  private static JsonNode json(String text) {
    try {
      return JACKSON2.readTree(text);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The documented operation ("post /sources/{id}/fetch") a README call hits, or null. */
  private String documented(Call call) {
    String[] segments = call.path().split("/");
    String best = null;
    int bestLiterals = -1;
    for (String path : fieldNames(doc.path("paths"))) {
      String[] template = path.split("/");
      if (template.length != segments.length || operation(path, call.method()).isMissingNode()) {
        continue;
      }
      int literals = 0;
      boolean matches = true;
      for (int i = 0; i < template.length && matches; i++) {
        if (template[i].startsWith("{")) {
          continue;
        }
        matches = template[i].equals(segments[i]);
        literals++;
      }
      if (matches && literals > bestLiterals) {
        best = call.method() + " " + path;
        bestLiterals = literals;
      }
    }
    return best;
  }

  private void forEachOperation(java.util.function.BiConsumer<String, JsonNode> action) {
    doc.path("paths")
        .properties()
        .forEach(
            p ->
                p.getValue()
                    .properties()
                    .forEach(m -> action.accept(m.getKey() + " " + p.getKey(), m.getValue())));
  }

  private static List<String> fieldNames(JsonNode node) {
    List<String> names = new ArrayList<>();
    node.fieldNames().forEachRemaining(names::add);
    return names;
  }

  private static List<String> values(JsonNode array) {
    List<String> values = new ArrayList<>();
    array.forEach(v -> values.add(v.asText()));
    return values;
  }

  /**
   * A curl call of the README: its method, path (without the query), content type, {@code -d} body,
   * and the lines of a here-document body.
   */
  record Call(String method, String path, String contentType, String body, List<String> lines) {}

  private static final Pattern METHOD = Pattern.compile("-X (\\w+)");
  private static final Pattern PATH = Pattern.compile("\"\\$API(/[^\"?]*)");
  private static final Pattern TYPE = Pattern.compile("-H '?Content-Type: ([^'\"]+)'?");
  private static final Pattern BODY = Pattern.compile(" -d '([^']*)'");

  static List<Call> readmeCalls() throws IOException {
    List<String> lines = Files.readAllLines(Path.of("README.md"));
    int from = lines.indexOf("## Run it");
    assertThat(from).as("README has a Run it section").isNotNegative();
    List<Call> calls = new ArrayList<>();
    for (int i = from; i < lines.size(); i++) {
      String line = lines.get(i);
      if (line.startsWith("## ") && i > from) {
        break;
      }
      if (!line.contains("curl ")) {
        continue;
      }
      Matcher path = PATH.matcher(line);
      if (!path.find()) {
        continue;
      }
      Matcher method = METHOD.matcher(line);
      Matcher type = TYPE.matcher(line);
      Matcher body = BODY.matcher(line);
      String contentType =
          type.find()
              ? type.group(1).strip()
              : line.contains("-H \"$J\"") ? "application/json" : null;
      List<String> document = new ArrayList<>();
      if (line.contains("<<'EOF'")) {
        while (!lines.get(++i).equals("EOF")) {
          document.add(lines.get(i));
        }
      }
      calls.add(
          new Call(
              method.find() ? method.group(1).toLowerCase(java.util.Locale.ROOT) : "get",
              path.group(1),
              contentType,
              body.find() ? body.group(1) : null,
              document));
    }
    return calls;
  }
}
