package io.freshet.kit.web;

import java.io.IOException;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ErrorReportValve;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import tools.jackson.databind.json.JsonMapper;

/**
 * Tomcat's last word on an error no servlet answered — above all a request the connector refuses
 * before Spring sees it (a request line or headers over {@code
 * server.max-http-request-header-size}): a problem ({@link Problems}) instead of Tomcat's HTML
 * page. Replaces the host's {@link ErrorReportValve}.
 */
public class ProblemErrorReportValve extends ErrorReportValve {

  private final JsonMapper mapper;

  public ProblemErrorReportValve(JsonMapper mapper) {
    this.mapper = mapper;
    setShowReport(false);
    setShowServerInfo(false);
  }

  @Override
  protected void report(Request request, Response response, Throwable throwable) {
    int code = response.getStatus();
    if (code < 400 || response.getContentWritten() > 0 || !response.setErrorReported()) {
      return;
    }
    HttpStatusCode status = HttpStatusCode.valueOf(code);
    String message = response.getMessage();
    String error =
        status.is5xxServerError() || message == null || message.isBlank()
            ? Problems.title(status)
            : "request: " + message;
    try {
      byte[] body = mapper.writeValueAsBytes(ProblemWriter.body(status, java.util.List.of(error)));
      response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
      response.setContentLength(body.length);
      response.getOutputStream().write(body);
      response.finishResponse();
    } catch (IOException | IllegalStateException e) {
      // the client is gone or the response was taken over: nothing more to say
    }
  }
}
