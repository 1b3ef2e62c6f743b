package io.freshet.stack.launcher;

/** A failure the launcher reports as one line, without a stack trace. */
public final class StackException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public StackException(String message) {
    super(message);
  }
}
