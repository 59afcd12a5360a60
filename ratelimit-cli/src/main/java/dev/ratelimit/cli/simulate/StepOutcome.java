package dev.ratelimit.cli.simulate;

import dev.ratelimit.core.ErrorCode;
import dev.ratelimit.core.RateLimitException;
import dev.ratelimit.core.host.Event;
import dev.ratelimit.middleware.ibc.Acknowledgement;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a step did: whether it succeeded (its writes were kept), the error it failed with, a recv's
 * acknowledgement, whether the stand-in app was called, the events it emitted (durable ones
 * included) and, for checks, the mismatches found.
 *
 * @param ok the step's final result, app included (a recv is ok unless it answered an error ack
 *     or threw)
 * @param recvAck for a recv that returned: the acknowledgement, or empty when asynchronous
 * @param mismatches for checks: one line per failed assertion
 * @param op the step's op
 * @param answer for checks: what the state or query answered, for {@code --verbose}
 */
public record StepOutcome(
    boolean ok,
    Optional<Throwable> error,
    Optional<Optional<Acknowledgement>> recvAck,
    boolean appCalled,
    List<Event> events,
    List<String> mismatches,
    String op,
    String answer) {

  private static final Pattern ABCI_CODE = Pattern.compile("^ABCI code: ([0-9]{1,9}):");

  public StepOutcome {
    events = List.copyOf(events);
    mismatches = List.copyOf(mismatches);
  }

  /** The error's code, when it is a rejection of the module or a generic class. */
  public Optional<ErrorCode> errorCode() {
    return error.filter(RateLimitException.class::isInstance)
        .map(e -> ((RateLimitException) e).code());
  }

  /** {@code success}, {@code error} or {@code async}; {@code none} when the recv threw. */
  String ackKind() {
    if (recvAck.isEmpty()) {
      return "none";
    }
    return recvAck.get().map(a -> a.isSuccess() ? "success" : "error").orElse("async");
  }

  /** The acknowledgement written, as UTF-8 text. */
  Optional<String> ackText() {
    return recvAck
        .flatMap(a -> a)
        .map(a -> new String(a.toJsonBytes(), StandardCharsets.UTF_8));
  }

  /** N of an error acknowledgement {@code ABCI code: N: ...}. */
  Optional<Integer> ackAbciCode() {
    return recvAck
        .flatMap(a -> a)
        .flatMap(Acknowledgement::error)
        .map(ABCI_CODE::matcher)
        .filter(Matcher::find)
        .map(m -> Integer.parseInt(m.group(1)));
  }

  /** The error in a few words: {@code code 4 (quota exceeded: ...)}. */
  String describeError() {
    if (error.isEmpty()) {
      return "no error";
    }
    Throwable e = error.get();
    if (e instanceof RateLimitException r) {
      return "code " + r.code().label() + " (" + oneLine(r.getMessage()) + ")";
    }
    return "error " + e.getClass().getSimpleName() + " (" + oneLine(e.getMessage()) + ")";
  }

  /** The outcome in a few words, for {@code --verbose} and failure lines. */
  String describe() {
    if (recvAck.isPresent() || (error.isPresent() && op.equals("recv"))) {
      if (error.isPresent()) {
        return "recv failed: " + describeError();
      }
      String kind = ackKind();
      return "ack " + kind + ackText().map(t -> " " + t).orElse("");
    }
    return ok ? "ok" : "failed: " + describeError();
  }

  static String oneLine(String s) {
    return MalformedScenarioException.oneLine(s);
  }
}
