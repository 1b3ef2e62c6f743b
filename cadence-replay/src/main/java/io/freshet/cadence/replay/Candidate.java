package io.freshet.cadence.replay;

import io.freshet.cadence.sim.peer.PolicyCatalog;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * One cadence configuration to replay: a simulator policy, a factor on its intervals and the budget
 * it may spend (adaptive and oracle spend it; the others are scaled by {@code scale}).
 *
 * @param name the row's name in the report
 * @param policy one of the simulator's policies ({@link PolicyCatalog#NAMES})
 * @param scale every interval the policy chooses is multiplied by this (1 = as configured)
 * @param budgetPerHour fetches per hour (null = the run's budget)
 */
public record Candidate(String name, String policy, double scale, Double budgetPerHour) {

  /** The deployment's configuration: the default {@code adaptive} mode at the run's budget. */
  public static Candidate current() {
    return new Candidate("current", "adaptive", 1.0, null);
  }

  /**
   * Candidates replayed when no file is given: adaptive at half and twice the budget, {@code
   * feed_frequency} (ADR 0011, docs/adr/0011-feed-frequency-from-the-last-ten-items.md) and {@code
   * signal_adaptive} (ADR 0010, docs/adr/0010-signal-adaptive-cadence-and-its-multiplier-table.md),
   * and a fixed hour.
   */
  public static List<Candidate> defaults(double budgetPerHour) {
    return List.of(
        new Candidate("adaptive_half_budget", "adaptive", 1.0, budgetPerHour / 2),
        new Candidate("adaptive_double_budget", "adaptive", 1.0, budgetPerHour * 2),
        new Candidate("feed_frequency", "feed_frequency", 1.0, null),
        new Candidate("signal_adaptive", "signal_adaptive", 1.0, null),
        new Candidate("fixed_1h", "fixed", 1.0, null));
  }

  /**
   * Reads a JSON file: {@code [{"name": "...", "policy": "adaptive", "scale": 1.0,
   * "budget_per_hour": 200}, ...]}; {@code scale} and {@code budget_per_hour} are optional.
   *
   * @throws IllegalArgumentException naming the entry and field that is wrong
   */
  public static List<Candidate> read(Path file) throws IOException {
    JsonNode root;
    try {
      root = JsonMapper.builder().build().readTree(Files.readString(file));
    } catch (JacksonException e) {
      throw new IllegalArgumentException(file + ": not JSON: " + e.getOriginalMessage());
    }
    if (!root.isArray() || root.isEmpty()) {
      throw new IllegalArgumentException(file + ": expected a non-empty JSON array of objects");
    }
    List<Candidate> out = new ArrayList<>();
    Set<String> names = new HashSet<>();
    for (int i = 0; i < root.size(); i++) {
      JsonNode n = root.get(i);
      String where = file + ": entry " + i;
      if (!n.isObject()) {
        throw new IllegalArgumentException(where + ": expected an object");
      }
      for (String field : n.propertyNames()) {
        if (!Set.of("name", "policy", "scale", "budget_per_hour").contains(field)) {
          throw new IllegalArgumentException(
              where + ": unknown field '" + field + "' (name, policy, scale, budget_per_hour)");
        }
      }
      String name = n.path("name").asString("");
      if (name.isBlank() || name.contains(",")) {
        throw new IllegalArgumentException(where + ": name must be non-blank, without commas");
      }
      if (!names.add(name) || name.equals("current")) {
        throw new IllegalArgumentException(where + ": name '" + name + "' is used twice");
      }
      String policy = n.path("policy").asString("");
      if (!PolicyCatalog.NAMES.contains(policy)) {
        throw new IllegalArgumentException(
            where
                + ": policy '"
                + policy
                + "' is not one of "
                + String.join(", ", PolicyCatalog.NAMES));
      }
      double scale = n.has("scale") ? n.get("scale").asDouble() : 1.0;
      if (!(scale > 0) || Double.isInfinite(scale)) {
        throw new IllegalArgumentException(where + ": scale must be a positive number");
      }
      Double budget = null;
      if (n.has("budget_per_hour")) {
        budget = n.get("budget_per_hour").asDouble();
        if (!(budget > 0) || budget.isInfinite()) {
          throw new IllegalArgumentException(where + ": budget_per_hour must be positive");
        }
      }
      out.add(new Candidate(name, policy, scale, budget));
    }
    return out;
  }

  /** The budget this candidate spends. */
  double budget(double runBudget) {
    return budgetPerHour == null ? runBudget : budgetPerHour;
  }
}
