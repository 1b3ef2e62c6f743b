package io.freshet.sink.api;

import io.freshet.kit.web.ProblemExceptionHandler;
import io.freshet.kit.web.Problems;
import io.freshet.sink.retention.UnknownContentException;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/**
 * The service kit's problems ({@link ProblemExceptionHandler}) and the sink's own: an unknown
 * content id in a retention request is a 404 naming it.
 */
@RestControllerAdvice
class SinkExceptionHandler extends ProblemExceptionHandler {

  @ExceptionHandler(UnknownContentException.class)
  ResponseEntity<ProblemDetail> unknownContent(UnknownContentException e) {
    return Problems.response(
        HttpStatus.NOT_FOUND,
        "content_ids: unknown content id(s) " + e.ids() + "; nothing was changed");
  }
}
