package io.freshet.cadence.sim;

/** A trace CSV line that cannot be read; the message names the line. */
public class TraceFormatException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  public TraceFormatException(String message) {
    super(message);
  }
}
