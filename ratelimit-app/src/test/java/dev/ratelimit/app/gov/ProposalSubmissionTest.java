package dev.ratelimit.app.gov;

import static dev.ratelimit.app.testing.Network.BOB;
import static dev.ratelimit.app.testing.Network.STRIDE_CH;
import static dev.ratelimit.app.testing.Network.STRIDE_UOSMO;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.Any;
import com.google.protobuf.ByteString;
import com.google.protobuf.Message;
import dev.ratelimit.app.chain.BlockResult;
import dev.ratelimit.app.chain.TxResult;
import dev.ratelimit.app.relayer.OsmosisStride;
import dev.ratelimit.app.testing.Network;
import dev.ratelimit.app.tx.TxException;
import dev.ratelimit.gov.MsgRouter;
import dev.ratelimit.proto.v1.MsgAddRateLimit;
import dev.ratelimit.proto.v1.MsgResetRateLimit;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Which checks refuse a proposal when it is submitted (those that read no state, in the {@code gov}
 * codespace, as the Cosmos SDK's gov module) and which wait for its execution at EndBlock (the
 * stateful ones: the proposal is stored, then recorded as failed).
 */
class ProposalSubmissionTest {
  private static final String G = "/ibc.applications.rate_limiting.v1.";
  private static final String GOV = OsmosisStride.STRIDE_AUTHORITY;

  @TempDir java.nio.file.Path root;

  @Test
  void statelessFailures_refuseTheSubmission_firstFailingMessageReported_noIdUsed() {
    try (Network n = Network.start(root)) {
      Any good = Any.pack(add(GOV, "10"), "");
      Any badPercent = any(G + "MsgAddRateLimit", add(GOV, "101"));
      Any wrongSigner = any(G + "MsgResetRateLimit", reset(OsmosisStride.strideAccount("mallory")));
      Any bankSend = any("/cosmos.bank.v1beta1.MsgSend", add(GOV, "10"));
      Any undecodable =
          Any.newBuilder()
              .setTypeUrl("/ratelimit.v1.MsgRemoveRateLimit")
              .setValue(ByteString.copyFrom(new byte[] {0x12}))
              .build();

      assertRefused(n, List.of(good, bankSend, badPercent), 10,
          "proposal message 2 of 3 cannot be routed: invalid request: unknown message type URL"
              + " \"/cosmos.bank.v1beta1.MsgSend\"; supported: " + MsgRouter.supportedTypeUrls());
      assertRefused(n, List.of(good, badPercent, bankSend), 12,
          "proposal message 2 of 3 (" + G + "MsgAddRateLimit) is invalid: invalid request:"
              + " max_percent_send must be in [0, 100], got \"101\"");
      assertRefused(n, List.of(wrongSigner, badPercent), 13,
          "proposal message 1 of 2 (" + G + "MsgResetRateLimit) is not signed by the gov account:"
              + " unauthorized: expected authority \"" + GOV + "\", got \""
              + OsmosisStride.strideAccount("mallory") + "\"");
      assertRefused(n, List.of(undecodable), 12,
          "proposal message 1 of 1 (/ratelimit.v1.MsgRemoveRateLimit) is invalid: invalid request:"
              + " cannot decode /ratelimit.v1.MsgRemoveRateLimit (1 bytes): While parsing a"
              + " protocol message, the input ended unexpectedly in the middle of a field.  This"
              + " could mean either that the input has been truncated or that an embedded message"
              + " misreported its own length.");
      assertEquals(Optional.empty(), proposal(n, 1));

      // Stateless checks pass: stored with the first id (the refusals used none).
      TxResult r = n.net.deliver(n.stride, new MsgSubmitProposal(BOB, List.of(good)));
      assertTrue(r.isOk(), r.log());
      assertEquals(1, r.value().orElseThrow());
    }
  }

  @Test
  void statefulFailure_isSubmitted_thenRecordedFailedAtExecution() {
    try (Network n = Network.start(root)) {
      // Stride holds no ibc/uosmo yet: the limit's channel value would be zero (code 3).
      MsgSubmitProposal add = new MsgSubmitProposal(BOB, List.of(Any.pack(add(GOV, "10"), "")));
      TxResult r = n.net.deliver(n.stride, add);
      assertTrue(r.isOk(), r.log());
      Proposal p = proposal(n, r.value().orElseThrow()).orElseThrow();
      assertEquals(Proposal.Status.FAILED, p.status());
      assertEquals(
          "channel value is zero: proposal message 1 of 1 (/ratelimit.v1.MsgAddRateLimit) failed:"
              + " denom \"" + STRIDE_UOSMO + "\" has no supply",
          p.failure());
      assertEquals(Optional.empty(), n.rateLimit(n.stride, STRIDE_UOSMO, STRIDE_CH));
    }
  }

  @Test
  void limitAddedBetweenSubmissionAndExecution_failsTheLaterProposal() {
    try (Network n = Network.start(root)) {
      assertTrue(n.sendUosmoToStride(100).isOk());
      n.relay();
      // Both pass submission in one block; the first one's execution adds the limit (code 1 next).
      MsgSubmitProposal add = new MsgSubmitProposal(BOB, List.of(Any.pack(add(GOV, "10"), "")));
      n.net.submit(n.stride, add);
      n.net.submit(n.stride, add);
      BlockResult block = n.net.tick().of(n.stride);
      assertEquals(List.of(0, 0), block.txs().stream().map(TxResult::code).toList());
      assertEquals(Proposal.Status.PASSED, proposal(n, 1).orElseThrow().status());
      Proposal second = proposal(n, 2).orElseThrow();
      assertEquals(Proposal.Status.FAILED, second.status());
      assertEquals(
          "rate limit already exists: proposal message 1 of 1 (/ratelimit.v1.MsgAddRateLimit)"
              + " failed: a rate limit already exists on " + STRIDE_CH + "/" + STRIDE_UOSMO,
          second.failure());
    }
  }

  private static void assertRefused(Network n, List<Any> msgs, int code, String log) {
    TxResult r = n.net.deliver(n.stride, new MsgSubmitProposal(BOB, msgs));
    assertEquals(TxException.GOV, r.codespace(), r.log());
    assertEquals(code, r.code(), r.log());
    assertEquals(log, r.log());
    assertEquals(List.of(), r.events());
  }

  private static Optional<Proposal> proposal(Network n, long id) {
    return n.stride.query(ctx -> n.stride.gov().proposal(ctx, id));
  }

  private static MsgAddRateLimit add(String authority, String send) {
    return MsgAddRateLimit.newBuilder()
        .setAuthority(authority)
        .setDenom(STRIDE_UOSMO)
        .setChannelOrClientId(STRIDE_CH)
        .setMaxPercentSend(send)
        .setMaxPercentRecv("10")
        .setDurationHours(24)
        .build();
  }

  private static MsgResetRateLimit reset(String authority) {
    return MsgResetRateLimit.newBuilder()
        .setAuthority(authority)
        .setDenom(STRIDE_UOSMO)
        .setChannelOrClientId(STRIDE_CH)
        .build();
  }

  /** {@code msg}'s bytes under {@code typeUrl} (G's messages are A's bytes). */
  private static Any any(String typeUrl, Message msg) {
    return Any.newBuilder().setTypeUrl(typeUrl).setValue(msg.toByteString()).build();
  }
}
