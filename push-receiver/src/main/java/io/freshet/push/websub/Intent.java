package io.freshet.push.websub;

/** What a request to a hub asks for: the value of {@code hub.mode}. */
public enum Intent {
  SUBSCRIBE("subscribe"),
  UNSUBSCRIBE("unsubscribe");

  private final String mode;

  Intent(String mode) {
    this.mode = mode;
  }

  /** The {@code hub.mode} value. */
  public String mode() {
    return mode;
  }

  /** The intent named by a {@code hub.mode} value, or null for any other value. */
  public static Intent ofMode(String mode) {
    for (Intent i : values()) {
      if (i.mode.equals(mode)) {
        return i;
      }
    }
    return null;
  }
}
