package io.freshet.stack.launcher;

import io.freshet.kit.cli.CommandLines;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code ./freshet keys create|list|revoke}: the scheduler's {@code /keys} with the local stack's
 * bootstrap admin key ({@code $FRESHET_HOME/secrets/api-token}).
 */
@Command(
    name = "keys",
    description = {
      "API keys on the running stack's scheduler (with its bootstrap admin key):"
          + " create --tenant T --role read|write [--expires-at INSTANT] | list [--tenant T]"
          + " | revoke ID",
      ""
    },
    subcommands = {KeysCommand.Create.class, KeysCommand.ListKeys.class, KeysCommand.Revoke.class},
    exitCodeListHeading = KeysCommand.EXIT_CODES_HEADING,
    exitCodeList = {KeysCommand.DONE, KeysCommand.REFUSED, KeysCommand.BAD_INPUT})
final class KeysCommand implements Callable<Integer> {

  static final String EXIT_CODES_HEADING = "%nExit codes:%n";
  static final String DONE = "0:done";
  static final String REFUSED = "1:the scheduler refused or is unreachable";
  static final String BAD_INPUT =
      "2:bad input: an unknown option, a missing --tenant, a role other than read or write";

  @Mixin CommandLines.Help help;

  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  /** What a tenant's key may be made as here (admin keys: through the API). */
  enum TenantRole {
    read,
    write
  }

  @Override
  public Integer call() {
    throw new IllegalArgumentException("keys: name a command: create, list or revoke (--help)");
  }

  @Command(
      name = "create",
      description = {
        "Creates a key for a tenant and prints it: it is shown this once, and stored only as a"
            + " hash.",
        ""
      },
      exitCodeListHeading = EXIT_CODES_HEADING,
      exitCodeList = {DONE, REFUSED, BAD_INPUT})
  static final class Create implements Callable<Integer> {
    @ParentCommand KeysCommand keys;

    @Option(names = "--tenant", required = true, description = "the tenant the key acts for")
    String tenant;

    @Option(
        names = "--role",
        required = true,
        description =
            "read (its tenant's sources, content, activity, stats) or write (also changes)")
    TenantRole role;

    @Option(names = "--expires-at", description = "when it stops working (ISO-8601); default never")
    Instant expiresAt;

    @Mixin CommandLines.Help help;

    @Override
    public Integer call() throws IOException, InterruptedException {
      var body =
          JsonMapper.shared().createObjectNode().put("tenant_id", tenant).put("role", role.name());
      if (expiresAt != null) {
        body.put("expires_at", expiresAt.toString());
      }
      JsonNode created = keys.send("POST", "/keys", body.toString());
      System.out.println(created.get("key").stringValue());
      System.err.println(
          "key "
              + created.get("id").stringValue()
              + " ("
              + role
              + ", tenant "
              + tenant
              + "): shown only now; send it as Authorization: Bearer <key>");
      return 0;
    }
  }

  @Command(
      name = "list",
      description = {"The keys (never their secrets), or a tenant's.", ""})
  static final class ListKeys implements Callable<Integer> {
    @ParentCommand KeysCommand keys;

    @Option(names = "--tenant", description = "only this tenant's keys")
    String tenant;

    @Mixin CommandLines.Help help;

    @Override
    public Integer call() throws IOException, InterruptedException {
      String path =
          tenant == null
              ? "/keys"
              : "/keys?tenant_id=" + URLEncoder.encode(tenant, StandardCharsets.UTF_8);
      System.out.printf(
          "%-16s  %-12s  %-5s  %-24s  %-24s  %s%n",
          "id", "tenant", "role", "created", "last used", "revoked");
      for (JsonNode k : keys.send("GET", path, null).get("keys")) {
        System.out.printf(
            "%-16s  %-12s  %-5s  %-24s  %-24s  %s%n",
            text(k, "id"),
            text(k, "tenant_id"),
            text(k, "role"),
            text(k, "created_at"),
            text(k, "last_used_at"),
            text(k, "revoked_at"));
      }
      return 0;
    }

    private static String text(JsonNode k, String field) {
      JsonNode v = k.get(field);
      return v == null || v.isNull() ? "-" : v.asString();
    }
  }

  @Command(
      name = "revoke",
      description = {"Revokes a key on every service.", ""})
  static final class Revoke implements Callable<Integer> {
    @ParentCommand KeysCommand keys;

    @Parameters(paramLabel = "ID", description = "the key's id")
    String id;

    @Mixin CommandLines.Help help;

    @Override
    public Integer call() throws IOException, InterruptedException {
      JsonNode k =
          keys.send("DELETE", "/keys/" + URLEncoder.encode(id, StandardCharsets.UTF_8), null);
      System.out.println(
          "key " + k.get("id").stringValue() + " revoked at " + k.get("revoked_at").asString());
      return 0;
    }
  }

  JsonNode send(String method, String path, String json) throws IOException, InterruptedException {
    StackSettings settings = LocalStack.settingsFromEnvironment();
    Path tokenFile = settings.home().resolve("secrets").resolve("api-token");
    if (!Files.exists(tokenFile)) {
      throw new StackException("no admin key in " + tokenFile + ": run ./freshet up first");
    }
    var request =
        HttpRequest.newBuilder(URI.create(settings.schedulerUrl() + path))
            .timeout(Duration.ofSeconds(30))
            .header("Authorization", "Bearer " + Files.readString(tokenFile).trim())
            .method(
                method,
                json == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(json));
    if (json != null) {
      request.header("Content-Type", "application/json");
    }
    HttpResponse<String> response;
    try {
      response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new StackException(
          "scheduler API at "
              + settings.schedulerUrl()
              + " unreachable (is ./freshet up running?)");
    }
    if (response.statusCode() / 100 != 2) {
      throw new StackException(
          "scheduler answered " + response.statusCode() + ": " + response.body());
    }
    return JsonMapper.shared().readTree(response.body());
  }
}
