package dev.ratelimit.gov;

import static dev.ratelimit.gov.GovTestKit.add;
import static dev.ratelimit.gov.GovTestKit.any;
import static dev.ratelimit.gov.GovTestKit.path;
import static dev.ratelimit.gov.GovTestKit.remove;
import static dev.ratelimit.gov.GovTestKit.reset;
import static dev.ratelimit.gov.GovTestKit.update;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.Any;
import dev.ratelimit.core.ErrorCode;
import dev.ratelimit.core.RateLimitException;
import dev.ratelimit.core.host.Event;
import dev.ratelimit.core.model.Flow;
import dev.ratelimit.core.model.PendingPacket;
import dev.ratelimit.core.model.Quota;
import java.math.BigInteger;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class ProposalHandlerTest {
  private final GovTestKit kit = new GovTestKit();

  @Test
  void emptyProposal_isInvalidRequest() {
    kit.assertRejected(ErrorCode.INVALID_REQUEST, () -> kit.proposals.execute(kit.ctx, List.of()));
  }

  @Test
  void nullMessage_isACallerBug() {
    assertThrows(
        NullPointerException.class,
        () -> kit.proposals.execute(kit.ctx, Arrays.asList(any(add("ustrd", "channel-0")), null)));
    assertThrows(NullPointerException.class, () -> kit.proposals.execute(kit.ctx, null));
  }

  @Test
  void allMessagesSucceed_allApply_inOrder() {
    kit.supply.put("uatom", BigInteger.valueOf(500));
    List<Any> responses =
        kit.proposals.execute(
            kit.ctx,
            List.of(
                any(add("ustrd", "channel-0")),
                any(add("uatom", "channel-0")),
                any(update("ustrd", "channel-0", "5", "6", 7)),
                any("/ibc.applications.rate_limiting.v1.MsgRemoveRateLimit", remove("uatom", "channel-0"))));
    assertEquals(
        List.of(
            "/ratelimit.v1.MsgAddRateLimitResponse",
            "/ratelimit.v1.MsgAddRateLimitResponse",
            "/ratelimit.v1.MsgUpdateRateLimitResponse",
            "/ibc.applications.rate_limiting.v1.MsgRemoveRateLimitResponse"),
        responses.stream().map(Any::getTypeUrl).toList());
    assertEquals(
        new Quota(5, 6, 7),
        kit.keeper.getRateLimit(kit.ctx, path("ustrd", "channel-0")).orElseThrow().quota());
    assertFalse(kit.keeper.hasRateLimit(kit.ctx, path("uatom", "channel-0")));
    assertEquals(
        List.of(
            "ratelimit_add_rate_limit",
            "ratelimit_add_rate_limit",
            "ratelimit_update_rate_limit",
            "ratelimit_remove_rate_limit"),
        kit.events.stream().map(Event::type).toList());
  }

  @Test
  void laterMessageFails_nothingApplies_firstFailureReported() {
    kit.handler.addRateLimit(kit.ctx, add("ustrd", "channel-0"));
    kit.keeper.setPendingSendPacket(kit.ctx, new PendingPacket("channel-0", "ustrd", 3));
    kit.events.clear();

    RateLimitException e =
        kit.assertRejected(
            ErrorCode.RATE_LIMIT_NOT_FOUND,
            () -> kit.proposals.execute(
                kit.ctx,
                List.of(
                    any(remove("ustrd", "channel-0")), // succeeds inside the proposal
                    any(reset("uatom", "channel-0"))))); // fails with 2
    assertInstanceOf(RateLimitException.class, e.getCause());
    assertEquals(ErrorCode.RATE_LIMIT_NOT_FOUND, ((RateLimitException) e.getCause()).code());
    assertEquals("rate limit not found: proposal message 2 of 2 (/ratelimit.v1.MsgResetRateLimit)"
        + " failed: no rate limit on channel-0/uatom", e.getMessage()); // the class said once
    assertEquals("rate limit not found: no rate limit on channel-0/uatom",
        e.getCause().getMessage());
    assertTrue(kit.keeper.hasRateLimit(kit.ctx, path("ustrd", "channel-0")));
    assertTrue(
        kit.keeper.isPendingSendPacket(kit.ctx, new PendingPacket("channel-0", "ustrd", 3)));
  }

  /** Found by GovFuzzTest: an unknown type URL was copied into the reason raw, newlines and all. */
  @Test
  void unknownTypeUrl_isQuotedEscapedAndCut_inTheReason() {
    String url = "/x\n" + "y".repeat(10_000);
    RateLimitException e =
        kit.assertRejected(
            ErrorCode.INVALID_REQUEST,
            () -> kit.proposals.execute(
                kit.ctx, List.of(com.google.protobuf.Any.newBuilder().setTypeUrl(url).build())));
    assertTrue(
        e.getMessage().startsWith("invalid request: proposal message 1 of 1 (\"/x\\u000a"),
        e.getMessage());
    assertTrue(e.getMessage().indexOf('\n') < 0 && e.getMessage().length() < 1000, e.getMessage());
  }

  @Test
  void firstFailureStopsExecution_laterErrorsAreNotReported() {
    // 1: ok, 2: unauthorized, 3: would be code 1, 4: would be invalid_request
    kit.assertRejected(
        ErrorCode.UNAUTHORIZED,
        () -> kit.proposals.execute(
            kit.ctx,
            List.of(
                any(add("ustrd", "channel-0")),
                any(update("ustrd", "channel-0", "1", "1", 1).toBuilder().setAuthority("mallory").build()),
                any(add("ustrd", "channel-0")),
                any(add("", "channel-0")))));
    assertFalse(kit.keeper.hasRateLimit(kit.ctx, path("ustrd", "channel-0")));
  }

  @Test
  void unknownTypeUrlAfterAGoodMessage_nothingApplies() {
    kit.assertRejected(
        ErrorCode.INVALID_REQUEST,
        () -> kit.proposals.execute(
            kit.ctx,
            List.of(
                any(add("ustrd", "channel-0")),
                any("/cosmos.bank.v1beta1.MsgSend", add("ustrd", "channel-0")))));
    assertFalse(kit.keeper.hasRateLimit(kit.ctx, path("ustrd", "channel-0")));
  }

  // ================================================================== validate: no execution

  @Test
  void validate_emptyProposal_isInvalidRequest() {
    RateLimitException e =
        kit.assertRejected(ErrorCode.INVALID_REQUEST, () -> kit.proposals.validate(List.of()));
    assertEquals("invalid request: a proposal needs at least one message", e.getMessage());
  }

  @Test
  void validate_null_isACallerBug() {
    assertThrows(
        NullPointerException.class,
        () -> kit.proposals.validate(Arrays.asList(any(add("ustrd", "channel-0")), null)));
    assertThrows(NullPointerException.class, () -> kit.proposals.validate(null));
  }

  @Test
  void validate_firstInvalidMessage_isReportedAsExecuteWouldReportIt() {
    // 1: valid, 2: invalid percent (G's package), 3: wrong signer, 4: undecodable
    List<Any> msgs =
        List.of(
            any(add("ustrd", "channel-0")),
            any(
                "/ibc.applications.rate_limiting.v1.MsgUpdateRateLimit",
                update("ustrd", "channel-0", "10", "101", 24)),
            any(reset("ustrd", "channel-0").toBuilder().setAuthority("mallory").build()),
            Any.newBuilder().setTypeUrl("/ratelimit.v1.MsgRemoveRateLimit").setValue(
                com.google.protobuf.ByteString.copyFrom(new byte[] {0x12})).build());
    RateLimitException validated =
        kit.assertRejected(ErrorCode.INVALID_REQUEST, () -> kit.proposals.validate(msgs));
    assertEquals(
        "invalid request: proposal message 2 of 4"
            + " (/ibc.applications.rate_limiting.v1.MsgUpdateRateLimit) failed:"
            + " max_percent_recv must be in [0, 100], got \"101\"",
        validated.getMessage());
    assertEquals(ErrorCode.INVALID_REQUEST, ((RateLimitException) validated.getCause()).code());
    RateLimitException executed =
        kit.assertRejected(ErrorCode.INVALID_REQUEST, () -> kit.proposals.execute(kit.ctx, msgs));
    assertEquals(validated.getMessage(), executed.getMessage());

    RateLimitException unauthorized =
        kit.assertRejected(
            ErrorCode.UNAUTHORIZED, () -> kit.proposals.validate(msgs.subList(2, 4)));
    assertEquals(
        "unauthorized: proposal message 1 of 2 (/ratelimit.v1.MsgResetRateLimit) failed:"
            + " expected authority \"authority\", got \"mallory\"",
        unauthorized.getMessage());
  }

  @Test
  void validate_passesAProposalThatOnlyStateRefuses_executionStillFailsIt() {
    // The second add finds the first one's limit: code 1, known only when it executes.
    List<Any> msgs = List.of(any(add("ustrd", "channel-0")), any(add("ustrd", "channel-0")));
    String before = kit.digest();
    kit.proposals.validate(msgs);
    assertEquals(before, kit.digest());
    assertEquals(List.of(), kit.events);
    kit.assertRejected(
        ErrorCode.RATE_LIMIT_ALREADY_EXISTS, () -> kit.proposals.execute(kit.ctx, msgs));
    assertFalse(kit.keeper.hasRateLimit(kit.ctx, path("ustrd", "channel-0")));
  }

  @Test
  void laterMessagesSeeEarlierWrites() {
    // add then update in one proposal: the update finds the limit the add wrote in the branch
    kit.supply.put("ustrd", BigInteger.valueOf(70));
    kit.proposals.execute(
        kit.ctx,
        List.of(any(add("ustrd", "channel-0")), any(update("ustrd", "channel-0", "2", "3", 4))));
    assertEquals(
        Flow.fresh(BigInteger.valueOf(70)),
        kit.keeper.getRateLimit(kit.ctx, path("ustrd", "channel-0")).orElseThrow().flow());
  }
}
