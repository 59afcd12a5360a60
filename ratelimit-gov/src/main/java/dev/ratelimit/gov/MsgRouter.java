package dev.ratelimit.gov;

import com.google.protobuf.Any;
import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import com.google.protobuf.Parser;
import dev.ratelimit.core.ErrorCode;
import dev.ratelimit.core.RateLimitException;
import dev.ratelimit.core.host.BlockContext;
import dev.ratelimit.core.model.Texts;
import dev.ratelimit.proto.v1.MsgAddRateLimit;
import dev.ratelimit.proto.v1.MsgRemoveRateLimit;
import dev.ratelimit.proto.v1.MsgResetRateLimit;
import dev.ratelimit.proto.v1.MsgUpdateRateLimit;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Routes a governance message packed in a protobuf {@link Any} to the {@link RateLimitMsgHandler},
 * by its type URL, and packs the response the same way. Accepted (exactly, Cosmos style with a
 * leading {@code /} and no host):
 *
 * <ul>
 *   <li>{@code /ratelimit.v1.Msg{Add,Update,Remove,Reset}RateLimit} (the ibc-apps module, A);
 *   <li>{@code /ibc.applications.rate_limiting.v1.Msg{Add,Update,Remove,Reset}RateLimit} (its
 *       successor in ibc-go, G: the same bytes, field 1 named {@code signer} instead of {@code
 *       authority}).
 * </ul>
 *
 * The response's type URL is the request's with {@code Response} appended, so it is in the
 * request's package ({@code /ibc.applications.rate_limiting.v1.MsgAddRateLimitResponse} answers
 * G's add). Responses have no fields: their value is empty.
 *
 * <p>Decoding is strict: bytes that are not a valid encoding of the message, or that carry a field
 * the message does not declare (unless its number has bit 11 set, the SDK's "non-critical" mark:
 * the SDK's unknown-field check allows exactly those), fail with
 * {@link ErrorCode#INVALID_REQUEST} before anything runs, so nothing is written.
 *
 * <p>{@link #validate} runs the same decoding and the handler's stateless checks without executing
 * the message: one code path, so submission and execution cannot disagree on those rules.
 */
public final class MsgRouter {
  private static final String PACKAGE_A = "ratelimit.v1";
  private static final String PACKAGE_G = "ibc.applications.rate_limiting.v1";

  /**
   * The Cosmos SDK's mark of a non-critical field (bit 11 of the field number): unknown fields
   * carrying it may be ignored, any other unknown field is rejected.
   */
  private static final int NON_CRITICAL_BIT = 1 << 10;

  private static final Map<String, Kind> ROUTES = routes();

  private final RateLimitMsgHandler handler;

  /** A router that executes every message it accepts through {@code handler}. */
  public MsgRouter(RateLimitMsgHandler handler) {
    this.handler = Objects.requireNonNull(handler, "handler");
  }

  /**
   * The type URLs {@link #route} accepts: the four messages of {@code ratelimit.v1}, then the four
   * of {@code ibc.applications.rate_limiting.v1} (add, update, remove, reset). Unmodifiable, in
   * that order.
   */
  public static Set<String> supportedTypeUrls() {
    return ROUTES.keySet();
  }

  /**
   * Decodes {@code msg} by its type URL and executes it through the handler.
   *
   * @return the response, packed with the request's type URL + {@code Response}
   * @throws RateLimitException {@link ErrorCode#INVALID_REQUEST} for an unknown type URL or bytes
   *     that do not decode; otherwise whatever the handler throws for the message
   */
  public Any route(BlockContext ctx, Any msg) {
    Objects.requireNonNull(ctx, "ctx");
    handler.execute(ctx, check(msg));
    // Every response is an empty message: its encoding is empty in either package.
    return Any.newBuilder().setTypeUrl(msg.getTypeUrl() + "Response").build();
  }

  /**
   * Runs every check {@link #route} runs before it reads state, and nothing else: the type URL,
   * the decoding, then the handler's rules 1-8 (signer address, fields, signer is the authority;
   * see {@link RateLimitMsgHandler}). It reads and writes no state, so a host can refuse a
   * governance proposal when it is submitted; the stateful checks (a limit exists, a supply, a
   * channel) wait for execution, since the state may change in between.
   *
   * @throws RateLimitException what {@link #route} would throw for the same rule, code and message:
   *     {@link ErrorCode#INVALID_REQUEST} for an unknown type URL, bytes that do not decode or an
   *     invalid field, {@link ErrorCode#INVALID_ADDRESS} for a malformed signer, {@link
   *     ErrorCode#UNAUTHORIZED} for a signer other than the authority
   */
  public void validate(Any msg) {
    check(msg);
  }

  /** Decodes {@code msg} by its type URL and runs the handler's stateless checks on it. */
  private CheckedMsg check(Any msg) {
    Objects.requireNonNull(msg, "msg");
    String typeUrl = msg.getTypeUrl();
    Kind kind = ROUTES.get(typeUrl);
    if (kind == null) {
      throw new RateLimitException(
          ErrorCode.INVALID_REQUEST,
          "unknown message type URL " + Texts.quote(typeUrl) + "; supported: " + ROUTES.keySet());
    }
    ByteString value = msg.getValue();
    return switch (kind) {
      case ADD -> handler.check(decode(MsgAddRateLimit.parser(), value, typeUrl));
      case UPDATE -> handler.check(decode(MsgUpdateRateLimit.parser(), value, typeUrl));
      case REMOVE -> handler.check(decode(MsgRemoveRateLimit.parser(), value, typeUrl));
      case RESET -> handler.check(decode(MsgResetRateLimit.parser(), value, typeUrl));
    };
  }

  private static <T extends Message> T decode(
      Parser<T> parser, ByteString value, String typeUrl) {
    T decoded;
    try {
      decoded = parser.parseFrom(value);
    } catch (InvalidProtocolBufferException e) {
      throw new RateLimitException(
          ErrorCode.INVALID_REQUEST,
          "cannot decode " + typeUrl + " (" + value.size() + " bytes): " + e.getMessage(),
          e);
    }
    for (int field : decoded.getUnknownFields().asMap().keySet()) {
      if ((field & NON_CRITICAL_BIT) == 0) {
        throw new RateLimitException(
            ErrorCode.INVALID_REQUEST,
            typeUrl + " carries field number " + field + ", which the message does not declare");
      }
    }
    return decoded;
  }

  private enum Kind {
    ADD("MsgAddRateLimit"),
    UPDATE("MsgUpdateRateLimit"),
    REMOVE("MsgRemoveRateLimit"),
    RESET("MsgResetRateLimit");

    private final String messageName;

    Kind(String messageName) {
      this.messageName = messageName;
    }
  }

  private static Map<String, Kind> routes() {
    Map<String, Kind> routes = new LinkedHashMap<>();
    for (String pkg : new String[] {PACKAGE_A, PACKAGE_G}) {
      for (Kind kind : Kind.values()) {
        routes.put("/" + pkg + "." + kind.messageName, kind);
      }
    }
    return Collections.unmodifiableMap(routes);
  }
}
