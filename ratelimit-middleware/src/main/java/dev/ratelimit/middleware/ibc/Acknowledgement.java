package dev.ratelimit.middleware.ibc;

import dev.ratelimit.core.ErrorCode;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.Objects;
import java.util.Optional;

/**
 * An IBC channel acknowledgement ({@code ibc.core.channel.v1.Acknowledgement}): either a success
 * carrying result bytes or an error carrying a text. Immutable; result bytes are copied in and out.
 *
 * <p>{@link #toJsonBytes()} writes exactly the bytes an ibc-go chain commits for the
 * acknowledgement, so counterparties and relayers see what they expect. Reading acknowledgements is
 * {@link AcknowledgementCodec}'s job.
 */
public final class Acknowledgement {
  private static final byte[] SUCCESS_RESULT = {1};

  /** ICS-20's success acknowledgement, result {@code [0x01]}: JSON {@code {"result":"AQ=="}}. */
  public static final Acknowledgement SUCCESS = success(SUCCESS_RESULT);

  private final byte[] result; // null for an error acknowledgement
  private final String error; // null for a success acknowledgement

  private Acknowledgement(byte[] result, String error) {
    this.result = result;
    this.error = error;
  }

  /** A copy of ICS-20's success result, {@code [0x01]} ({@code AckSuccess} in ibc-go). */
  public static byte[] successResult() {
    return SUCCESS_RESULT.clone();
  }

  /**
   * A success acknowledgement with {@code result} (copied).
   *
   * @throws NullPointerException if {@code result} is {@code null}
   * @throws IllegalArgumentException if {@code result} is empty (ibc-go rejects an empty result)
   */
  public static Acknowledgement success(byte[] result) {
    Objects.requireNonNull(result, "result");
    if (result.length == 0) {
      throw new IllegalArgumentException("a success acknowledgement needs a non-empty result");
    }
    return new Acknowledgement(result.clone(), null);
  }

  /**
   * An error acknowledgement with this text. Any text is accepted, even empty: an acknowledgement
   * read off the wire with an empty {@code error} is still an error.
   *
   * @throws NullPointerException if {@code error} is {@code null}
   */
  public static Acknowledgement error(String error) {
    return new Acknowledgement(null, Objects.requireNonNull(error, "error"));
  }

  /**
   * The error acknowledgement ibc-go writes when a receive fails with a registered error of ABCI
   * code {@code abciCode}: {@code {"error":"ABCI code: N: error handling packet: see events for
   * details"}}. The detail goes in events, never in the acknowledgement (it is committed state, and
   * must not vary between nodes).
   *
   * @throws IllegalArgumentException if {@code abciCode} is not positive (0 means success in ABCI)
   */
  public static Acknowledgement rateLimitError(int abciCode) {
    if (abciCode <= 0) {
      throw new IllegalArgumentException("ABCI code must be positive, got " + abciCode);
    }
    return error("ABCI code: " + abciCode + ": error handling packet: see events for details");
  }

  /**
   * {@link #rateLimitError(int)} with {@code code}'s number ({@code ratelimit} codespace: 4 quota
   * exceeded, 7 denom blacklisted, 9 or 10 bad packet data).
   *
   * @throws NullPointerException if {@code code} is {@code null}
   */
  public static Acknowledgement rateLimitError(ErrorCode code) {
    return rateLimitError(Objects.requireNonNull(code, "code").code());
  }

  /** True for a success acknowledgement, false for an error one. */
  public boolean isSuccess() {
    return result != null;
  }

  /** A copy of the result bytes of a success acknowledgement; empty for an error one. */
  public Optional<byte[]> result() {
    return result == null ? Optional.empty() : Optional.of(result.clone());
  }

  /** The text of an error acknowledgement; empty for a success one. */
  public Optional<String> error() {
    return Optional.ofNullable(error);
  }

  /**
   * The acknowledgement as ibc-go commits it: {@code {"result":"<standard base64, padded>"}} or
   * {@code {"error":"<text>"}}, compact, with Go's string escaping ({@link GoJson#quote}), UTF-8.
   */
  public byte[] toJsonBytes() {
    String json =
        result != null
            ? "{\"result\":\"" + Base64.getEncoder().encodeToString(result) + "\"}"
            : "{\"error\":" + GoJson.quote(error) + "}";
    return json.getBytes(StandardCharsets.UTF_8);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Acknowledgement a
        && Arrays.equals(result, a.result)
        && Objects.equals(error, a.error);
  }

  @Override
  public int hashCode() {
    return 31 * Arrays.hashCode(result) + Objects.hashCode(error);
  }

  @Override
  public String toString() {
    return result != null
        ? "Acknowledgement[result=" + Base64.getEncoder().encodeToString(result) + "]"
        : "Acknowledgement[error=" + GoJson.quote(error) + "]";
  }
}
