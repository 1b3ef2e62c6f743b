package io.freshet.schemas.serde;

import java.util.Map;
import java.util.Objects;

/**
 * Where the schema registry is and how producers use it.
 *
 * @param url Apicurio's native API, e.g. {@code http://registry:8080/apis/registry/v2}
 * @param autoRegister whether producers register their schema on first use. Off in production:
 *     schemas are registered once, with BACKWARD compatibility, by {@link
 *     io.freshet.schemas.registry.SchemaRegistrar}; on in tests and the local run.
 * @param extra further {@code apicurio.registry.*} client settings (auth, TLS), passed through
 */
public record RegistrySettings(String url, boolean autoRegister, Map<String, Object> extra) {

  public RegistrySettings {
    Objects.requireNonNull(url, "url");
    if (!url.startsWith("http://") && !url.startsWith("https://")) {
      throw new IllegalArgumentException("registry url must be http(s)://..., was '" + url + "'");
    }
    extra = Map.copyOf(extra);
  }

  /**
   * The registry's Confluent-compatible API next to {@link #url()}: Apicurio serves it at {@code
   * /apis/ccompat/v7}.
   */
  public String ccompatUrl() {
    int apis = url.indexOf("/apis/");
    String base = apis >= 0 ? url.substring(0, apis) : url.replaceAll("/+$", "");
    return base + "/apis/ccompat/v7";
  }

  public static RegistrySettings of(String url, boolean autoRegister) {
    return new RegistrySettings(url, autoRegister, Map.of());
  }
}
