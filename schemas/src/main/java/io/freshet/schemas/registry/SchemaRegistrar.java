package io.freshet.schemas.registry;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * Registers every Freshet event schema under its topic's subject and sets the subject's
 * compatibility to BACKWARD, through the Confluent-compatible REST API, so it works against any
 * Confluent-compatible registry (Confluent Schema Registry, Apicurio's {@code /apis/ccompat/v7},
 * Karapace, Redpanda). Producers in production then run with auto-registration off.
 *
 * <p>Run it with {@code java -jar schemas/target/schemas-*.jar --registry-url URL}, or from code.
 * Registering the same schema again returns the same id; an incompatible change is refused by the
 * registry and reported.
 */
public final class SchemaRegistrar {

  /** One subject's registration. */
  public record Registration(String subject, int id) {}

  /** The registry refused or failed a request. */
  public static final class RegistrationException extends RuntimeException {
    public RegistrationException(String message) {
      super(message);
    }
  }

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String CONTENT_TYPE = "application/vnd.schemaregistry.v1+json";

  private final String ccompatUrl;
  private final HttpClient http;

  /**
   * @param ccompatUrl the registry's Confluent-compatible base URL, e.g. {@code
   *     http://registry:8080/apis/ccompat/v7}
   */
  public SchemaRegistrar(String ccompatUrl) {
    this.ccompatUrl =
        ccompatUrl.endsWith("/") ? ccompatUrl.substring(0, ccompatUrl.length() - 1) : ccompatUrl;
    this.http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
  }

  /** Registers all of {@link EventSchemas#ALL}. */
  public List<Registration> registerAll() {
    List<Registration> done = new ArrayList<>();
    for (EventSchemas event : EventSchemas.ALL) {
      done.add(register(event.subject(), event.schema().toString()));
    }
    return done;
  }

  /**
   * Registers one schema (Avro JSON) under {@code subject}, then makes the subject BACKWARD
   * compatible. Idempotent.
   */
  public Registration register(String subject, String schemaJson) {
    String subjectPath = "/subjects/" + URLEncoder.encode(subject, StandardCharsets.UTF_8);
    JsonNode registered =
        send(
            "POST",
            subjectPath + "/versions",
            Map.of("schema", schemaJson, "schemaType", "AVRO"),
            subject);
    send(
        "PUT",
        "/config/" + URLEncoder.encode(subject, StandardCharsets.UTF_8),
        Map.of("compatibility", "BACKWARD"),
        subject);
    return new Registration(subject, registered.path("id").asInt());
  }

  /** The compatibility level set on {@code subject}. */
  public String compatibility(String subject) {
    return send(
            "GET", "/config/" + URLEncoder.encode(subject, StandardCharsets.UTF_8), null, subject)
        .path("compatibilityLevel")
        .asText();
  }

  private JsonNode send(String method, String path, Object body, String subject) {
    try {
      var request =
          HttpRequest.newBuilder(URI.create(ccompatUrl + path))
              .timeout(Duration.ofSeconds(30))
              .header("Content-Type", CONTENT_TYPE)
              .header("Accept", CONTENT_TYPE)
              .method(
                  method,
                  body == null
                      ? HttpRequest.BodyPublishers.noBody()
                      : HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body)))
              .build();
      var response = http.send(request, HttpResponse.BodyHandlers.ofString());
      if (response.statusCode() / 100 != 2) {
        throw new RegistrationException(
            subject
                + ": registry answered "
                + response.statusCode()
                + " to "
                + method
                + " "
                + path
                + ": "
                + response.body());
      }
      return JSON.readTree(response.body());
    } catch (IOException e) {
      throw new RegistrationException(
          subject + ": cannot reach registry at " + ccompatUrl + ": " + e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new RegistrationException(subject + ": interrupted");
    }
  }

  /**
   * {@code --registry-url URL} (or env {@code FRESHET_REGISTRY_CCOMPAT_URL}); {@code --help} for
   * more. Exit 0 when every schema is registered, 1 when the registry refused one, 2 on bad
   * arguments. Needs picocli on the class path (an optional dependency of this module: the
   * services' jars carry it).
   */
  public static void main(String[] args) {
    System.exit(run(args, System.out, System.err));
  }

  static int run(String[] args, PrintStream out, PrintStream err) {
    return RegisterSchemas.run(args, System.getenv("FRESHET_REGISTRY_CCOMPAT_URL"), out, err);
  }

  /**
   * {@code register-schemas}: the command line of {@link #main}, apart so that picocli is loaded
   * only when it runs.
   */
  @Command(
      name = "register-schemas",
      usageHelpWidth = 100,
      description = {
        "Registers every Freshet event schema under its topic's subject with compatibility"
            + " BACKWARD, through the Confluent-compatible API of the registry. Registering the"
            + " same schema again returns the same id; an incompatible change is refused.",
        ""
      },
      exitCodeListHeading = "%nExit codes:%n",
      exitCodeList = {
        "0:every schema is registered",
        "1:the registry refused one, or could not be reached",
        "2:bad arguments"
      })
  static final class RegisterSchemas implements Callable<Integer> {

    @Option(
        names = "--registry-url",
        paramLabel = "URL",
        description = {
          "the registry's Confluent-compatible API (default: FRESHET_REGISTRY_CCOMPAT_URL), e.g.",
          "http://registry:8080/apis/ccompat/v7"
        })
    String url;

    @Option(
        names = {"-h", "--help"},
        usageHelp = true,
        description = "this help")
    boolean help;

    private final String envUrl;
    private final PrintStream out;
    private final PrintStream err;

    private RegisterSchemas(String envUrl, PrintStream out, PrintStream err) {
      this.envUrl = envUrl;
      this.out = out;
      this.err = err;
    }

    static int run(String[] args, String envUrl, PrintStream out, PrintStream err) {
      CommandLine cli = new CommandLine(new RegisterSchemas(envUrl, out, err));
      cli.setOut(new PrintWriter(out, true, StandardCharsets.UTF_8));
      cli.setErr(new PrintWriter(err, true, StandardCharsets.UTF_8));
      cli.setParameterExceptionHandler(
          (e, a) -> {
            String m = e.getMessage().replace(System.lineSeparator(), " ").replace('\n', ' ');
            if (e instanceof UnmatchedArgumentException u && !u.getSuggestions().isEmpty()) {
              m += "; did you mean " + String.join(" or ", u.getSuggestions()) + "?";
            }
            err.println("register-schemas: " + m.trim() + " (register-schemas --help)");
            return 2;
          });
      return cli.execute(args);
    }

    @Override
    public Integer call() {
      String registry = url != null ? url : envUrl;
      if (registry == null || registry.isBlank()) {
        err.println(
            "register-schemas: missing --registry-url (or FRESHET_REGISTRY_CCOMPAT_URL)"
                + " (register-schemas --help)");
        return 2;
      }
      try {
        for (Registration r : new SchemaRegistrar(registry).registerAll()) {
          out.println(r.subject() + " -> schema id " + r.id() + " (BACKWARD)");
        }
        return 0;
      } catch (RegistrationException e) {
        err.println(e.getMessage());
        return 1;
      }
    }
  }
}
