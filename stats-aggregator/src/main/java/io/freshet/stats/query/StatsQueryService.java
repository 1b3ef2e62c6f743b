package io.freshet.stats.query;

import io.freshet.stats.app.StatsProperties;
import io.freshet.stats.app.StatsStreams;
import io.freshet.stats.state.SourceState;
import io.freshet.stats.state.StatsDeriver;
import io.freshet.stats.state.StatsUpdater;
import io.freshet.stats.topology.SourceStatsTopology;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyQueryMetadata;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.state.HostInfo;
import org.springframework.stereotype.Service;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/**
 * Answers stats queries from whichever instance owns each source's partition: this one from its
 * store, the others over their {@code /internal/stats} endpoint.
 *
 * <p>Scoped by the caller's tenant: a source whose state belongs to another tenant (or whose tenant
 * is not known yet) is left out exactly as one with no stats, so the caller cannot tell them apart.
 * A query forwarded to another instance carries the caller's own {@code Authorization} header: the
 * owner authenticates the same key (every instance reads the same key topic) and applies the same
 * scope, so no instance answers more than the caller's key may see, and {@code /internal/stats}
 * needs no trust between instances.
 */
@Service
public class StatsQueryService {

  private static final StringSerializer KEYS = new StringSerializer();

  private final StatsStreams streams;
  private final StatsDeriver deriver;
  private final HostInfo self;
  private final StatsProperties props;
  private final JsonMapper json;
  private final HttpClient http;

  StatsQueryService(
      StatsStreams streams, StatsUpdater updater, StatsProperties props, JsonMapper json) {
    this.streams = streams;
    this.deriver = new StatsDeriver(updater);
    this.self = HostInfo.buildFromEndpoint(props.advertisedHost());
    this.props = props;
    this.json = json;
    this.http = HttpClient.newBuilder().connectTimeout(props.queryTimeout()).build();
  }

  /** Thrown when the owner of a key is unknown or unreachable right now (rebalance, restart). */
  public static final class UnavailableException extends RuntimeException {
    UnavailableException(String message, Throwable cause) {
      super(message, cause);
    }
  }

  /**
   * The stats of {@code ids} that exist and that {@code tenant} may see, in the order asked; the
   * others are left out.
   *
   * @param tenant the caller's tenant; null for a key that sees every tenant
   * @param authorization the caller's {@code Authorization} header, forwarded to the owners
   */
  public List<StatsView> find(List<String> ids, String tenant, String authorization) {
    if (streams.state() != KafkaStreams.State.RUNNING) {
      throw new UnavailableException("stats are not queryable while " + streams.state(), null);
    }
    Map<HostInfo, List<String>> byHost = new LinkedHashMap<>();
    for (String id : ids) {
      KeyQueryMetadata meta =
          streams.streams().queryMetadataForKey(SourceStatsTopology.STORE, id, KEYS);
      if (meta == null || meta == KeyQueryMetadata.NOT_AVAILABLE) {
        throw new UnavailableException("no instance owns '" + id + "' right now", null);
      }
      byHost.computeIfAbsent(meta.activeHost(), h -> new ArrayList<>()).add(id);
    }
    Map<String, StatsView> found = new LinkedHashMap<>();
    byHost.forEach(
        (host, hostIds) -> {
          List<StatsView> views =
              host.equals(self) ? findLocal(hostIds, tenant) : remote(host, hostIds, authorization);
          views.forEach(v -> found.put(v.sourceId(), v));
        });
    return ids.stream().filter(found::containsKey).map(found::get).toList();
  }

  /**
   * The stats of the {@code ids} this instance's active tasks hold that {@code tenant} may see
   * (null: every tenant).
   */
  public List<StatsView> findLocal(List<String> ids, String tenant) {
    try {
      var store = streams.store();
      List<StatsView> views = new ArrayList<>();
      for (String id : ids) {
        SourceState state = store.get(id);
        if (state != null && (tenant == null || tenant.equals(state.tenantId()))) {
          views.add(StatsView.of(deriver.derive(id, state)));
        }
      }
      return views;
    } catch (InvalidStateStoreException e) {
      throw new UnavailableException("the store is migrating: " + e.getMessage(), e);
    }
  }

  private List<StatsView> remote(HostInfo host, List<String> ids, String authorization) {
    String query = URLEncoder.encode(String.join(",", ids), StandardCharsets.UTF_8);
    URI uri =
        URI.create("http://" + host.host() + ":" + host.port() + "/internal/stats?ids=" + query);
    try {
      var request = HttpRequest.newBuilder(uri).timeout(props.queryTimeout()).GET();
      if (authorization != null) {
        request.header("Authorization", authorization);
      }
      HttpResponse<String> response =
          http.send(request.build(), HttpResponse.BodyHandlers.ofString());
      if (response.statusCode() != 200) {
        throw new UnavailableException(
            "instance " + host + " answered " + response.statusCode(), null);
      }
      return json.readValue(response.body(), new TypeReference<List<StatsView>>() {});
    } catch (IOException e) {
      throw new UnavailableException("instance " + host + " is unreachable: " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new UnavailableException("interrupted", e);
    }
  }
}
