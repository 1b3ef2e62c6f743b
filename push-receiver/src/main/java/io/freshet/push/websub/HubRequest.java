package io.freshet.push.websub;

import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The body of a subscribe or unsubscribe request to a hub ({@code
 * application/x-www-form-urlencoded}, POSTed to the hub URL): {@code hub.callback}, {@code
 * hub.mode}, {@code hub.topic}, and for a subscription {@code hub.lease_seconds} and {@code
 * hub.secret}.
 *
 * @param fields the form's fields, in the order they are sent
 */
public record HubRequest(URI hub, Map<String, String> fields) {

  /**
   * The request for {@code intent} of {@code subscription}; its callback is {@code callbackBase} +
   * {@code /websub/} + the subscription's token.
   */
  public static HubRequest of(
      Intent intent, Subscription subscription, URI callbackBase, Duration lease) {
    var f = new LinkedHashMap<String, String>();
    f.put("hub.callback", callback(callbackBase, subscription.token()).toString());
    f.put("hub.mode", intent.mode());
    f.put("hub.topic", subscription.topic().toString());
    if (intent == Intent.SUBSCRIBE) {
      f.put("hub.lease_seconds", Long.toString(lease.toSeconds()));
      f.put("hub.secret", subscription.secret());
    }
    return new HubRequest(subscription.hub(), Map.copyOf(f));
  }

  /** The callback URL of a token: {@code <base>/websub/<token>} (one slash between). */
  public static URI callback(URI callbackBase, String token) {
    String base = callbackBase.toString();
    while (base.endsWith("/")) {
      base = base.substring(0, base.length() - 1);
    }
    return URI.create(base + "/websub/" + token);
  }

  /** The form encoded for the request body. */
  public String encoded() {
    return fields.entrySet().stream()
        .sorted(Map.Entry.comparingByKey())
        .map(e -> enc(e.getKey()) + "=" + enc(e.getValue()))
        .collect(Collectors.joining("&"));
  }

  private static String enc(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8);
  }

  /** Never the secret nor the callback's token. */
  @Override
  public String toString() {
    return "HubRequest[hub="
        + hub
        + ", mode="
        + fields.get("hub.mode")
        + ", topic="
        + fields.get("hub.topic")
        + "]";
  }
}
