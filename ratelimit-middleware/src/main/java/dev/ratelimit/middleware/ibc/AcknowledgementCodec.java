package dev.ratelimit.middleware.ibc;

import dev.ratelimit.core.ErrorCode;
import dev.ratelimit.core.RateLimitException;
import java.util.List;
import java.util.Optional;

/**
 * The one acknowledgement decoder, shared by the rate-limit middleware and the transfer app: if
 * they classified an acknowledgement differently, a counterparty could make the limiter give
 * capacity back while the app refunds nothing (or the reverse).
 *
 * <p>Rules, in order:
 *
 * <ol>
 *   <li>exactly the 32-byte IBC v2 universal error acknowledgement ({@code
 *       sha256("UNIVERSAL_ERROR_ACKNOWLEDGEMENT")}) is an error;
 *   <li>otherwise the bytes must be valid UTF-8 holding one JSON object (nothing after it) with no
 *       duplicate key and no key but {@code result} and {@code error} (the protobuf-JSON names of
 *       the two oneof fields, the same in camelCase): unknown keys are rejected like protojson
 *       does;
 *   <li>exactly one of the two keys, its value a JSON string;
 *   <li>{@code error}: any string, even empty, is an error acknowledgement;
 *   <li>{@code result}: base64 as Go's protojson reads bytes (standard or URL alphabet, padded or
 *       not) decoding to at least one byte is a success.
 * </ol>
 *
 * Anything else ({@code null} values, numbers, an empty result, both keys, trailing data, non-JSON,
 * empty input) is malformed.
 */
public final class AcknowledgementCodec {

  /** What an acknowledgement means for accounting. */
  public enum AckClass {
    /** The packet was received and processed: keep the flow, drop the pending marker. */
    SUCCESS,
    /** The receiver refused the packet: the sender refunds, the limiter gives capacity back. */
    ERROR,
    /** Neither: no accounting change (the middleware reports it in an event). */
    MALFORMED
  }

  /** The ack's keys, prepared once: every acknowledgement is read with them. */
  private static final GoJson.FieldNames KEYS = GoJson.FieldNames.of(List.of("result", "error"));

  private static final int RESULT = 0;
  private static final int ERROR = 1;
  private static final Acknowledgement UNIVERSAL_ERROR =
      Acknowledgement.error("universal error acknowledgement");

  private AcknowledgementCodec() {}

  /**
   * Classifies acknowledgement bytes by the rules above. Never throws: {@code null}, empty and
   * garbage input are {@link AckClass#MALFORMED}.
   */
  public static AckClass classify(byte[] ack) {
    try {
      return parse(ack).isSuccess() ? AckClass.SUCCESS : AckClass.ERROR;
    } catch (RuntimeException e) { // RateLimitException, and defensively anything else
      return AckClass.MALFORMED;
    }
  }

  /**
   * The acknowledgement, or empty when it is malformed; for the transfer app. The universal error
   * acknowledgement decodes to an error acknowledgement with the text {@code universal error
   * acknowledgement} (it has no text of its own). Never throws.
   */
  public static Optional<Acknowledgement> decode(byte[] ack) {
    try {
      return Optional.of(parse(ack));
    } catch (RuntimeException e) {
      return Optional.empty();
    }
  }

  /**
   * The acknowledgement, for callers that report why one is malformed.
   *
   * @throws RateLimitException with code {@link ErrorCode#INVALID_ACKNOWLEDGEMENT} (14) and the
   *     reason when {@code ack} is {@code null} or malformed
   */
  public static Acknowledgement parse(byte[] ack) {
    if (ack == null) {
      throw new RateLimitException(ErrorCode.INVALID_ACKNOWLEDGEMENT, "acknowledgement is null");
    }
    // defined once, with the IBC v2 types
    if (dev.ratelimit.middleware.ibc.v2.Acknowledgement.isUniversalError(ack)) {
      return UNIVERSAL_ERROR;
    }
    String[] fields = GoJson.readStringFields(ack, KEYS, ErrorCode.INVALID_ACKNOWLEDGEMENT);
    if ((fields[RESULT] == null) == (fields[ERROR] == null)) {
      throw new RateLimitException(
          ErrorCode.INVALID_ACKNOWLEDGEMENT,
          fields[RESULT] == null
              ? "neither \"result\" nor \"error\" is set"
              : "both \"result\" and \"error\" are set");
    }
    if (fields[ERROR] != null) {
      return Acknowledgement.error(fields[ERROR]);
    }
    byte[] result =
        GoBase64.decodeProtoJsonBytes(fields[RESULT])
            .orElseThrow(
                () ->
                    new RateLimitException(
                        ErrorCode.INVALID_ACKNOWLEDGEMENT, "\"result\" is not valid base64"));
    if (result.length == 0) {
      throw new RateLimitException(ErrorCode.INVALID_ACKNOWLEDGEMENT, "\"result\" is empty");
    }
    return Acknowledgement.success(result);
  }
}
