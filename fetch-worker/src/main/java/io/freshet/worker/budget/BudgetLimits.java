package io.freshet.worker.budget;

import java.time.Duration;

/**
 * What the CPU-bound part of one fetch (decoding and parsing its documents, expanding recurrences,
 * mapping items) may spend before the fetch ends as {@code failed} with error kind {@code
 * budget_exceeded}.
 *
 * @param cpu CPU time of the parse threads, summed over the fetch's documents (pages)
 * @param allocatedBytes bytes allocated by the parse threads, summed likewise: a measure of work
 *     (garbage counts), bounding what a document can make the worker build
 * @param wall longest wall time one parse may take before it is abandoned (it is interrupted; a
 *     parser that never looks at its interrupt keeps its thread until it ends)
 */
public record BudgetLimits(Duration cpu, long allocatedBytes, Duration wall) {

  public BudgetLimits {
    if (cpu.isNegative() || cpu.isZero() || wall.isNegative() || wall.isZero()) {
      throw new IllegalArgumentException("budget times must be positive");
    }
    if (allocatedBytes <= 0) {
      throw new IllegalArgumentException("allocated-bytes budget must be positive");
    }
  }
}
