package io.freshet.scheduler.outcomes;

/**
 * What became of one record of a poll: its result, or the failure that makes it poison (it goes to
 * the dead-letter topic alone, the rest of the poll is applied).
 *
 * @param <R> the result of an applied record
 */
public record Verdict<R>(R result, RuntimeException poison) {

  static <R> Verdict<R> of(R result) {
    return new Verdict<>(result, null);
  }

  static <R> Verdict<R> poison(RuntimeException failure) {
    return new Verdict<>(null, failure);
  }

  /** The result, or the poison failure thrown. */
  R orThrow() {
    if (poison != null) {
      throw poison;
    }
    return result;
  }
}
