package io.freshet.stats.state;

import io.freshet.schemas.avro.SignalType;

/**
 * Signal types by index, most time-sensitive first (event, ask, give, informative): the order the
 * state stores counts in and the order that breaks ties of {@code dominant_signal_type}.
 */
public final class SignalTypes {

  /** Number of signal types. */
  public static final int COUNT = 4;

  private SignalTypes() {}

  /** The index of {@code type}; every case named, so a new symbol fails to compile here. */
  public static int index(SignalType type) {
    return switch (type) {
      case event -> 0;
      case ask -> 1;
      case give -> 2;
      case informative -> 3;
    };
  }

  /** The type at {@code index}. */
  public static SignalType at(int index) {
    return switch (index) {
      case 0 -> SignalType.event;
      case 1 -> SignalType.ask;
      case 2 -> SignalType.give;
      case 3 -> SignalType.informative;
      default -> throw new IllegalArgumentException("no signal type at " + index);
    };
  }
}
