package io.freshet.worker.fetch;

import io.freshet.schemas.crypto.CredentialCipher;
import io.freshet.worker.http.ErrorKind;
import io.freshet.worker.http.FetchFailure;
import java.nio.ByteBuffer;
import java.util.LinkedHashMap;
import java.util.Map;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Opens {@code credentials_encrypted} just before the request, with the deployment's key. The
 * plaintext is a JSON object: {@code {"bearer": "..."}} (an Authorization header), {@code
 * {"headers": {"X-Api-Key": "..."}}} and/or {@code {"query": {"api_key": "..."}}}. The values are
 * used in the request only: never logged, never in events; errors name no part of them.
 */
public final class CredentialsOpener {

  private static final JsonMapper JSON = JsonMapper.builder().build();

  private final CredentialCipher cipher;

  /**
   * @param cipher null when the deployment has no key: sources with credentials then fail
   */
  public CredentialsOpener(CredentialCipher cipher) {
    this.cipher = cipher;
  }

  /** Headers and query parameters to add to the source's requests. */
  public record Opened(Map<String, String> headers, Map<String, String> query) {
    public static final Opened NONE = new Opened(Map.of(), Map.of());
  }

  public Opened open(ByteBuffer envelope) throws FetchFailure {
    if (envelope == null || !envelope.hasRemaining()) {
      return Opened.NONE;
    }
    if (cipher == null) {
      throw new FetchFailure(
          ErrorKind.CREDENTIALS, "the source has credentials but this worker has no key");
    }
    byte[] bytes = new byte[envelope.remaining()];
    envelope.duplicate().get(bytes);
    String plaintext;
    try {
      plaintext = cipher.decrypt(bytes);
    } catch (IllegalArgumentException e) {
      throw new FetchFailure(ErrorKind.CREDENTIALS, "cannot open credentials: " + e.getMessage());
    }
    try {
      JsonNode root = JSON.readTree(plaintext);
      if (root == null || !root.isObject()) {
        throw new FetchFailure(ErrorKind.CREDENTIALS, "credentials are not a JSON object");
      }
      Map<String, String> headers = new LinkedHashMap<>(strings(root.get("headers")));
      JsonNode bearer = root.get("bearer");
      if (bearer != null && bearer.isString()) {
        headers.put("Authorization", "Bearer " + bearer.asString());
      }
      return new Opened(headers, strings(root.get("query")));
    } catch (JacksonException e) {
      throw new FetchFailure(ErrorKind.CREDENTIALS, "credentials are not valid JSON");
    }
  }

  private static Map<String, String> strings(JsonNode node) {
    Map<String, String> out = new LinkedHashMap<>();
    if (node != null && node.isObject()) {
      for (var e : node.properties()) {
        if (e.getValue().isValueNode() && !e.getValue().isNull()) {
          out.put(e.getKey(), e.getValue().asString());
        }
      }
    }
    return out;
  }
}
