package io.freshet.scheduler.api.keys;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.swagger.v3.oas.annotations.media.Schema;
import java.time.Instant;
import java.util.List;

/**
 * A key as the API lists it: never its secret, nor the secret's hash.
 *
 * @param tenantId null for an admin key
 * @param lastUsedAt the last request the scheduler saw with it (written in batches: up to {@code
 *     freshet.keys.last-used-flush} late; uses on other services are not counted)
 */
@JsonInclude(JsonInclude.Include.ALWAYS)
@Schema(name = "Key")
public record KeyView(
    String id,
    @JsonProperty("tenant_id") String tenantId,
    String role,
    @JsonProperty("created_at") Instant createdAt,
    @JsonProperty("last_used_at") Instant lastUsedAt,
    @JsonProperty("expires_at") Instant expiresAt,
    @JsonProperty("revoked_at") Instant revokedAt) {

  static KeyView of(KeyRow row) {
    return new KeyView(
        row.id(),
        row.tenantId(),
        row.role().wireName(),
        row.createdAt(),
        row.lastUsedAt(),
        row.expiresAt(),
        row.revokedAt());
  }

  /** The answer to a creation: the key itself, shown this once. */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  @Schema(name = "CreatedKey")
  public record Created(
      String id,
      @JsonProperty("tenant_id") String tenantId,
      String role,
      @JsonProperty("created_at") Instant createdAt,
      @JsonProperty("expires_at") Instant expiresAt,
      @Schema(
              description =
                  "The key, fk_<id>_<secret>: send it as Authorization: Bearer <key>. Shown only"
                      + " here, stored only as a hash: keep it now.")
          String key) {
    @Override
    public String toString() {
      return "Created[id=" + id + ", key=***]";
    }
  }

  /** A list of keys. */
  @Schema(name = "KeyList")
  public record KeyList(List<KeyView> keys) {}
}
