package dev.ratelimit.gov;

import static dev.ratelimit.gov.GovTestKit.add;
import static dev.ratelimit.gov.GovTestKit.any;
import static dev.ratelimit.gov.GovTestKit.path;
import static dev.ratelimit.gov.GovTestKit.remove;
import static dev.ratelimit.gov.GovTestKit.reset;
import static dev.ratelimit.gov.GovTestKit.update;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.Any;
import com.google.protobuf.ByteString;
import com.google.protobuf.Message;
import com.google.protobuf.UnknownFieldSet;
import dev.ratelimit.core.ErrorCode;
import dev.ratelimit.core.RateLimitException;
import dev.ratelimit.core.model.Quota;
import dev.ratelimit.proto.v1.MsgAddRateLimitResponse;
import dev.ratelimit.proto.v1.MsgRemoveRateLimitResponse;
import dev.ratelimit.proto.v1.MsgResetRateLimitResponse;
import dev.ratelimit.proto.v1.MsgUpdateRateLimitResponse;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class MsgRouterTest {
  private static final String A = "/ratelimit.v1.";
  private static final String G = "/ibc.applications.rate_limiting.v1.";

  private final GovTestKit kit = new GovTestKit();

  @Test
  void supportedTypeUrls_bothPackages_inOrder() {
    assertEquals(
        List.of(
            A + "MsgAddRateLimit",
            A + "MsgUpdateRateLimit",
            A + "MsgRemoveRateLimit",
            A + "MsgResetRateLimit",
            G + "MsgAddRateLimit",
            G + "MsgUpdateRateLimit",
            G + "MsgRemoveRateLimit",
            G + "MsgResetRateLimit"),
        List.copyOf(MsgRouter.supportedTypeUrls()));
    Set<String> urls = MsgRouter.supportedTypeUrls();
    assertThrows(UnsupportedOperationException.class, () -> urls.add("/x.Msg"));
  }

  @Test
  void packageA_typeUrlsAreTheGeneratedFullNames() {
    assertEquals(A + "MsgAddRateLimit", any(add("ustrd", "channel-0")).getTypeUrl());
    assertEquals(
        "/" + MsgAddRateLimitResponse.getDescriptor().getFullName(), A + "MsgAddRateLimitResponse");
  }

  @ParameterizedTest
  @ValueSource(strings = {A, G})
  void routesAllFourMessages_andAnswersInTheRequestsPackage(String pkg) {
    Any r = kit.router.route(kit.ctx, any(pkg + "MsgAddRateLimit", add("ustrd", "channel-0")));
    assertResponse(pkg + "MsgAddRateLimitResponse", r);
    assertTrue(kit.keeper.hasRateLimit(kit.ctx, path("ustrd", "channel-0")));

    r = kit.router.route(
        kit.ctx, any(pkg + "MsgUpdateRateLimit", update("ustrd", "channel-0", "20", "30", 48)));
    assertResponse(pkg + "MsgUpdateRateLimitResponse", r);
    assertEquals(
        new Quota(20, 30, 48),
        kit.keeper.getRateLimit(kit.ctx, path("ustrd", "channel-0")).orElseThrow().quota());

    r = kit.router.route(kit.ctx, any(pkg + "MsgResetRateLimit", reset("ustrd", "channel-0")));
    assertResponse(pkg + "MsgResetRateLimitResponse", r);

    r = kit.router.route(kit.ctx, any(pkg + "MsgRemoveRateLimit", remove("ustrd", "channel-0")));
    assertResponse(pkg + "MsgRemoveRateLimitResponse", r);
    assertFalse(kit.keeper.hasRateLimit(kit.ctx, path("ustrd", "channel-0")));

    assertEquals(
        List.of(
            "ratelimit_add_rate_limit",
            "ratelimit_update_rate_limit",
            "ratelimit_reset_rate_limit",
            "ratelimit_remove_rate_limit"),
        kit.events.stream().map(e -> e.type()).toList());
  }

  @Test
  void packageA_responsesUnpackAsTheGeneratedTypes() throws Exception {
    assertRoutedTo(add("ustrd", "channel-0"), MsgAddRateLimitResponse.getDefaultInstance());
    assertRoutedTo(
        update("ustrd", "channel-0", "1", "1", 1), MsgUpdateRateLimitResponse.getDefaultInstance());
    assertRoutedTo(reset("ustrd", "channel-0"), MsgResetRateLimitResponse.getDefaultInstance());
    assertRoutedTo(remove("ustrd", "channel-0"), MsgRemoveRateLimitResponse.getDefaultInstance());
  }

  private void assertRoutedTo(Message msg, Message response) throws Exception {
    assertEquals(response, kit.router.route(kit.ctx, any(msg)).unpack(response.getClass()));
  }

  @Test
  void packageG_bytesWithFieldOneAsSigner_areTheSame() {
    // G's MsgAddRateLimit{signer=1, denom=2, channel_or_client_id=3, max_percent_send=4,
    // max_percent_recv=5, duration_hours=6}, hand-encoded.
    ByteString bytes =
        ByteString.copyFrom(
            new byte[] {
              0x0a, 9, 'a', 'u', 't', 'h', 'o', 'r', 'i', 't', 'y',
              0x12, 5, 'u', 's', 't', 'r', 'd',
              0x1a, 9, 'c', 'h', 'a', 'n', 'n', 'e', 'l', '-', '0',
              0x22, 2, '1', '0',
              0x2a, 2, '2', '0',
              0x30, 24
            });
    kit.router.route(kit.ctx, Any.newBuilder().setTypeUrl(G + "MsgAddRateLimit").setValue(bytes).build());
    assertEquals(
        new Quota(10, 20, 24),
        kit.keeper.getRateLimit(kit.ctx, path("ustrd", "channel-0")).orElseThrow().quota());
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        "/ratelimit.v1.MsgFooRateLimit",
        "/ratelimit.v1.MsgAddRateLimitResponse",
        "type.googleapis.com/ratelimit.v1.MsgAddRateLimit",
        "ratelimit.v1.MsgAddRateLimit",
        "/ratelimit.v1.msgaddratelimit",
        "/ratelimit.v2.MsgAddRateLimit",
        "/ibc.applications.rate_limiting.v2.MsgAddRateLimit",
        "/cosmos.bank.v1beta1.MsgSend"
      })
  void unknownTypeUrl_isInvalidRequest(String typeUrl) {
    kit.assertRejected(
        ErrorCode.INVALID_REQUEST,
        () -> kit.router.route(kit.ctx, any(typeUrl, add("ustrd", "channel-0"))));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "ffffffffff", // malformed varint tag
        "0a05617574", // field 1 announces 5 bytes, 3 follow
        "12", // a tag with no value
        "0a01c3", // field 1 is not valid UTF-8
        "0f", // end-group with no start (wire type 7 is invalid too)
        "07"
      })
  void undecodableBytes_areInvalidRequest(String hex) {
    for (String url : MsgRouter.supportedTypeUrls()) {
      kit.assertRejected(
          ErrorCode.INVALID_REQUEST,
          () -> kit.router.route(
              kit.ctx, Any.newBuilder().setTypeUrl(url).setValue(bytes(hex)).build()));
    }
  }

  @Test
  void undeclaredCriticalField_isInvalidRequest() {
    Any msg =
        withUnknownField(
            any(add("ustrd", "channel-0")), 7);
    kit.assertRejected(ErrorCode.INVALID_REQUEST, () -> kit.router.route(kit.ctx, msg));
  }

  @Test
  void undeclaredNonCriticalField_isIgnored_likeTheSdk() {
    kit.router.route(kit.ctx, withUnknownField(any(add("ustrd", "channel-0")), 1024 + 7));
    assertTrue(kit.keeper.hasRateLimit(kit.ctx, path("ustrd", "channel-0")));
  }

  @Test
  void messageErrors_passThroughWithTheirCode() {
    kit.assertRejected(
        ErrorCode.RATE_LIMIT_NOT_FOUND,
        () -> kit.router.route(kit.ctx, any(G + "MsgResetRateLimit", reset("uatom", "channel-0"))));
    kit.assertRejected(
        ErrorCode.UNAUTHORIZED,
        () -> kit.router.route(
            kit.ctx, any(add("ustrd", "channel-0").toBuilder().setAuthority("mallory").build())));
    // Bytes of a remove sent as an add: no percents, so validation fails, nothing runs.
    kit.assertRejected(
        ErrorCode.INVALID_REQUEST,
        () -> kit.router.route(kit.ctx, any(A + "MsgAddRateLimit", remove("ustrd", "channel-0"))));
  }

  // ================================================================== validate: no execution

  @ParameterizedTest
  @ValueSource(strings = {A, G})
  void validate_acceptsAllFourValidMessages_andReadsAndWritesNothing(String pkg) {
    String before = kit.digest();
    // No limit exists and "uatom" has no supply: only execution would find that out.
    kit.router.validate(any(pkg + "MsgAddRateLimit", add("uatom", "channel-0")));
    kit.router.validate(any(pkg + "MsgAddRateLimit", add("ustrd", "channel-9")));
    kit.router.validate(any(pkg + "MsgUpdateRateLimit", update("ustrd", "channel-0", "1", "0", 1)));
    kit.router.validate(any(pkg + "MsgRemoveRateLimit", remove("ustrd", "07-tendermint-5")));
    kit.router.validate(any(pkg + "MsgResetRateLimit", reset("ustrd", "channel-0")));
    assertEquals(before, kit.digest());
    assertEquals(List.of(), kit.events);
  }

  /** Valid fields and signer, failing at execution only: validate lets each through. */
  @Test
  void validate_leavesTheStatefulChecksToExecution() {
    kit.router.route(kit.ctx, any(add("ustrd", "channel-0")));
    kit.events.clear();
    Map<ErrorCode, Any> statefulFailures =
        Map.of(
            ErrorCode.RATE_LIMIT_ALREADY_EXISTS, any(add("ustrd", "channel-0")),
            ErrorCode.ZERO_CHANNEL_VALUE, any(add("uatom", "channel-0")),
            ErrorCode.CHANNEL_NOT_FOUND, any(add("ustrd", "channel-9")),
            ErrorCode.RATE_LIMIT_NOT_FOUND,
            any(G + "MsgResetRateLimit", reset("ustrd", "channel-1")));
    statefulFailures.forEach(
        (code, msg) -> {
          kit.router.validate(msg);
          kit.assertRejected(code, () -> kit.router.route(kit.ctx, msg));
        });
  }

  static Stream<Arguments> statelessFailures() {
    String unauthorized = "unauthorized: expected authority \"authority\", got \"mallory\"";
    return Stream.of(A, G)
        .flatMap(
            pkg ->
                Stream.of(
                    Arguments.of(
                        any(pkg + "MsgAddRateLimit", add("ustrd", "channel-0").toBuilder()
                            .setAuthority(" ").build()),
                        ErrorCode.INVALID_ADDRESS,
                        "invalid address: authority must not be blank, got \" \""),
                    Arguments.of(
                        any(pkg + "MsgAddRateLimit", add("ustrd", "channel-0", "101", "10", 24)),
                        ErrorCode.INVALID_REQUEST,
                        "invalid request: max_percent_send must be in [0, 100], got \"101\""),
                    Arguments.of(
                        any(pkg + "MsgAddRateLimit", add("ustrd", "channel-")),
                        ErrorCode.INVALID_REQUEST,
                        "invalid request: channel_or_client_id must be a channel id (channel-N) or"
                            + " a client id, got \"channel-\""),
                    Arguments.of(
                        any(pkg + "MsgUpdateRateLimit", update("ustrd", "channel-0", "0", "0", 24)),
                        ErrorCode.INVALID_REQUEST,
                        "invalid request: max_percent_send and max_percent_recv must not both"
                            + " be 0"),
                    Arguments.of(
                        any(pkg + "MsgUpdateRateLimit",
                            update("ustrd", "channel-0", "5", "010", 1)),
                        ErrorCode.INVALID_REQUEST,
                        "invalid request: max_percent_recv must be a canonical decimal integer in"
                            + " [0, 100], got \"010\""),
                    Arguments.of(
                        any(pkg + "MsgUpdateRateLimit", update("ustrd", "channel-0", "5", "5", 0)),
                        ErrorCode.INVALID_REQUEST,
                        "invalid request: duration_hours must not be 0"),
                    Arguments.of(
                        any(pkg + "MsgRemoveRateLimit", remove("", "channel-0")),
                        ErrorCode.INVALID_REQUEST,
                        "invalid request: denom must not be empty"),
                    Arguments.of(
                        any(pkg + "MsgResetRateLimit", reset("ustrd", "channel-0").toBuilder()
                            .setAuthority("mallory").build()),
                        ErrorCode.UNAUTHORIZED,
                        unauthorized),
                    // a field error wins over a wrong signer (rules 2-7 before 8)
                    Arguments.of(
                        any(pkg + "MsgRemoveRateLimit", remove("ustrd", "invalid").toBuilder()
                            .setAuthority("mallory").build()),
                        ErrorCode.INVALID_REQUEST,
                        "invalid request: channel_or_client_id must be a channel id (channel-N) or"
                            + " a client id, got \"invalid\""),
                    Arguments.of(
                        Any.newBuilder().setTypeUrl(pkg + "MsgResetRateLimit")
                            .setValue(bytes("0a0561")).build(),
                        ErrorCode.INVALID_REQUEST,
                        "invalid request: cannot decode " + pkg + "MsgResetRateLimit (3 bytes):"
                            + " While parsing a protocol message, the input ended unexpectedly in"
                            + " the middle of a field.  This could mean either that the input has"
                            + " been truncated or that an embedded message misreported its own"
                            + " length."),
                    Arguments.of(
                        withUnknownField(
                            any(pkg + "MsgAddRateLimit", add("ustrd", "channel-0")), 7),
                        ErrorCode.INVALID_REQUEST,
                        "invalid request: " + pkg + "MsgAddRateLimit carries field number 7, which"
                            + " the message does not declare")));
  }

  @ParameterizedTest
  @MethodSource("statelessFailures")
  void validate_failsExactlyAsRouteWould_andWritesNothing(Any msg, ErrorCode code, String message) {
    RateLimitException validated = kit.assertRejected(code, () -> kit.router.validate(msg));
    assertEquals(message, validated.getMessage());
    RateLimitException routed = kit.assertRejected(code, () -> kit.router.route(kit.ctx, msg));
    assertEquals(message, routed.getMessage());
  }

  @Test
  void validate_unknownTypeUrl_isInvalidRequest_asRouteReportsIt() {
    Any msg = any("/cosmos.bank.v1beta1.MsgSend", add("ustrd", "channel-0"));
    RateLimitException e = kit.assertRejected(
        ErrorCode.INVALID_REQUEST, () -> kit.router.validate(msg));
    assertEquals(
        "invalid request: unknown message type URL \"/cosmos.bank.v1beta1.MsgSend\"; supported: "
            + MsgRouter.supportedTypeUrls(),
        e.getMessage());
    assertEquals(
        e.getMessage(),
        assertThrows(RateLimitException.class, () -> kit.router.route(kit.ctx, msg)).getMessage());
  }

  @Test
  void validate_null_isACallerBug() {
    assertThrows(NullPointerException.class, () -> kit.router.validate(null));
  }

  private static void assertResponse(String typeUrl, Any response) {
    assertEquals(typeUrl, response.getTypeUrl());
    assertTrue(response.getValue().isEmpty());
  }

  private static Any withUnknownField(Any msg, int field) {
    ByteString extra =
        UnknownFieldSet.newBuilder()
            .addField(field, UnknownFieldSet.Field.newBuilder().addVarint(1).build())
            .build()
            .toByteString();
    return msg.toBuilder().setValue(msg.getValue().concat(extra)).build();
  }

  private static ByteString bytes(String hex) {
    byte[] out = new byte[hex.length() / 2];
    for (int i = 0; i < out.length; i++) {
      out[i] = (byte) Integer.parseInt(hex.substring(2 * i, 2 * i + 2), 16);
    }
    return ByteString.copyFrom(out);
  }
}
