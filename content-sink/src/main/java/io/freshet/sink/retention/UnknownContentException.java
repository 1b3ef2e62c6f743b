package io.freshet.sink.retention;

import java.util.List;

/** Content ids that name no stored row; the request that named them changed nothing. */
public class UnknownContentException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  private final transient List<Long> ids;

  public UnknownContentException(List<Long> ids) {
    super("unknown content id(s): " + ids);
    this.ids = List.copyOf(ids);
  }

  public List<Long> ids() {
    return ids;
  }
}
