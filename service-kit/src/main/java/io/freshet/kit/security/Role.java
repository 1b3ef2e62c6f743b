package io.freshet.kit.security;

import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * What a key may do. Each role includes the ones below it: an admin key also writes and reads, a
 * write key also reads. As Spring Security authorities: {@code ROLE_ADMIN}, {@code ROLE_WRITE},
 * {@code ROLE_READ}.
 */
public enum Role {
  /** Tenants, keys and every tenant's data. */
  ADMIN,
  /** Its tenant's sources, imports, runs, fetch-now and retention marks. */
  WRITE,
  /** Its tenant's sources, content, versions, activity and stats. */
  READ;

  /** The name on the wire and in the database: {@code admin}, {@code write}, {@code read}. */
  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The role named {@code name} ({@code admin}, {@code write}, {@code read}), if any. */
  public static Optional<Role> parse(String name) {
    if (name == null) {
      return Optional.empty();
    }
    for (Role role : values()) {
      if (role.wireName().equals(name)) {
        return Optional.of(role);
      }
    }
    return Optional.empty();
  }

  /** The Spring Security role names this role holds (without the {@code ROLE_} prefix). */
  public List<String> grants() {
    return switch (this) {
      case ADMIN -> List.of("ADMIN", "WRITE", "READ");
      case WRITE -> List.of("WRITE", "READ");
      case READ -> List.of("READ");
    };
  }
}
