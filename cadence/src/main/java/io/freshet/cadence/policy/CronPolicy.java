package io.freshet.cadence.policy;

import com.cronutils.model.definition.CronDefinitionBuilder;
import com.cronutils.model.time.ExecutionTime;
import com.cronutils.parser.CronParser;
import io.freshet.cadence.budget.BudgetPlan;
import io.freshet.cadence.budget.Demand;
import io.freshet.cadence.config.CadenceSpec;
import io.freshet.cadence.source.SourceSnapshot;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.util.Optional;

/**
 * {@code cron}: due at the first fire time of the expression, in the configured time zone, strictly
 * after the last fetch (cron-utils computes fire times, daylight-saving transitions included).
 *
 * <p>After a failure the source is retried with backoff from {@link Backoff#RETRY_BASE}, but never
 * later than its next regular fire time. Under budget pressure the gap to the next fire time is
 * stretched by the compression factor and the next fire time after that is taken.
 */
public final class CronPolicy implements CadencePolicy {

  /** An expression with no future fire time (e.g. 30 February) is checked yearly. */
  static final Duration NO_FIRE_TIME = Duration.ofDays(366);

  private final CadenceSpec.Cron spec;
  private final ExecutionTime executionTime;
  private final Duration maxBackoff;

  public CronPolicy(CadenceSpec.Cron spec, Duration maxBackoff) {
    this.spec = spec;
    this.maxBackoff = maxBackoff;
    this.executionTime =
        ExecutionTime.forCron(
            new CronParser(CronDefinitionBuilder.instanceDefinitionFor(spec.flavor().cronType()))
                .parse(spec.expression()));
  }

  /** The first fire time strictly after {@code after}. */
  public Instant nextFire(Instant after) {
    Optional<ZonedDateTime> next =
        executionTime.nextExecution(ZonedDateTime.ofInstant(after, spec.zone()));
    return next.map(ZonedDateTime::toInstant).orElse(after.plus(NO_FIRE_TIME));
  }

  @Override
  public Instant nextDue(SourceSnapshot source, Instant reference, Instant now, BudgetPlan plan) {
    Instant fire = nextFire(reference);
    if (source.consecutiveMisses() > 0) {
      Instant retry =
          reference.plus(Backoff.apply(Duration.ZERO, source.consecutiveMisses(), maxBackoff));
      return retry.isBefore(fire) ? retry : fire;
    }
    if (plan.compression() > 1.0) {
      Duration gap = Duration.between(reference, fire);
      Instant stretched = reference.plus(Durations.times(gap, plan.compression()));
      return nextFire(stretched.minusNanos(1));
    }
    return fire;
  }

  @Override
  public Demand demand(SourceSnapshot source, Instant now) {
    Instant first = nextFire(now);
    Instant second = nextFire(first);
    return new Demand.Fixed(1.0 / Math.max(1e-6, Durations.hours(Duration.between(first, second))));
  }
}
