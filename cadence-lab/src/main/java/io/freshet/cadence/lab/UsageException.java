package io.freshet.cadence.lab;

/** Bad command-line input: printed as one line, exit code 2. */
public class UsageException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  public UsageException(String message) {
    super(message);
  }
}
