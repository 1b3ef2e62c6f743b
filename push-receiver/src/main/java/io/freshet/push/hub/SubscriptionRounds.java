package io.freshet.push.hub;

import io.freshet.push.config.PushProperties;
import io.freshet.push.events.SubscriptionEvents;
import io.freshet.push.facts.FactsFreshness;
import io.freshet.push.store.SubscriptionStore;
import io.freshet.push.websub.HubRequest;
import io.freshet.push.websub.Intent;
import io.freshet.push.websub.LeasePlan;
import io.freshet.push.websub.Subscription;
import io.freshet.push.websub.SubscriptionState;
import io.freshet.push.websub.Tokens;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.util.EnumMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

/**
 * One round every {@code round-interval}: creates the subscriptions push-capable sources lack, then
 * sends what {@link LeasePlan} says is due — first requests, renewals at {@code renew-at} of the
 * lease, requests the hub left unverified for {@code verify-timeout}, unsubscriptions of sources
 * that stopped wanting push. The new state (with its pending intent) is stored before the request
 * goes out, so a hub that verifies at once finds it pending. An advisory lock lets one instance run
 * a round at a time.
 */
@Component
public class SubscriptionRounds {

  private static final Logger log = LoggerFactory.getLogger(SubscriptionRounds.class);
  private static final long LOCK = 0x5075_7368_526e_6473L; // "PushRnds"

  private final SubscriptionStore store;
  private final LeasePlan plan;
  private final HubClient hubs;
  private final Tokens tokens;
  private final PushProperties props;
  private final Clock clock;
  private final DataSource dataSource;
  private final MeterRegistry meters;
  private final SubscriptionEvents events;
  private final FactsFreshness freshness;
  private final Map<SubscriptionState, AtomicLong> byState = new EnumMap<>(SubscriptionState.class);

  public SubscriptionRounds(
      SubscriptionStore store,
      LeasePlan plan,
      Tokens tokens,
      PushProperties props,
      Clock clock,
      DataSource dataSource,
      MeterRegistry meters,
      SubscriptionEvents events,
      FactsFreshness freshness) {
    this.store = store;
    this.freshness = freshness;
    this.events = events;
    this.plan = plan;
    this.tokens = tokens;
    this.props = props;
    this.clock = clock;
    this.dataSource = dataSource;
    this.meters = meters;
    this.hubs = new HubClient(new HubAddresses(props.allowPrivateHubs()), props.hubTimeout());
    for (SubscriptionState s : SubscriptionState.values()) {
      var value = new AtomicLong();
      byState.put(s, value);
      Gauge.builder("freshet.push.subscriptions", value, AtomicLong::get)
          .description("Subscriptions by state, as of the last round")
          .tag("state", s.name().toLowerCase(java.util.Locale.ROOT))
          .register(meters);
    }
  }

  @Scheduled(
      initialDelayString = "${freshet.push.round-interval}",
      fixedDelayString = "${freshet.push.round-interval}")
  void scheduled() {
    try {
      round();
    } catch (RuntimeException e) {
      log.warn("push subscription round failed: {}", e.toString());
    }
  }

  /** Runs one round if no other instance is running one; returns the requests sent. */
  public int round() {
    try (Connection lockConnection = dataSource.getConnection()) {
      if (!advisory(lockConnection, "SELECT pg_try_advisory_lock(?)")) {
        return 0;
      }
      try {
        return roundLocked();
      } finally {
        advisory(lockConnection, "SELECT pg_advisory_unlock(?)");
      }
    } catch (SQLException e) {
      throw new IllegalStateException("push round: database: " + e.getMessage(), e);
    }
  }

  private int roundLocked() {
    Instant now = clock.instant();
    // announced within max-silence; a stored announced_at lags the latest announcement by up to the
    // facts' granularity, so the cut-off is that much earlier (never an earlier unsubscription)
    Instant since = freshness.wantedSince(now, props.maxSilence());
    store.createMissing(
        since,
        now,
        (source, tenant, topic, hub) ->
            Subscription.create(UUID.randomUUID(), source, tenant, topic, hub, tokens),
        props.roundBatch());
    int sent = 0;
    for (SubscriptionStore.Open open : store.open(since, 10_000)) {
      if (sent >= props.roundBatch()) {
        break;
      }
      Subscription s = open.subscription();
      LeasePlan.Step step = plan.next(s, open.wanted());
      if (!step.next().equals(s) && !store.transition(s, step.next(), clock.instant())) {
        continue; // changed since it was read (a hub verified meanwhile): the next round decides
      }
      if (s.state().receives() && !step.next().state().receives()) {
        // Lapsed, or no longer wanted: the scheduler stops relying on push for this source.
        events.ended(
            step.next(),
            step.next().state() == SubscriptionState.UNSUBSCRIBING
                ? SubscriptionEvents.Ended.UNSUBSCRIBED
                : SubscriptionEvents.Ended.EXPIRED);
      }
      if (step.send() == null) {
        continue;
      }
      sent++;
      HubClient.Outcome outcome =
          hubs.send(HubRequest.of(step.send(), step.next(), props.publicBaseUrl(), props.lease()));
      meters
          .counter(
              "freshet.push.hub.requests",
              "mode",
              step.send().mode(),
              "outcome",
              outcome.name().toLowerCase(java.util.Locale.ROOT))
          .increment();
      if (outcome != HubClient.Outcome.ACCEPTED) {
        log.info(
            "hub {} did not accept {} of source {} ({}); sent again after {}",
            s.hub(),
            step.send().mode(),
            s.sourceId(),
            outcome,
            props.verifyTimeout());
      }
      if (outcome == HubClient.Outcome.BLOCKED) {
        // A hub we may not contact never will be: stop asking instead of retrying every
        // verify-timeout. A new hub or topic announced makes a new subscription.
        store.save(
            step.send() == Intent.UNSUBSCRIBE
                ? step.next().unsubscribed()
                : step.next().denied("hub address not allowed"),
            clock.instant());
        if (step.send() != Intent.UNSUBSCRIBE) {
          events.ended(step.next(), SubscriptionEvents.Ended.DENIED);
        }
      }
    }
    store.countByState().forEach((state, n) -> byState.get(state).set(n));
    return sent;
  }

  private static boolean advisory(Connection c, String sql) throws SQLException {
    try (var st = c.prepareStatement(sql)) {
      st.setLong(1, LOCK);
      try (var rs = st.executeQuery()) {
        rs.next();
        return rs.getBoolean(1);
      }
    }
  }
}
