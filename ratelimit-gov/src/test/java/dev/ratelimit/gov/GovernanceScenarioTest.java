package dev.ratelimit.gov;

import static dev.ratelimit.gov.GovTestKit.add;
import static dev.ratelimit.gov.GovTestKit.any;
import static dev.ratelimit.gov.GovTestKit.path;
import static dev.ratelimit.gov.GovTestKit.remove;
import static dev.ratelimit.gov.GovTestKit.reset;
import static dev.ratelimit.gov.GovTestKit.update;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.Any;
import com.google.protobuf.Message;
import dev.ratelimit.core.ErrorCode;
import dev.ratelimit.core.host.BlockContext;
import dev.ratelimit.core.model.Flow;
import dev.ratelimit.core.model.PacketDirection;
import dev.ratelimit.core.model.PendingPacket;
import dev.ratelimit.core.model.Quota;
import dev.ratelimit.core.model.RateLimitedPacket;
import java.math.BigInteger;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The conformance scenario {@code governance.json} ("governance messages: validation, authority,
 * errors, update and remove"), step by step at keeper and handler level: messages go through the
 * {@link MsgRouter} as {@code Any}, the proposal through the {@link ProposalHandler}, sends and
 * timeouts through the keeper the way the middleware drives it. Each step is one transaction.
 */
class GovernanceScenarioTest {
  private static final String CHANNEL = "channel-0";
  private final GovTestKit kit = new GovTestKit(); // channel-0 open, supply ustrd = 1000

  @Test
  void governanceScenario() {
    // 1-4: stateful errors of add, in the keeper's order
    rejected(ErrorCode.ZERO_CHANNEL_VALUE, add("uzero", CHANNEL));
    ok(add("ustrd", CHANNEL));
    rejected(ErrorCode.RATE_LIMIT_ALREADY_EXISTS, add("ustrd", CHANNEL));
    rejected(ErrorCode.CHANNEL_NOT_FOUND, add("ustrd", "channel-9"));
    // 5: wrong signer
    rejected(
        ErrorCode.UNAUTHORIZED, add("ustrd", CHANNEL).toBuilder().setAuthority("mallory").build());
    // 6-10: stateless validation
    rejected(ErrorCode.INVALID_REQUEST, add("ustrd", CHANNEL, "101", "10", 24));
    rejected(ErrorCode.INVALID_REQUEST, add("ustrd", CHANNEL, "0", "0", 24));
    rejected(ErrorCode.INVALID_REQUEST, add("ustrd", CHANNEL, "10", "10", 0));
    rejected(ErrorCode.INVALID_REQUEST, add("ustrd", "invalid"));
    rejected(ErrorCode.INVALID_REQUEST, add("", CHANNEL));

    // 11-12: a send of 50 is counted
    send(1, 50);
    assertFlow(0, 50, 1000);

    // 13-16: supply doubles; update replaces the quota, restarts the window, clears markers
    kit.supply.put("ustrd", BigInteger.valueOf(2000));
    ok(update("ustrd", CHANNEL, "20", "30", 48));
    assertEquals(
        new Quota(20, 30, 48),
        kit.keeper.getRateLimit(kit.ctx, path("ustrd", CHANNEL)).orElseThrow().quota());
    assertFlow(0, 0, 2000);
    assertPendingSends();

    // 17-18: the pre-update packet times out: no capacity is given back in the new window
    timeout(1, 50);
    assertFlow(0, 0, 2000);

    // 19-21: messages on a path without a limit
    rejected(ErrorCode.RATE_LIMIT_NOT_FOUND, update("uatom", CHANNEL, "20", "30", 48));
    rejected(ErrorCode.RATE_LIMIT_NOT_FOUND, reset("uatom", CHANNEL));
    rejected(ErrorCode.RATE_LIMIT_NOT_FOUND, remove("uatom", CHANNEL));

    // 22-25: exactly the threshold (20% of 2000) is accepted; reset clears it
    send(2, 400);
    assertFlow(0, 400, 2000);
    ok(reset("ustrd", CHANNEL));
    assertFlow(0, 0, 2000);

    // 26-27: a proposal whose second message fails applies nothing (the remove is undone)
    String before = kit.digest();
    kit.assertRejected(
        ErrorCode.RATE_LIMIT_NOT_FOUND,
        () -> kit.proposals.execute(
            kit.ctx, List.of(any(remove("ustrd", CHANNEL)), any(reset("uatom", CHANNEL)))));
    assertEquals(before, kit.digest());
    assertFlow(0, 0, 2000);

    // 28-31: remove takes the limit and its pending markers with it
    send(3, 10);
    assertPendingSends(3L);
    ok(remove("ustrd", CHANNEL));
    assertFalse(kit.keeper.hasRateLimit(kit.ctx, path("ustrd", CHANNEL)));
    assertPendingSends();

    // 32: without a limit anything goes, and nothing is recorded
    String beforeUnlimited = kit.digest();
    assertFalse(send(4, 100_000));
    assertEquals(beforeUnlimited, kit.digest());
  }

  private void ok(Message msg) {
    Any response = kit.router.route(kit.ctx, any(msg));
    assertEquals(any(msg).getTypeUrl() + "Response", response.getTypeUrl());
  }

  private void rejected(ErrorCode code, Message msg) {
    kit.assertRejected(code, () -> kit.router.route(kit.ctx, any(msg)));
  }

  /** The middleware's send: check and count, then record the pending marker; one transaction. */
  private boolean send(long sequence, long amount) {
    try (BlockContext tx = kit.ctx.branch()) {
      RateLimitedPacket packet =
          new RateLimitedPacket(
              CHANNEL, "ustrd", BigInteger.valueOf(amount), "stride1alice", "osmo1bob");
      boolean counted = kit.keeper.checkRateLimitAndUpdateFlow(tx, PacketDirection.SEND, packet);
      if (counted) {
        kit.keeper.setPendingSendPacket(tx, new PendingPacket(CHANNEL, "ustrd", sequence));
      }
      tx.commit();
      return counted;
    }
  }

  /** The middleware's timeout: undo the send if it was counted in the current window. */
  private void timeout(long sequence, long amount) {
    try (BlockContext tx = kit.ctx.branch()) {
      kit.keeper.undoSendPacket(
          tx, new PendingPacket(CHANNEL, "ustrd", sequence), BigInteger.valueOf(amount));
      tx.commit();
    }
  }

  private void assertFlow(long inflow, long outflow, long channelValue) {
    assertTrue(kit.keeper.hasRateLimit(kit.ctx, path("ustrd", CHANNEL)));
    assertEquals(
        new Flow(
            BigInteger.valueOf(inflow), BigInteger.valueOf(outflow), BigInteger.valueOf(channelValue)),
        kit.keeper.getRateLimit(kit.ctx, path("ustrd", CHANNEL)).orElseThrow().flow());
  }

  private void assertPendingSends(Long... sequences) {
    assertEquals(
        List.of(sequences),
        kit.keeper.getPendingSendPackets(kit.ctx, path("ustrd", CHANNEL)).stream()
            .map(PendingPacket::sequence)
            .toList());
  }
}
