package io.freshet.schemas.topic;

import io.freshet.schemas.avro.ApiKeyState;
import io.freshet.schemas.avro.ContentFetched;
import io.freshet.schemas.avro.FetchCompleted;
import io.freshet.schemas.avro.FetchRequested;
import io.freshet.schemas.avro.PushReceived;
import io.freshet.schemas.avro.SourceStats;
import io.freshet.schemas.serde.AvroSerdes;
import io.freshet.schemas.serde.RegistrySettings;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import org.apache.kafka.common.serialization.Serdes;

/**
 * Freshet's topics, with their serdes bound to one schema registry. Build one per service from its
 * configuration; the instance is immutable.
 *
 * <p>Keys are UTF-8 strings: the source's host for {@code FetchRequested} (so one host's requests
 * meet in one worker), the key id for {@code ApiKeyState}, the source id for the others. Values are
 * Avro in the Confluent wire format.
 */
public final class FreshetTopics {

  public static final String FETCH_REQUESTED = "freshet.fetch.requested.v1";
  public static final String CONTENT_FETCHED = "freshet.content.fetched.v1";
  public static final String FETCH_COMPLETED = "freshet.fetch.completed.v1";
  public static final String SOURCE_STATS = "freshet.source.stats.v1";
  public static final String PUSH_RECEIVED = "freshet.push.received.v1";
  public static final String API_KEYS = "freshet.api.keys.v1";

  /**
   * The per-tenant content topics' prefix: {@code freshet.content.fetched.v1.<tenant>} holds only
   * that tenant's {@code ContentFetched}, for the tenants a deployment isolates ({@code
   * freshet.kafka.tenant-content-topics}).
   */
  public static final String TENANT_CONTENT_PREFIX = CONTENT_FETCHED + ".";

  /** A tenant id that may name a topic: the scheduler's tenant id rule, which Kafka accepts. */
  private static final Pattern TENANT = Pattern.compile("[A-Za-z0-9._-]{1,100}");

  /** Default partition count: enough fetch-worker instances for a mid-size deployment. */
  public static final int DEFAULT_PARTITIONS = 12;

  private final Topic<String, FetchRequested> fetchRequested;
  private final Topic<String, ContentFetched> contentFetched;
  private final Topic<String, FetchCompleted> fetchCompleted;
  private final Topic<String, SourceStats> sourceStats;
  private final Topic<String, PushReceived> pushReceived;
  private final Topic<String, ApiKeyState> apiKeys;
  private final Map<String, Topic<String, ContentFetched>> tenantContent;

  private FreshetTopics(
      RegistrySettings registry, int partitions, Collection<String> tenantContentTopics) {
    var serdes = new AvroSerdes(registry);
    this.fetchRequested =
        new Topic<>(
            FETCH_REQUESTED,
            Serdes.String(),
            serdes.valueSerde(FetchRequested.class),
            partitions,
            Map.of());
    this.contentFetched =
        new Topic<>(
            CONTENT_FETCHED,
            Serdes.String(),
            serdes.valueSerde(ContentFetched.class),
            partitions,
            Map.of());
    this.fetchCompleted =
        new Topic<>(
            FETCH_COMPLETED,
            Serdes.String(),
            serdes.valueSerde(FetchCompleted.class),
            partitions,
            Map.of());
    this.sourceStats =
        new Topic<>(
            SOURCE_STATS,
            Serdes.String(),
            serdes.valueSerde(SourceStats.class),
            partitions,
            Map.of("cleanup.policy", "compact", "min.compaction.lag.ms", "60000"));
    this.pushReceived =
        new Topic<>(
            PUSH_RECEIVED,
            Serdes.String(),
            serdes.valueSerde(PushReceived.class),
            partitions,
            Map.of());
    // Every key's latest state is kept for ever (compaction never drops a key's last value), so a
    // service that starts reads the whole directory; tombstones are not used (a revoked key stays
    // revoked).
    this.apiKeys =
        new Topic<>(
            API_KEYS,
            Serdes.String(),
            serdes.valueSerde(ApiKeyState.class),
            partitions,
            Map.of("cleanup.policy", "compact", "min.compaction.lag.ms", "60000"));
    Map<String, Topic<String, ContentFetched>> perTenant = new LinkedHashMap<>();
    for (String tenant : tenantContentTopics) {
      perTenant.put(
          tenant,
          new Topic<>(
              tenantContentTopic(tenant),
              Serdes.String(),
              contentFetched.valueSerde(),
              partitions,
              Map.of()));
    }
    this.tenantContent = Collections.unmodifiableMap(perTenant);
  }

  /**
   * The name of {@code tenant}'s own content topic.
   *
   * @throws IllegalArgumentException when the id is not a tenant id (1 to 100 of {@code A-Z a-z 0-9
   *     . _ -})
   */
  public static String tenantContentTopic(String tenant) {
    if (tenant == null || !TENANT.matcher(tenant).matches()) {
      throw new IllegalArgumentException(
          "tenant-content-topics: '"
              + tenant
              + "' is not a tenant id (1 to 100 characters of A-Z a-z 0-9 . _ -)");
    }
    return TENANT_CONTENT_PREFIX + tenant;
  }

  /** The topics with {@link #DEFAULT_PARTITIONS} partitions each. */
  public static FreshetTopics create(RegistrySettings registry) {
    return new FreshetTopics(registry, DEFAULT_PARTITIONS, List.of());
  }

  /** The topics with the given partition count each. */
  public static FreshetTopics create(RegistrySettings registry, int partitions) {
    return new FreshetTopics(registry, partitions, List.of());
  }

  /**
   * The topics with the given partition count each, and a content topic of its own for each tenant
   * of {@code tenantContentTopics} ({@link #tenantContentTopic}).
   *
   * @throws IllegalArgumentException for an id that is not a tenant id
   */
  public static FreshetTopics create(
      RegistrySettings registry, int partitions, Collection<String> tenantContentTopics) {
    return new FreshetTopics(
        registry, partitions, List.copyOf(new LinkedHashSet<>(tenantContentTopics)));
  }

  /** {@code tenant}'s own content topic, if the deployment isolates that tenant. */
  public Optional<Topic<String, ContentFetched>> tenantContent(String tenant) {
    return Optional.ofNullable(tenantContent.get(tenant));
  }

  /** The tenants with a content topic of their own. */
  public Set<String> tenantsWithContentTopics() {
    return tenantContent.keySet();
  }

  public Topic<String, FetchRequested> fetchRequested() {
    return fetchRequested;
  }

  public Topic<String, ContentFetched> contentFetched() {
    return contentFetched;
  }

  public Topic<String, FetchCompleted> fetchCompleted() {
    return fetchCompleted;
  }

  public Topic<String, SourceStats> sourceStats() {
    return sourceStats;
  }

  /** WebSub notifications the push-receiver accepted, keyed by source id. */
  public Topic<String, PushReceived> pushReceived() {
    return pushReceived;
  }

  /** The API keys' states, written by the scheduler, read by every service with an API. */
  public Topic<String, ApiKeyState> apiKeys() {
    return apiKeys;
  }

  /**
   * All topics: the five of the data flow, in its order, then the API keys, then the per-tenant
   * content topics.
   */
  public List<Topic<String, ?>> all() {
    List<Topic<String, ?>> all =
        new ArrayList<>(
            List.of(
                fetchRequested,
                contentFetched,
                fetchCompleted,
                sourceStats,
                pushReceived,
                apiKeys));
    all.addAll(tenantContent.values());
    return List.copyOf(all);
  }
}
