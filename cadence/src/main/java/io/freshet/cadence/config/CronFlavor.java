package io.freshet.cadence.config;

import com.cronutils.model.CronType;
import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

/** Which cron dialect an expression is written in; cron-utils parses each. */
public enum CronFlavor {
  /** Five fields: minute hour day-of-month month day-of-week. */
  UNIX(CronType.UNIX),
  /** Six or seven fields, starting with seconds; {@code ?} for "any day". */
  QUARTZ(CronType.QUARTZ),
  /** Spring's six fields (seconds first). */
  SPRING(CronType.SPRING53);

  private final CronType cronType;

  CronFlavor(CronType cronType) {
    this.cronType = cronType;
  }

  public CronType cronType() {
    return cronType;
  }

  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }

  public static Optional<CronFlavor> parse(String text) {
    return Arrays.stream(values()).filter(f -> f.wireName().equalsIgnoreCase(text)).findFirst();
  }

  public static String allowed() {
    return Arrays.stream(values()).map(CronFlavor::wireName).collect(Collectors.joining(", "));
  }
}
